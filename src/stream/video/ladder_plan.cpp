#include "stream/video/ladder_plan.h"

namespace voxl::stream {

LadderPlan plan_ladder(std::span<const RungView> rungs, std::chrono::steady_clock::time_point now,
                       std::chrono::steady_clock::duration max_pause, bool have_picture) {
  LadderPlan plan;
  for (size_t i = 0; i < rungs.size() && i < plan.codes.size(); ++i) {
    const RungView& r = rungs[i];
    const bool starved = !r.last_coded || now - *r.last_coded >= max_pause;
    const bool codes = r.wanted && (r.ready || starved) && (now >= r.next_slot || r.key);
    plan.codes[i] = codes;
    plan.any = plan.any || codes;
    if (codes && (r.owes || (r.key && have_picture))) plan.other_work = true;
  }
  return plan;
}

}  // namespace voxl::stream
