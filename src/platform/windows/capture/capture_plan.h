// The start-up decision between DXGI Desktop Duplication and GDI BitBlt,
// from what is asked and the user's settings. Whether DXGI then really
// opens is learnt by trying; its failure becomes the GDI reason. Pure; any
// thread.
#pragma once

#include <string>

#include "base/env_flag.h"

namespace voxl::platform::windows {

inline constexpr const char* kDisableDxgiEnv = "VOXL_WINDOWS_DISABLE_DXGI";

struct CaptureFacts {
  bool dxgi_disabled_by_env = false;
  bool dxgi_disabled_by_caller = false;
  bool window_target = false;
  bool region_on_one_monitor = true;  // false for a region across monitors
};

struct CapturePlan {
  bool try_dxgi = false;
  std::string reason;  // when !try_dxgi: why GDI, as a sentence
};

CapturePlan plan_capture(const CaptureFacts& facts);

}  // namespace voxl::platform::windows
