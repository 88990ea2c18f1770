// Where the screen changes, without capturing or encoding anything: what
// /wait and the X-Voxl-Seq counter are built on. The platform reports the
// first change after each take() and then stays quiet until the next
// take(), so an owner that takes only while someone is interested pays one
// notification per idle-to-busy transition and nothing else.
//
// Threads: one thread owns a watcher: the loop thread of the io_context it
// was made for, on which `ready` runs. Blocking: sync() and take() make one
// round trip to the display server; everything else never blocks.
#pragma once

#include <functional>
#include <vector>

#include "base/geometry.h"

namespace voxl::capture {

class DamageWatcher {
 public:
  virtual ~DamageWatcher() = default;

  // Calls `ready` once, on the loop, when the platform has something to
  // report (or the connection failed); then call poll(), and async_wait()
  // again for the next report. One wait at a time; `ready` is never called
  // after the watcher is destroyed.
  virtual void async_wait(std::function<void()> ready) = 0;
  // Reads whatever has arrived, without blocking. True when a change was
  // reported since the last take(). Also call it after sync() and take():
  // notifications that arrive during a round trip are queued, not readable.
  virtual bool poll() = 0;
  // Everything drawn before this call has been reported once it returns
  // (followed by poll()).
  virtual void sync() = 0;
  // Appends the changed rectangles (screen coordinates) and starts a new
  // round of notification. False when the display did not answer: assume
  // everything changed.
  virtual bool take(std::vector<Rect>& out) = 0;
  // The connection to the display is gone for good.
  virtual bool failed() const = 0;
};

}  // namespace voxl::capture
