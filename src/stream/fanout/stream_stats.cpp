#include "stream/fanout/stream_stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace voxl::stream {

namespace {

template <class Sample, class Get>
double median_ms(const std::deque<Sample>& samples, Get get) {
  if (samples.empty()) return 0;
  std::vector<uint32_t> v;
  v.reserve(samples.size());
  for (const auto& s : samples) v.push_back(get(s));
  std::nth_element(v.begin(), v.begin() + ptrdiff_t(v.size() / 2), v.end());
  return double(v[v.size() / 2]) / 1000.0;
}

}  // namespace

void StreamStats::add(const encode::EncodedFrame& f, std::chrono::steady_clock::time_point published) {
  // A striped picture's parts come one after another: one sample for all.
  part_bytes_ += f.data.size();
  part_key_ = part_key_ || f.key;
  if (!f.last_part) return;
  const auto pipeline = std::chrono::duration_cast<std::chrono::microseconds>(published - f.captured_at);
  window_.push_back({published, f.times, uint32_t(std::max<int64_t>(0, pipeline.count())), part_bytes_, part_key_,
                     uint32_t(std::lround(std::max(0.0, f.rate_factor) * 1000))});
  part_bytes_ = 0;
  part_key_ = false;
  stripes_ = f.stripes;
  while (!window_.empty() && published - window_.front().at > kWindow) window_.pop_front();
  ++total_;
  size_ = f.size;
  codec_ = f.codec;
  frame_rate_ = f.frame_rate;
  smooth_ = f.smooth;
  encoder_threads_ = f.encoder_threads;
}

RungFigures StreamStats::figures(std::chrono::steady_clock::time_point now) const {
  std::deque<Sample> recent;
  for (const Sample& s : window_)
    if (now - s.at <= kWindow) recent.push_back(s);
  size_t bytes = 0, keys = 0;
  for (const Sample& s : recent) {
    bytes += s.bytes;
    keys += s.key ? 1 : 0;
  }
  RungFigures f;
  f.fps = recent.size();
  f.kbps = bytes * 8 / 1000;
  f.key_frames = keys;
  f.frames_total = total_;
  f.size = size_;
  f.codec = codec_;
  f.frame_rate = frame_rate_;
  f.smooth = smooth_;
  f.rate_factor = median_ms(recent, [](const Sample& s) { return s.rate_factor_milli; });
  f.encoder_threads = encoder_threads_;
  f.stripes = stripes_;
  f.stage_ms = {median_ms(recent, [](const Sample& s) { return s.times.capture_us; }),
                median_ms(recent, [](const Sample& s) { return s.times.convert_us; }),
                median_ms(recent, [](const Sample& s) { return s.times.encode_us; }),
                median_ms(recent, [](const Sample& s) { return s.pipeline_us; })};
  return f;
}

}  // namespace voxl::stream
