#include "platform/file_watch.h"

#include <windows.h>

#include <stdexcept>
#include <thread>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform {

struct FileWatch::Impl {
  HANDLE change = INVALID_HANDLE_VALUE;
  HANDLE stop = nullptr;
  std::function<void()> changed;
  std::thread thread;

  ~Impl() {
    if (change != INVALID_HANDLE_VALUE) FindCloseChangeNotification(change);
    if (stop) CloseHandle(stop);
  }

  // -1: stopped (or failed); 0: timed out; 1: a change.
  int wait(DWORD timeout_ms) {
    const HANDLE both[2] = {stop, change};
    const DWORD r = WaitForMultipleObjects(2, both, FALSE, timeout_ms);
    if (r == WAIT_TIMEOUT) return 0;
    if (r != WAIT_OBJECT_0 + 1) return -1;
    return FindNextChangeNotification(change) ? 1 : -1;
  }

  void run() {
    const DWORD settle = DWORD(kSettle.count());
    for (;;) {
      if (wait(INFINITE) < 0) return;
      // The rest of the burst, until it has been quiet for kSettle.
      for (int r; (r = wait(settle)) != 0;)
        if (r < 0) return;
      changed();
    }
  }
};

FileWatch::FileWatch(const std::string& path, std::function<void()> changed) : impl_(std::make_unique<Impl>()) {
  const size_t slash = path.find_last_of("/\\");
  const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  impl_->changed = std::move(changed);
  impl_->change = FindFirstChangeNotificationW(
      windows::to_wide(folder).c_str(), FALSE,
      FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_LAST_WRITE | FILE_NOTIFY_CHANGE_ATTRIBUTES |
          FILE_NOTIFY_CHANGE_SECURITY);
  if (impl_->change == INVALID_HANDLE_VALUE)
    throw std::runtime_error("cannot watch the folder '" + folder + "': " + windows::system_message(GetLastError()));
  impl_->stop = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  if (!impl_->stop) throw std::runtime_error("cannot make an event: " + windows::system_message(GetLastError()));
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

FileWatch::~FileWatch() {
  SetEvent(impl_->stop);
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace voxl::platform
