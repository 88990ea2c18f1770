#include "frame_recorder.h"

#include <algorithm>
#include <cmath>

namespace voxl::bench {

using json = nlohmann::json;

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const size_t i = std::min(values.size() - 1, size_t(p * double(values.size())));
  return values[i];
}

void FrameRecorder::start_window() { window_start_us_ = realtime_us(); }

void FrameRecorder::stop_window() {
  if (window_started() && window_end_us_ == 0) window_end_us_ = realtime_us();
}

std::optional<uint32_t> FrameRecorder::on_picture(const std::function<int(int, int)>& luma, double decode_ms) {
  const int64_t now = realtime_us();
  const auto counter = read_marker(luma, cell_);
  if (!in_window()) return counter;
  ++pictures_;
  decode_ms_.push_back(decode_ms);
  if (!counter) {
    ++unreadable_;
    return counter;
  }
  // Only a counter newer than the last one is a new frame of content: a
  // picture that repeats it (or shows an older one) adds nothing.
  if (!last_counter_ || *counter > *last_counter_) {
    seen_.push_back({*counter, now});
    last_counter_ = counter;
  }
  return counter;
}

json FrameRecorder::finish(const DrawLog& log) const {
  const int64_t end_us = window_end_us_ ? window_end_us_ : realtime_us();
  const double seconds = double(end_us - window_start_us_) / 1e6;
  const int whole_seconds = std::max(1, int(seconds));
  std::vector<int> per_second(size_t(whole_seconds), 0);
  std::vector<double> latency_ms;
  // The worst latency of each step of the window (null: no frame in it).
  std::vector<double> timeline(size_t(std::max<int64_t>(0, end_us - window_start_us_) / kTimelineStepUs + 1),
                               std::nan(""));
  // And the new frames of each step (the rate over time, for a link whose
  // rate steps).
  std::vector<int> step_frames(timeline.size(), 0);
  uint64_t unmatched = 0;
  for (const Seen& s : seen_) {
    const int64_t second = (s.decoded_us - window_start_us_) / 1000000;
    if (second < whole_seconds) ++per_second[size_t(second)];
    ++step_frames[std::min(step_frames.size() - 1, size_t(std::max<int64_t>(0, s.decoded_us - window_start_us_) / kTimelineStepUs))];
    if (const auto drawn = log.draw_time(s.counter)) {
      const double ms = double(s.decoded_us - *drawn) / 1000.0;
      latency_ms.push_back(ms);
      double& step = timeline[std::min(timeline.size() - 1, size_t((s.decoded_us - window_start_us_) / kTimelineStepUs))];
      step = std::isnan(step) ? ms : std::max(step, ms);
    } else {
      ++unmatched;
    }
  }
  const int worst = *std::min_element(per_second.begin(), per_second.end());
  // Freezes: the gaps between new frames, the window's edges included.
  int64_t longest_gap = 0, previous = window_start_us_;
  int freezes = 0;
  auto gap_to = [&](int64_t t) {
    longest_gap = std::max(longest_gap, t - previous);
    freezes += t - previous > kFreezeUs;
    previous = t;
  };
  for (const Seen& s : seen_) gap_to(s.decoded_us);
  gap_to(end_us);
  // What the workload managed to draw in the same window: the ceiling.
  const auto drawn = std::count_if(log.entries.begin(), log.entries.end(), [&](const auto& e) {
    return e.second >= window_start_us_ && e.second < end_us;
  });
  auto number = [](double v) { return std::isnan(v) ? json(nullptr) : json(std::round(v * 100) / 100); };
  json timeline_json = json::array();
  for (double v : timeline) timeline_json.push_back(number(v));
  return json{{"seconds", number(seconds)},
              {"pictures", pictures_},
              {"frames", seen_.size()},
              {"unreadable", unreadable_},
              {"unmatched", unmatched},
              {"fps", number(double(seen_.size()) / seconds)},
              {"fps_worst_second", worst},
              {"drawn_fps", number(double(drawn) / seconds)},
              {"latency_p50_ms", number(percentile(latency_ms, 0.5))},
              {"latency_p99_ms", number(percentile(latency_ms, 0.99))},
              {"decode_p50_ms", number(percentile(decode_ms_, 0.5))},
              {"kbps", number(double(bytes_) * 8 / 1000 / seconds)},
              {"freezes", freezes},
              {"longest_gap_ms", number(double(longest_gap) / 1000.0)},
              {"latency_timeline", {{"start_unix_ms", window_start_us_ / 1000},
                                    {"step_ms", kTimelineStepUs / 1000},
                                    {"worst_ms", timeline_json},
                                    {"frames", step_frames}}}};
}

}  // namespace voxl::bench
