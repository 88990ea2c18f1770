// ipem's --schedule (bench/ipem/link_profiles.h): whatever the text, the
// parser answers steps or a reason; steps rise in time, lie in range and
// are at most 1000; and a path model following them, fed packets, never
// delivers a packet before it was offered.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "link_profiles.h"
#include "path_model.h"

VOXL_FUZZ_TARGET(rate_schedule) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto steps = voxl::bench::parse_rate_schedule(text, error);
  if (!steps) {
    FUZZ_CHECK(!error.empty());
    return 0;
  }
  FUZZ_CHECK(steps->size() <= 1000);
  for (size_t i = 0; i < steps->size(); ++i) {
    const auto& s = (*steps)[i];
    FUZZ_CHECK(s.at >= std::chrono::nanoseconds(0) && s.at <= std::chrono::hours(24));
    FUZZ_CHECK(s.mbps >= 0 && s.mbps <= 100000);
    if (i > 0) FUZZ_CHECK(s.at > (*steps)[i - 1].at);
  }
  voxl::bench::PathSettings settings;
  settings.mbps = 10;
  settings.schedule = *steps;
  voxl::bench::PathModel path(settings, std::chrono::nanoseconds(0));
  for (int i = 0; i < 64; ++i) {
    const auto now = std::chrono::milliseconds(i * 500);
    const auto v = path.offer(1500, now);
    if (v.fate == voxl::bench::PathModel::Fate::kDelivered) FUZZ_CHECK(v.deliver_at >= now);
  }
  return 0;
}
