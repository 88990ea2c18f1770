#include "frame_trace.h"

#include <cmath>
#include <map>
#include <string>

#include "frame_recorder.h"

namespace voxl::bench {

using json = nlohmann::json;

void FrameTrace::on_frame(uint32_t counter, const stream::VideoHeader& header, const stream::VideoStamps& stamps,
                          uint64_t received_wall_us, uint64_t decoded_wall_us) {
  if (last_counter_ && counter <= *last_counter_) return;
  last_counter_ = counter;
  entries_.push_back({counter, header, stamps, received_wall_us, decoded_wall_us});
}

json FrameTrace::finish(const DrawLog& log) const {
  std::map<std::string, std::vector<double>> seg;
  for (const Entry& e : entries_) {
    const auto drawn = log.draw_time(e.counter);
    if (!drawn) continue;
    const double capture = double(e.header.capture_us);  // the grab's end, wall µs
    const auto at = [&](int32_t offset) { return capture + double(offset); };
    const double sent = capture + double(e.header.server_us);
    const auto ms = [](double from, double to) { return (to - from) / 1000.0; };
    seg["ready_to_draw"].push_back(ms(at(e.stamps.ready_us), double(*drawn)) * -1.0);
    seg["draw_to_grab"].push_back(ms(double(*drawn), at(e.stamps.grab_us)));
    seg["grab"].push_back(ms(at(e.stamps.grab_us), capture));
    seg["convert"].push_back(ms(capture, at(e.stamps.converted_us)));
    seg["encode"].push_back(ms(at(e.stamps.converted_us), at(e.stamps.encoded_us)));
    seg["to_loop"].push_back(ms(at(e.stamps.encoded_us), at(e.stamps.published_us)));
    seg["queued"].push_back(ms(at(e.stamps.published_us), sent));
    seg["network"].push_back(ms(sent, double(e.received_us)));
    seg["decode"].push_back(ms(double(e.received_us), double(e.decoded_us)));
    seg["total"].push_back(ms(double(*drawn), double(e.decoded_us)));
  }
  json out = json::object();
  auto number = [](double v) { return std::isnan(v) ? json(nullptr) : json(std::round(v * 100) / 100); };
  for (const auto& [name, values] : seg)
    out[name] = {{"p50", number(percentile(values, 0.5))}, {"p90", number(percentile(values, 0.9))}};
  if (!seg.empty()) out["frames"] = seg.begin()->second.size();
  return out;
}

}  // namespace voxl::bench
