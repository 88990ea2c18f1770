// DesktopResizer for one Windows monitor: switches its display mode with
// ChangeDisplaySettingsExW (CDS_FULLSCREEN: temporary, never written to the
// registry, undone by Windows if voxl dies). Windows offers only the modes
// the driver lists, so resize() takes the exact size when there is such a
// mode, else the largest listed mode that fits inside the size asked for.
//
// Threads: see DesktopResizer. Blocking: a mode switch can take a second.
#pragma once

#include <string>

#include "base/logging.h"
#include "platform/desktop_resizer.h"

namespace voxl::platform::windows {

class DisplayModeResizer final : public DesktopResizer {
 public:
  // `device`: the monitor's device name ("\\.\DISPLAY1"). Throws
  // std::runtime_error when its current mode cannot be read.
  DisplayModeResizer(std::string device, Logger log);
  ~DisplayModeResizer() override;

  Size current_size() override;
  Size max_size() override;
  bool resize(Size size, std::string& error) override;
  void restore() override;
  // The system's DPI over 96.
  double display_scale() override;

 private:
  std::string device_;
  Logger log_;
  Size original_;
  bool changed_ = false;
};

}  // namespace voxl::platform::windows
