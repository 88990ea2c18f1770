// Pixels and damage through DXGI Desktop Duplication: a D3D11 device on the
// adapter of one monitor, that output's IDXGIOutputDuplication, and a
// staging texture holding a CPU-readable copy of the newest desktop image.
// Each new image says what changed (dirty rectangles and the source and
// destination of moved ones); pointer-only updates are not images, and the
// pointer is never part of the picture (the duplication keeps it apart).
//
// Threads: one thread owns a duplicator (the capturer's). Blocking: next()
// waits up to its timeout in AcquireNextFrame; map() waits for the GPU copy.
#pragma once

#include <windows.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "platform/windows/capture/image_blocks.h"

namespace voxl::platform::windows {

class DxgiDuplicator {
 public:
  // Duplicates the output showing `monitor`. Null with `why` (a sentence
  // saying which step failed) when this system cannot.
  static std::unique_ptr<DxgiDuplicator> open(HMONITOR monitor, std::string& why);
  ~DxgiDuplicator();
  DxgiDuplicator(const DxgiDuplicator&) = delete;
  DxgiDuplicator& operator=(const DxgiDuplicator&) = delete;

  enum class Next {
    kImage,       // a new desktop image is in the staging copy; `damage` says where
    kTimeout,     // nothing new before the timeout (pointer moves do not count)
    kAccessLost,  // mode change, secure desktop, full-screen app: recreate()
    kError,       // anything else; `error` says what
  };
  // Waits up to `timeout` for a new image. Appends its damage (output
  // coordinates; the whole output for the first image) to `damage`.
  Next next(std::chrono::milliseconds timeout, std::vector<Rect>& damage, std::string& error);
  // Opens the duplication (and its device) again for the same monitor.
  // Empty on success, else why. The next image after it is complete.
  std::string recreate();

  // The newest image, readable until unmap(). Empty on success, else why.
  std::string map(ImageView& out);
  void unmap();
  bool has_image() const { return has_image_; }

  // Where the output lies on the virtual desktop.
  Rect desktop_rect() const { return desktop_rect_; }
  std::string describe() const { return name_; }

 private:
  struct Com;  // the COM objects, kept out of this header
  DxgiDuplicator(HMONITOR monitor, std::unique_ptr<Com> com);
  static std::unique_ptr<Com> open_com(HMONITOR monitor, Rect& desktop, std::string& name, std::string& why);

  HMONITOR monitor_;
  std::unique_ptr<Com> com_;
  Rect desktop_rect_;
  std::string name_;
  bool has_image_ = false;
  bool mapped_ = false;
  std::vector<uint8_t> metadata_;
};

// True when this process runs under Wine (ntdll exports wine_get_version),
// with its version in `version`.
bool running_under_wine(std::string& version);

}  // namespace voxl::platform::windows
