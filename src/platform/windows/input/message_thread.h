// A thread of its own with a Win32 message loop, for the parts of the
// Windows desktop that learn of changes through messages or WinEvent hooks
// (the cursor, the clipboard). `setup` runs first on the new thread (create
// windows, install hooks; throw to fail), then the loop runs until stop();
// thread messages (no window) go to `on_thread_message`, the others are
// dispatched to their window procedures; `teardown` runs last, on the
// thread, before it ends.
//
// Threads: construct, stop and destroy on one thread (the loop thread); the
// three functions run on the message thread, and no exception leaves them
// (one from setup is rethrown by the constructor, later ones are logged).
// Blocking: the constructor waits for `setup`, stop() for the thread's end.
#pragma once

#include <windows.h>

#include <functional>
#include <string>
#include <thread>

#include "base/logging.h"

namespace voxl::platform::windows {

class MessageThread {
 public:
  struct Hooks {
    std::function<void()> setup;
    std::function<void(const MSG&)> on_thread_message;
    std::function<void()> teardown;
  };
  // Throws std::runtime_error with setup's message when setup fails.
  MessageThread(std::string name, Logger log, Hooks hooks);
  ~MessageThread();  // stop()
  MessageThread(const MessageThread&) = delete;
  MessageThread& operator=(const MessageThread&) = delete;

  // Ends the loop (WM_QUIT) and waits for the thread. Idempotent.
  void stop();
  // Posts a thread message to the loop; false when the thread is gone.
  bool post(UINT message, WPARAM wparam = 0, LPARAM lparam = 0) const;
  DWORD thread_id() const { return thread_id_; }

 private:
  void run(std::string& setup_error, HANDLE ready);

  std::string name_;
  Logger log_;
  Hooks hooks_;
  DWORD thread_id_ = 0;
  std::thread thread_;
};

}  // namespace voxl::platform::windows
