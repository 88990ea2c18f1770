// CursorSource for Windows, event-driven: a thread of its own runs a
// message loop with WinEvent hooks (out of context) on the cursor's
// EVENT_OBJECT_NAMECHANGE (a new shape) and EVENT_OBJECT_SHOW / HIDE. On
// each, it reads the shape now showing (GetCursorInfo, GetIconInfo ->
// straight RGBA, see cursor_image_reader.h) and posts it to the loop,
// where current() changes and the listener is called. A shape seen before
// (same pixels and hotspot) keeps its serial; the last kCacheSize shapes
// are remembered. No polling: a desktop that never reports the cursor's
// changes (Wine 8 reports none) shows the shape read at start.
//
// Threads: construct, use and destroy on the loop thread; the listener is
// called there. Destroy before the io_context; the destructor stops the
// thread (WM_QUIT) and waits for it. Blocking: the constructor waits for
// the hooks to be installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "base/logging.h"
#include "input/cursor_source.h"

namespace boost::asio {
class io_context;
}

namespace voxl::platform::windows {

class MessageThread;

class WindowsCursorSource final : public input::CursorSource {
 public:
  // Throws std::runtime_error when the hooks cannot be installed.
  WindowsCursorSource(boost::asio::io_context& io, Logger log);
  ~WindowsCursorSource() override;
  WindowsCursorSource(const WindowsCursorSource&) = delete;
  WindowsCursorSource& operator=(const WindowsCursorSource&) = delete;

  void set_listener(std::function<void(const input::CursorImagePtr&)> listener) override;
  // The desktop's cursor cannot go away under this process.
  void set_lost_handler(std::function<void()>) override {}
  input::CursorImagePtr current() const override;

  static constexpr size_t kCacheSize = 32;

 private:
  struct LoopSide;    // the loop thread's: listener, current shape
  struct ThreadSide;  // the message thread's: hooks, known shapes

  void refresh();  // message thread

  boost::asio::io_context& io_;
  Logger log_;
  std::shared_ptr<LoopSide> loop_;
  std::unique_ptr<ThreadSide> thread_side_;
  std::unique_ptr<MessageThread> thread_;
};

}  // namespace voxl::platform::windows
