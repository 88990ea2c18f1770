#include "picture_quality.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>

#include "frame_recorder.h"

namespace voxl::bench {

namespace {

using json = nlohmann::json;

constexpr int64_t kMovingIntervalUs = 200000;
constexpr int64_t kStillIntervalUs = 15000;
constexpr double kSettleDb = 1.0;

double psnr(double squared_error, double count) {
  if (count <= 0) return std::nan("");
  const double mse = squared_error / count;
  return mse <= 0 ? kMaxPsnrDb : std::min(kMaxPsnrDb, 10 * std::log10(255.0 * 255.0 / mse));
}

double luma_of(double r, double g, double b) { return 0.299 * r + 0.587 * g + 0.114 * b; }

}  // namespace

PsnrSample measure_psnr(const PictureView& p, const uint32_t* expected, int skip_w, int skip_h) {
  // (Y - 16) * 255 / 219 and 1.164 * (Y - 16), by table.
  static constexpr auto tables = [] {
    std::array<std::array<float, 256>, 2> t{};
    for (int i = 0; i < 256; ++i) {
      t[0][size_t(i)] = float((i - 16) * 255.0 / 219.0);
      t[1][size_t(i)] = float(1.164 * (i - 16));
    }
    return t;
  }();
  const auto clamp_byte = [](float v) { return v < 0 ? 0.0f : v > 255 ? 255.0f : std::nearbyint(v); };
  double luma_se = 0, rgb_se = 0;
  double pixels = 0;
  const bool yuv = p.y != nullptr;
  const int sx = yuv && p.chroma_width < p.width ? 1 : 0;
  const int sy = yuv && p.chroma_height < p.height ? 1 : 0;
  for (int y = 0; y < p.height; ++y) {
    const int x0 = y < skip_h ? std::min(skip_w, p.width) : 0;
    const uint32_t* e = expected + size_t(y) * size_t(p.width);
    float row_luma = 0, row_rgb = 0;  // per row in float, summed in double
    for (int x = x0; x < p.width; ++x) {
      const float er = float((e[x] >> 16) & 0xff), eg = float((e[x] >> 8) & 0xff), eb = float(e[x] & 0xff);
      float dl, dr, dg, db;
      if (yuv) {
        const uint8_t Y = p.y[size_t(y) * size_t(p.width) + size_t(x)];
        const size_t c = size_t(y >> sy) * size_t(p.chroma_width) + size_t(x >> sx);
        const float cb = float(p.u[c]) - 128, cr = float(p.v[c]) - 128, l = tables[1][Y];
        dl = tables[0][Y];
        dr = clamp_byte(l + 1.596f * cr);
        dg = clamp_byte(l - 0.392f * cb - 0.813f * cr);
        db = clamp_byte(l + 2.017f * cb);
      } else {
        const uint8_t* q = p.rgbx + (size_t(y) * size_t(p.width) + size_t(x)) * 4;
        dr = q[0], dg = q[1], db = q[2];
        dl = float(luma_of(dr, dg, db));
      }
      const float el = float(luma_of(er, eg, eb));
      row_luma += (dl - el) * (dl - el);
      row_rgb += (dr - er) * (dr - er) + (dg - eg) * (dg - eg) + (db - eb) * (db - eb);
    }
    luma_se += row_luma;
    rgb_se += row_rgb;
    pixels += p.width - x0;
  }
  return {0, 0, psnr(luma_se, pixels), psnr(rgb_se, 3 * pixels)};
}

void PictureQuality::prepare(int width, int height) {
  if (unpredictable_ || (model_ && width == width_ && height == height_)) return;
  model_ = make_expected_picture(workload_, width, height);
  if (!model_) {
    unpredictable_ = true;
    return;
  }
  width_ = width;
  height_ = height;
  expected_.assign(size_t(width_) * size_t(height_), 0);
  expected_counter_.reset();
}

uint32_t rgb_at(const PictureView& p, int x, int y) {
  if (!p.y) {
    const uint8_t* q = p.rgbx + (size_t(y) * size_t(p.width) + size_t(x)) * 4;
    return uint32_t(q[0]) << 16 | uint32_t(q[1]) << 8 | q[2];
  }
  const int sx = p.chroma_width < p.width ? 1 : 0, sy = p.chroma_height < p.height ? 1 : 0;
  const size_t c = size_t(y >> sy) * size_t(p.chroma_width) + size_t(x >> sx);
  const double l = 1.164 * (p.y[size_t(y) * size_t(p.width) + size_t(x)] - 16), cb = p.u[c] - 128.0, cr = p.v[c] - 128.0;
  const auto byte = [](double v) { return uint32_t(std::clamp(int(std::lround(v)), 0, 255)); };
  return byte(l + 1.596 * cr) << 16 | byte(l - 0.392 * cb - 0.813 * cr) << 8 | byte(l + 2.017 * cb);
}

namespace {

void write_ppm(const std::string& path, int w, int h, const std::function<uint32_t(int, int)>& rgb) {
  std::ofstream out(path, std::ios::binary);
  out << "P6\n" << w << " " << h << "\n255\n";
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint32_t p = rgb(x, y);
      const char px[3] = {char(p >> 16), char(p >> 8), char(p)};
      out.write(px, 3);
    }
}

}  // namespace

