// The monitors of the Windows desktop and which one `--display` means:
// EnumDisplayMonitors order, an index ("0", "1") or a device name
// ("\\.\DISPLAY2"); empty means the primary monitor. Rectangles are in
// virtual-desktop pixels (the primary monitor's top-left is 0,0; others may
// be negative).
//
// Threads: any. Asks the system each call; nothing is cached.
#pragma once

#include <windows.h>

#include <string>
#include <vector>

#include "base/geometry.h"

namespace voxl::platform::windows {

struct MonitorInfo {
  HMONITOR handle = nullptr;
  Rect rect;
  std::string device;  // "\\.\DISPLAY1"
  bool primary = false;
};

std::vector<MonitorInfo> list_monitors();

struct MonitorChoice {
  MonitorInfo monitor;
  int index = 0;  // in list_monitors() order
  int count = 0;  // monitors there were
};

// Throws std::runtime_error naming the monitors there are when `display`
// matches none.
MonitorChoice choose_monitor(const std::string& display);

// "monitor 1 of 2 (\\.\DISPLAY2, 1920x1080+1920+0, primary)".
std::string describe(const MonitorChoice& c);

// The virtual desktop: the bounding box of every monitor.
Rect virtual_desktop_rect();

}  // namespace voxl::platform::windows
