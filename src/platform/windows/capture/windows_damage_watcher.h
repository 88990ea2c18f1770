// DamageWatcher for the Windows desktop. Windows has no asynchronous damage
// event to wait on from a loop, so a thread of the watcher's own does the
// waiting with a WindowsCapturer of the whole monitor (kept apart from the
// video capturer, so it runs with no viewer) and posts `ready` to the loop.
//
// Cost: the thread only watches between a take() and the first change after
// it; once a change is reported it sleeps until the next take(). While it
// watches, DXGI blocks in AcquireNextFrame (a second duplication of the
// output), and GDI grabs and compares the monitor every
// WindowsCapturer::kGdiPollInterval (one BitBlt and one pass over it).
//
// Threads: one thread owns a watcher: the loop thread of the io_context it
// was made for, on which `ready` runs; destroy it there, before the
// io_context. sync() and take() block for one grab on the watcher's thread.
#pragma once

#include <memory>
#include <thread>
#include <vector>

#include "capture/damage_watcher.h"

namespace boost::asio {
class io_context;
}

namespace voxl::platform::windows {

class WindowsCapturer;

class WindowsDamageWatcher final : public capture::DamageWatcher {
 public:
  // `capturer` is the screen to watch, used only by the watcher's thread.
  WindowsDamageWatcher(boost::asio::io_context& io, std::unique_ptr<WindowsCapturer> capturer);
  ~WindowsDamageWatcher() override;
  WindowsDamageWatcher(const WindowsDamageWatcher&) = delete;
  WindowsDamageWatcher& operator=(const WindowsDamageWatcher&) = delete;

  void async_wait(std::function<void()> ready) override;
  bool poll() override;
  void sync() override;
  bool take(std::vector<Rect>& out) override;
  bool failed() const override;

 private:
  struct Shared;  // between the loop and the thread; outlives both via posted handlers
  void run();
  void watch_once(bool now);
  void notify_locked();

  std::shared_ptr<Shared> shared_;
  std::unique_ptr<WindowsCapturer> capturer_;
  std::thread thread_;
};

}  // namespace voxl::platform::windows
