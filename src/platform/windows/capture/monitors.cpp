#include "platform/windows/capture/monitors.h"

#include <charconv>
#include <stdexcept>

#include "platform/windows/wide_string.h"

namespace voxl::platform::windows {

namespace {

BOOL CALLBACK add_monitor(HMONITOR m, HDC, LPRECT, LPARAM out) {
  MONITORINFOEXW info{};
  info.cbSize = sizeof info;
  if (!GetMonitorInfoW(m, &info)) return TRUE;
  MonitorInfo mi;
  mi.handle = m;
  const RECT& r = info.rcMonitor;
  mi.rect = {int(r.left), int(r.top), int(r.right - r.left), int(r.bottom - r.top)};
  mi.device = to_utf8(info.szDevice);
  mi.primary = (info.dwFlags & MONITORINFOF_PRIMARY) != 0;
  reinterpret_cast<std::vector<MonitorInfo>*>(out)->push_back(std::move(mi));
  return TRUE;
}

std::string list_text(const std::vector<MonitorInfo>& all) {
  std::string s;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!s.empty()) s += ", ";
    s += std::to_string(i) + " = " + all[i].device + " " + to_string(all[i].rect);
  }
  return s.empty() ? "none" : s;
}

}  // namespace

std::vector<MonitorInfo> list_monitors() {
  std::vector<MonitorInfo> all;
  EnumDisplayMonitors(nullptr, nullptr, add_monitor, reinterpret_cast<LPARAM>(&all));
  return all;
}

MonitorChoice choose_monitor(const std::string& display) {
  const std::vector<MonitorInfo> all = list_monitors();
  if (all.empty()) throw std::runtime_error("this Windows desktop has no monitor");
  MonitorChoice c;
  c.count = int(all.size());
  if (display.empty()) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].primary) {
        c.index = int(i);
        c.monitor = all[i];
        return c;
      }
    c.monitor = all[0];
    return c;
  }
  int index = -1;
  const char* end = display.data() + display.size();
  auto [p, ec] = std::from_chars(display.data(), end, index);
  if (ec != std::errc() || p != end) {
    index = -1;
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].device == display) index = int(i);
  }
  if (index < 0 || index >= c.count)
    throw std::runtime_error("--display " + display + " names no monitor; there are: " + list_text(all));
  c.index = index;
  c.monitor = all[size_t(index)];
  return c;
}

std::string describe(const MonitorChoice& c) {
  return "monitor " + std::to_string(c.index) + " of " + std::to_string(c.count) + " (" + c.monitor.device + ", " +
         to_string(c.monitor.rect) + (c.monitor.primary ? ", primary)" : ")");
}

Rect virtual_desktop_rect() {
  return {GetSystemMetrics(SM_XVIRTUALSCREEN), GetSystemMetrics(SM_YVIRTUALSCREEN),
          GetSystemMetrics(SM_CXVIRTUALSCREEN), GetSystemMetrics(SM_CYVIRTUALSCREEN)};
}

}  // namespace voxl::platform::windows