bool PictureQuality::sample(const PictureView& picture, uint32_t counter, int64_t arrived_us,
                            std::vector<PsnrSample>& into) {
  if (picture.width <= 0 || picture.height <= 0) return false;
  prepare(picture.width, picture.height);
  if (!model_) return false;
  if (expected_counter_ != counter) {
    model_->render(counter, expected_.data());
    expected_counter_ = counter;
  }
  PsnrSample s = measure_psnr(picture, expected_.data(), marker_width(cell_), marker_height(cell_));
  s.counter = counter;
  s.at_us = arrived_us;
  into.push_back(s);
  last_sample_us_ = arrived_us;
  return true;
}

void PictureQuality::on_picture(const PictureView& picture, std::optional<uint32_t> counter, bool in_window) {
  const int64_t now = realtime_us();
  if (in_still()) {
    last_arrived_us_ = now;
    last_sampled_ = counter && now - last_sample_us_ >= kStillIntervalUs && sample(picture, *counter, now, still_);
    return;
  }
  if (in_window && counter && now - last_sample_us_ >= kMovingIntervalUs) sample(picture, *counter, now, moving_);
}

void PictureQuality::start_still() {
  still_start_us_ = realtime_us();
  last_sampled_ = true;  // nothing new to sample yet
}

void PictureQuality::finish_still(const PictureView& last, std::optional<uint32_t> counter) {
  if (in_still() && !last_sampled_ && counter) sample(last, *counter, last_arrived_us_, still_);
  last_sampled_ = true;
  if (!save_prefix_.empty() && counter && model_ && last.width == width_ && last.height == height_) {
    model_->render(*counter, expected_.data());
    expected_counter_ = counter;
    write_ppm(save_prefix_ + "-decoded.ppm", width_, height_, [&](int x, int y) { return rgb_at(last, x, y); });
    write_ppm(save_prefix_ + "-expected.ppm", width_, height_,
              [&](int x, int y) { return expected_[size_t(y) * size_t(width_) + size_t(x)]; });
  }
}

json PictureQuality::finish(const DrawLog& log) const {
  json out = json::object();
  const auto number = [](double v) { return std::isnan(v) ? json(nullptr) : json(std::round(v * 100) / 100); };
  if (!moving_.empty()) {
    std::vector<double> luma, rgb;
    for (const auto& s : moving_) luma.push_back(s.luma_db), rgb.push_back(s.rgb_db);
    out["psnr_p50_db"] = number(percentile(luma, 0.5));
    out["psnr_p10_db"] = number(percentile(luma, 0.1));
    out["rgb_psnr_p50_db"] = number(percentile(rgb, 0.5));
    out["psnr_samples"] = moving_.size();
  }
  if (!still_.empty()) {
    const PsnrSample& last = still_.back();
    // The last counter drawn: the workload holds still until after the
    // client has read the log.
    const uint32_t final_counter = log.entries.empty() ? last.counter : log.entries.back().first;
    out["still_psnr_db"] = number(last.luma_db);
    out["still_rgb_psnr_db"] = number(last.rgb_db);
    out["still_counter"] = last.counter;
    out["still_behind"] = final_counter > last.counter ? final_counter - last.counter : 0;
    out["still_samples"] = still_.size();
    // From the back: the first sample of the final picture from which on
    // both figures stay within 1 dB of their final values.
    size_t settled = still_.size();
    while (settled > 0) {
      const PsnrSample& s = still_[settled - 1];
      if (s.counter != last.counter || std::abs(s.luma_db - last.luma_db) > kSettleDb ||
          std::abs(s.rgb_db - last.rgb_db) > kSettleDb)
        break;
      --settled;
    }
    const auto drawn = log.draw_time(last.counter);
    out["still_settle_ms"] = final_counter == last.counter && drawn
                                 ? number(double(still_[settled].at_us - *drawn) / 1000.0)
                                 : json(nullptr);
  }
  return out;
}

}  // namespace voxl::bench
