#include "link_profiles.h"

#include <charconv>
#include <cmath>

namespace voxl::bench {
namespace {

using std::chrono::milliseconds;

PathSettings path(double mbps, int delay_ms, int jitter_ms, double loss, double burst, size_t queue_kb) {
  PathSettings s;
  s.mbps = mbps;
  s.delay = milliseconds(delay_ms);
  s.jitter = milliseconds(jitter_ms);
  s.loss = loss;
  s.mean_burst = burst;
  s.queue_bytes = queue_kb * 1024;
  return s;
}

}  // namespace

std::vector<LinkProfile> link_profiles() {
  std::vector<LinkProfile> all;
  // Home Wi-Fi shared with others: round trips of 10-40 ms, random loss.
  all.push_back({"wifi", "30 Mbit/s, RTT 10-40 ms, 0.5 % random loss",
                 path(30, 5, 15, 0.005, 1, 256), path(30, 5, 15, 0.005, 1, 256)});
  // A mobile link: 60 ms, losses in bursts (fading, handovers), deep buffers.
  all.push_back({"lte", "10/5 Mbit/s, RTT 60-80 ms, 1 % loss in bursts of 3",
                 path(10, 30, 10, 0.01, 3, 375), path(5, 30, 10, 0.01, 3, 190)});
  // A long-haul path with a lossy last mile.
  all.push_back({"lossy-long", "20 Mbit/s, RTT 120 ms, 2 % random loss",
                 path(20, 60, 0, 0.02, 1, 500), path(20, 60, 0, 0.02, 1, 500)});
  // A clean link whose rate falls tenfold and comes back; the queue stays
  // the size it was, so it is a second deep at 2 Mbit/s.
  LinkProfile drop{"drop", "20 Mbit/s, RTT 40 ms; 2 Mbit/s from 10 s to 25 s",
                   path(20, 20, 0, 0, 1, 250), path(20, 20, 0, 0, 1, 250)};
  drop.down.schedule = {{std::chrono::seconds(10), 2}, {std::chrono::seconds(25), 20}};
  all.push_back(drop);
  return all;
}

std::optional<LinkProfile> find_link_profile(std::string_view name) {
  for (const LinkProfile& p : link_profiles())
    if (p.name == name) return p;
  return std::nullopt;
}

std::optional<std::vector<RateStep>> parse_rate_schedule(std::string_view text, std::string& error) {
  std::vector<RateStep> steps;
  if (text.empty()) return steps;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    const size_t colon = item.find(':');
    double seconds = -1, mbps = -1;
    const bool parsed =
        colon != std::string_view::npos &&
        std::from_chars(item.data(), item.data() + colon, seconds).ptr == item.data() + colon &&
        std::from_chars(item.data() + colon + 1, item.data() + item.size(), mbps).ptr == item.data() + item.size();
    if (!parsed || !std::isfinite(seconds) || !std::isfinite(mbps) || seconds < 0 || mbps < 0 || seconds > 86400 ||
        mbps > 100000) {
      error = "'" + std::string(item) + "' is not SECONDS:MBPS (e.g. 10:2)";
      return std::nullopt;
    }
    const auto at = std::chrono::nanoseconds(int64_t(std::llround(seconds * 1e9)));
    if (!steps.empty() && at <= steps.back().at) {
      error = "the times must rise: '" + std::string(item) + "' comes after a later or equal time";
      return std::nullopt;
    }
    steps.push_back({at, mbps});
    if (steps.size() > 1000) {
      error = "more than 1000 steps";
      return std::nullopt;
    }
    start = comma + 1;
  }
  return steps;
}

}  // namespace voxl::bench
