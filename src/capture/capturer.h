// The contract every screen capture backend keeps (X11 now; ScreenCaptureKit
// and DXGI later). A capturer is damage driven: capture() sleeps until the
// platform reports a change (or the timeout passes) and then copies only what
// changed into a frame from the caller's pool, so an idle desktop costs
// nothing.
//
// A new capturer has its whole area pending: its first capture is a full
// frame.
//
// Threads: one thread (the video thread) owns a capturer and calls everything
// but wake(), which any thread may call. Construction may block on the
// display server; capture() blocks at most `timeout` plus one grab.
#pragma once

#include <chrono>
#include <string>

#include "base/geometry.h"
#include "capture/frame.h"
#include "capture/frame_pool.h"

namespace voxl::capture {

enum class CaptureStatus {
  kOk,         // `frame` holds a new picture; its damage says what changed
  kNoChange,   // nothing changed before the timeout (or wake() was called)
  kTemporary,  // this attempt failed (e.g. a window is being resized, no free buffer); retry
  kReinit,     // the backend must be rebuilt (e.g. its display went away and may come back)
  kPermanent,  // the capture target is gone for good (window destroyed); stop
};

const char* to_string(CaptureStatus s);

struct CaptureResult {
  CaptureStatus status = CaptureStatus::kNoChange;
  FrameRef frame;     // set when status == kOk
  std::string error;  // set for the failure statuses
};

class Capturer {
 public:
  virtual ~Capturer() = default;

  // Waits up to `timeout` for a change, then captures it. A change already
  // pending (including one from invalidate()) is captured without waiting.
  virtual CaptureResult capture(FramePool& pool, std::chrono::milliseconds timeout) = 0;

  // Treats `r` (capture coordinates) as changed, so the next capture grabs it
  // even if the platform reported nothing: key frames, screenshots, benchmarks.
  virtual void invalidate(const Rect& r) = 0;
  void invalidate_all() { invalidate(Rect::from_size(size())); }

  // Waits up to `timeout` for a change without capturing it: true when one
  // is pending (or the backend failed, which the next capture() reports),
  // false after the timeout or wake(). Lets the caller merge a burst of
  // changes into one capture.
  virtual bool wait_for_change(std::chrono::milliseconds timeout) = 0;

  // After a change: keeps taking the platform's reports of further changes
  // until none has come for `quiet` (or `longest` has passed, or wake()), so
  // the next capture() grabs a drawing once it is finished, not halfway
  // through (see QuietWait). Backends whose changes come whole (a
  // compositor's frames) need not wait: the default returns at once.
  virtual void wait_for_quiet(std::chrono::microseconds quiet, std::chrono::microseconds longest) {
    (void)quiet;
    (void)longest;
  }
  // Makes a capture() that is waiting return kNoChange now. Any thread.
  virtual void wake() = 0;

  // Current size of the captured area.
  virtual Size size() const = 0;
  // Current desktop position of the captured area's pixel 0,0, as the next
  // frame's Frame::origin will say. A capturer whose area moves without
  // its pixels changing (a window dragged across the screen) still makes a
  // frame, so the new position reaches the frames' consumers.
  virtual Point origin() const = 0;

  // Which pixel source is in use and why, for logs and /stats.
  virtual std::string describe() const = 0;
};

}  // namespace voxl::capture
