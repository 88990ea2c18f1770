// Capturer for the Windows desktop: one monitor (--display by index), a
// rectangle of the virtual desktop, or one window's client area (by HWND,
// followed as it resizes; kPermanent once it is destroyed). Pixels are
// BGRX like Frame: DXGI's B8G8R8A8 images and GDI's 32-bit DIBs both are.
//
// The pixel source is chosen at start-up and logged with its reason:
//   GDI BitBlt when VOXL_WINDOWS_DISABLE_DXGI is 1/true/yes/on, the caller
//   forbids DXGI, the target is a window or a region across monitors, or
//   Desktop Duplication cannot be opened (Wine does not implement it);
//   otherwise DXGI Desktop Duplication of the monitor.
// At run time a failed DXGI grab is retried with GDI for that frame; only if
// the retry works does the capturer switch to GDI for good (one warning).
// DXGI_ERROR_ACCESS_LOST (a mode change, the secure desktop, a full-screen
// program) re-creates the duplication: that capture is kTemporary and the
// next one is complete; when re-creating keeps failing for
// kReinitAfterLost, capture() says kReinit so the pipeline rebuilds the
// capturer (which may then choose GDI).
//
// Waiting:
//   DXGI: AcquireNextFrame is the wait. It cannot be interrupted, so it is
//   called in slices of at most kDxgiWakeSlice and wake() is seen between
//   them: wake() takes effect within that slice, and an idle desktop costs
//   one return from the kernel per slice.
//   GDI: Windows has no change event for other programs' drawing, so the
//   capturer grabs and compares every kGdiPollInterval until something
//   differs or the timeout (the cap) passes, sleeping on an event that
//   wake() sets in between. An idle desktop costs one BitBlt and one
//   comparison of the area per interval.
//
// Threads: see Capturer; wake() from any thread.
#pragma once

#include <windows.h>

#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/block_map.h"
#include "base/logging.h"
#include "capture/capturer.h"
#include "platform/desktop_environment.h"
#include "platform/windows/capture/monitors.h"
#include "platform/windows/owned_handle.h"

namespace voxl::platform::windows {

class DxgiDuplicator;
class GdiGrabber;

struct WindowsCaptureOptions {
  std::string display{};  // monitor index or device name; empty: the primary monitor
  CaptureTarget target{};
  bool allow_dxgi = true;  // false: GDI only (like the environment switch)
  Logger log{};            // required
};

class WindowsCapturer final : public capture::Capturer {
 public:
  static constexpr std::chrono::milliseconds kGdiPollInterval{40};
  static constexpr std::chrono::milliseconds kDxgiWakeSlice{50};
  static constexpr std::chrono::milliseconds kReinitAfterLost{3000};

  // Throws std::runtime_error with a readable message when the monitor,
  // region or window does not exist.
  explicit WindowsCapturer(WindowsCaptureOptions options);
  ~WindowsCapturer() override;

  capture::CaptureResult capture(capture::FramePool& pool, std::chrono::milliseconds timeout) override;
  bool wait_for_change(std::chrono::milliseconds timeout) override;
  void invalidate(const Rect& r) override;
  void wake() override;
  Size size() const override { return size_; }
  // Relative to the --display monitor's top-left, the 0,0 of the
  // SendInputInjector's desktop.
  Point origin() const override;
  std::string describe() const override;

  bool uses_dxgi() const { return dxgi_ != nullptr; }
  // Times the capturer gave up DXGI for GDI at run time (0 or 1).
  int fallbacks() const { return fallbacks_; }
  const std::string& source_reason() const { return reason_; }

  // For the damage watcher: moves what changed since the last call (capture
  // coordinates) into `out` without grabbing pixels; false when nothing did.
  bool take_damage(std::vector<Rect>& out);

 private:
  // kReady: look at the pending damage (none after a timeout or wake()).
  // kFailed: the grab failed (`error`), so the fallback may be tried.
  enum class Refresh { kReady, kTemporary, kReinit, kFailed, kGone };
  void choose_source();
  // Waits until `deadline` (or wake()) for a change, adding it to the
  // pending damage.
  Refresh refresh(std::chrono::steady_clock::time_point deadline, std::string& error);
  Refresh refresh_gdi(std::chrono::steady_clock::time_point deadline, std::string& error);
  Refresh refresh_dxgi(std::chrono::steady_clock::time_point deadline, std::string& error);
  // The area to grab now, in GDI coordinates; false when the target is gone.
  bool current_area(Rect& area, std::string& error);
  // The window's client 0,0 on the virtual desktop now (window targets);
  // a move without new pixels still makes a frame (see Capturer::origin).
  void follow_window_position();
  void resize_to(Size s);
  void add_damage(const Rect& capture_rect);
  bool change_pending() const { return !pending_blocks_.empty(); }
  // Damage is pending and there is a picture to copy it from.
  bool ready_to_copy() const;
  Refresh duplication_lost(std::string& error);
  // Retries a failed DXGI grab with GDI; on success GDI is used from now on.
  bool fall_back_to_gdi(const std::string& dxgi_error, std::string& error);
  // Copies `rects` of the newest picture into `frame`. Empty or why.
  std::string copy_out(std::span<const Rect> rects, capture::Frame& frame);
  bool woken(DWORD wait_ms);

  WindowsCaptureOptions opt_;
  Logger log_;
  HWND window_ = nullptr;
  MonitorChoice monitor_;
  std::unique_ptr<DxgiDuplicator> dxgi_;
  std::unique_ptr<GdiGrabber> gdi_;
  std::string reason_;
  int fallbacks_ = 0;
  OwnedHandle wake_event_;

  Rect area_;       // GDI: what is grabbed; DXGI: the capture area on the virtual desktop
  Point input_corner_;    // the --display monitor's top-left on the virtual desktop
  Point window_corner_;   // window targets: the client area's top-left on the virtual desktop
  Size size_;
  BlockMap pending_blocks_;
  std::vector<Rect> pending_rects_;
  bool pending_rects_overflow_ = false;
  std::vector<Rect> scratch_;
  uint64_t seq_ = 0;
  bool lost_ = false;
  std::chrono::steady_clock::time_point lost_since_;
};

}  // namespace voxl::platform::windows
