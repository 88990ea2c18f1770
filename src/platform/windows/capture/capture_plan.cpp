#include "platform/windows/capture/capture_plan.h"

#include <cctype>
#include <string_view>

namespace voxl::platform::windows {

bool env_flag_enabled(const char* value) {
  if (!value) return false;
  std::string_view v(value);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  std::string lower;
  for (char ch : v) lower += char(std::tolower(static_cast<unsigned char>(ch)));
  return lower == "1" || lower == "true" || lower == "yes" || lower == "on";
}

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
