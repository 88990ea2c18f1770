#include "platform/windows/display_mode_resizer.h"

#include <windows.h>

#include <optional>
#include <stdexcept>

#include "platform/windows/wide_string.h"

namespace voxl::platform::windows {

namespace {

std::optional<DEVMODEW> mode_at(const std::wstring& device, DWORD index) {
  DEVMODEW m{};
  m.dmSize = sizeof m;
  if (!EnumDisplaySettingsW(device.c_str(), index, &m)) return std::nullopt;
  return m;
}

Size size_of(const DEVMODEW& m) { return {int(m.dmPelsWidth), int(m.dmPelsHeight)}; }

std::string change_error(LONG r) {
  switch (r) {
    case DISP_CHANGE_BADMODE: return "the display does not support that mode";
    case DISP_CHANGE_FAILED: return "the display driver failed the mode change";
    case DISP_CHANGE_RESTART: return "the mode change needs a restart";
    case DISP_CHANGE_BADPARAM: return "bad parameters for the mode change";
    case DISP_CHANGE_NOTUPDATED: return "the mode change was not made";
    default: return "ChangeDisplaySettingsEx returned " + std::to_string(r);
  }
}

}  // namespace

DisplayModeResizer::DisplayModeResizer(std::string device, Logger log) : device_(std::move(device)), log_(std::move(log)) {
  const auto cur = mode_at(to_wide(device_), ENUM_CURRENT_SETTINGS);
  if (!cur) throw std::runtime_error("cannot read the display mode of " + device_);
  original_ = size_of(*cur);
}

DisplayModeResizer::~DisplayModeResizer() { restore(); }

Size DisplayModeResizer::current_size() {
  const auto cur = mode_at(to_wide(device_), ENUM_CURRENT_SETTINGS);
  return cur ? size_of(*cur) : Size{};
}

double DisplayModeResizer::display_scale() {
  HDC dc = CreateDCW(L"DISPLAY", to_wide(device_).c_str(), nullptr, nullptr);
  if (!dc) return 0;
  const int dpi = GetDeviceCaps(dc, LOGPIXELSX);
  DeleteDC(dc);
  return dpi > 0 ? dpi / 96.0 : 0;
}

Size DisplayModeResizer::max_size() {
  const std::wstring dev = to_wide(device_);
  Size best = current_size();
  for (DWORD i = 0; const auto m = mode_at(dev, i); ++i) {
    const Size s = size_of(*m);
    if (s.area() > best.area()) best = s;
  }
  return best;
}

bool DisplayModeResizer::resize(Size size, std::string& error) {
  const std::wstring dev = to_wide(device_);
  const auto cur = mode_at(dev, ENUM_CURRENT_SETTINGS);
  if (!cur) {
    error = "cannot read the display mode of " + device_;
    return false;
  }
  // The exact size if listed, else the largest mode inside it; the current
  // refresh rate where there is a choice.
  std::optional<DEVMODEW> pick;
  auto better = [&](const DEVMODEW& a, const DEVMODEW& b) {
    const Size sa = size_of(a), sb = size_of(b);
    if ((sa == size) != (sb == size)) return sa == size;
    if (sa.area() != sb.area()) return sa.area() > sb.area();
    return a.dmDisplayFrequency == cur->dmDisplayFrequency && b.dmDisplayFrequency != cur->dmDisplayFrequency;
  };
  for (DWORD i = 0; const auto m = mode_at(dev, i); ++i) {
    const Size s = size_of(*m);
    if (s.width > size.width || s.height > size.height || m->dmBitsPerPel != cur->dmBitsPerPel) continue;
    if (!pick || better(*m, *pick)) pick = m;
  }
  if (!pick) {
    error = "no display mode of " + device_ + " fits inside " + std::to_string(size.width) + "x" +
            std::to_string(size.height);
    return false;
  }
  if (size_of(*pick) == size_of(*cur)) return true;
  pick->dmFields = DM_PELSWIDTH | DM_PELSHEIGHT | DM_BITSPERPEL | DM_DISPLAYFREQUENCY;
  const LONG r = ChangeDisplaySettingsExW(dev.c_str(), &*pick, nullptr, CDS_FULLSCREEN, nullptr);
  if (r != DISP_CHANGE_SUCCESSFUL) {
    error = change_error(r);
    return false;
  }
  changed_ = true;
  if (log_)
    log_->info("{} switched to {}x{} (asked for {}x{})", device_, pick->dmPelsWidth, pick->dmPelsHeight, size.width,
               size.height);
  return true;
}

void DisplayModeResizer::restore() {
  if (!changed_) return;
  changed_ = false;
  // A null mode puts back the one in the registry, which CDS_FULLSCREEN never changed.
  ChangeDisplaySettingsExW(to_wide(device_).c_str(), nullptr, nullptr, 0, nullptr);
  if (log_) log_->info("{} back to {}x{}", device_, original_.width, original_.height);
}

}  // namespace voxl::platform::windows
