#include "platform/windows/capture/capture_plan.h"

namespace voxl::platform::windows {

CapturePlan plan_capture(const CaptureFacts& f) {
  CapturePlan p;
  if (f.dxgi_disabled_by_env)
    p.reason = std::string("DXGI Desktop Duplication is disabled by ") + kDisableDxgiEnv;
  else if (f.dxgi_disabled_by_caller)
    p.reason = "DXGI Desktop Duplication is disabled by the caller";
  else if (f.window_target)
    p.reason = "window capture: DXGI duplicates whole monitors, not windows";
  else if (!f.region_on_one_monitor)
    p.reason = "the capture region spans more than one monitor, and DXGI duplicates one";
  else
    p.try_dxgi = true;
  return p;
}

}  // namespace voxl::platform::windows
