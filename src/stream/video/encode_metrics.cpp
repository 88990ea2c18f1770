#include "stream/video/encode_metrics.h"

#include <algorithm>
#include <string>
#include <vector>

namespace voxl::stream {

namespace {

// Seconds: 0.25 ms to 0.5 s, doubling, which spans a small damage rectangle
// to a stalled 4K frame.
std::vector<double> stage_bounds() {
  std::vector<double> b;
  for (double s = 0.00025; s < 0.6; s *= 2) b.push_back(s);
  return b;
}

}  // namespace

EncodeMetrics::EncodeMetrics()
    : capture_(stage_bounds()), convert_(stage_bounds()), encode_(stage_bounds()), pipeline_(stage_bounds()) {}

void EncodeMetrics::add(const encode::EncodedFrame& f, std::chrono::steady_clock::time_point published) {
  Rung& r = rungs_[size_t(std::clamp(f.rung, 0, kMaxRungs - 1))];
  r.bytes += f.data.size();
  r.part_key = r.part_key || f.key;
  if (!f.last_part) return;
  ++r.pictures;
  if (r.part_key) ++r.key_pictures;
  r.part_key = false;
  encode_.observe(f.times.encode_us / 1e6);
  // Every rung's picture of one capture carries that capture's times: count
  // them once, with rung 0 (always coded while anything is).
  if (f.rung != 0) return;
  capture_.observe(f.times.capture_us / 1e6);
  convert_.observe(f.times.convert_us / 1e6);
  pipeline_.observe(std::max(0.0, std::chrono::duration<double>(published - f.captured_at).count()));
}

void EncodeMetrics::write(MetricsText& out) const {
  using T = MetricsText::Type;
  struct Counter {
    const char* name;
    const char* help;
    uint64_t Rung::*field;
  };
  const Counter counters[] = {
      {"voxl_pictures_encoded_total", "Pictures coded, per rung of the encoding ladder", &Rung::pictures},
      {"voxl_encoded_bytes_total", "H.264 bytes coded, per rung", &Rung::bytes},
      {"voxl_key_frames_total", "Key frames (IDR) coded, per rung", &Rung::key_pictures},
  };
  for (const Counter& c : counters) {
    out.family(c.name, T::kCounter, c.help);
    for (size_t i = 0; i < rungs_.size(); ++i) {
      // Rung 0 always; a lower rung once it has coded.
      if (i > 0 && rungs_[i].pictures == 0 && rungs_[i].bytes == 0) continue;
      const std::string rung = std::to_string(i);
      out.sample(c.name, {{"rung", rung}}, double(rungs_[i].*c.field));
    }
  }
  out.family("voxl_stage_seconds", T::kHistogram,
             "Time per picture in each stage: capture, convert (to YUV) and pipeline (capture to publication) once "
             "per capture, encode (x264) once per picture of every rung");
  out.histogram("voxl_stage_seconds", {{"stage", "capture"}}, capture_);
  out.histogram("voxl_stage_seconds", {{"stage", "convert"}}, convert_);
  out.histogram("voxl_stage_seconds", {{"stage", "encode"}}, encode_);
  out.histogram("voxl_stage_seconds", {{"stage", "pipeline"}}, pipeline_);
}

}  // namespace voxl::stream
