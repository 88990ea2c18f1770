#include "platform/windows/input/message_thread.h"

#include <exception>
#include <stdexcept>

#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

MessageThread::MessageThread(std::string name, Logger log, Hooks hooks)
    : name_(std::move(name)), log_(std::move(log)), hooks_(std::move(hooks)) {
  HANDLE ready = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  if (!ready) throw std::runtime_error(describe_last_error(name_ + ": CreateEvent"));
  std::string setup_error;
  thread_ = std::thread([this, &setup_error, ready] { run(setup_error, ready); });
  WaitForSingleObject(ready, INFINITE);
  CloseHandle(ready);
  if (!setup_error.empty()) {
    thread_.join();
    throw std::runtime_error(setup_error);
  }
}

MessageThread::~MessageThread() { stop(); }

void MessageThread::stop() {
  if (!thread_.joinable()) return;
  // The queue exists before `ready` is signalled, so this cannot be lost.
  PostThreadMessageW(thread_id_, WM_QUIT, 0, 0);
  thread_.join();
}

bool MessageThread::post(UINT message, WPARAM wparam, LPARAM lparam) const {
  return thread_id_ && PostThreadMessageW(thread_id_, message, wparam, lparam) != 0;
}

void MessageThread::run(std::string& setup_error, HANDLE ready) {
  thread_id_ = GetCurrentThreadId();
  MSG msg;
  // A thread gets its message queue with its first message call.
  PeekMessageW(&msg, nullptr, WM_USER, WM_USER, PM_NOREMOVE);
  try {
    if (hooks_.setup) hooks_.setup();
  } catch (const std::exception& e) {
    setup_error = name_ + ": " + e.what();
  } catch (...) {
    setup_error = name_ + ": setup failed";
  }
  const bool ok = setup_error.empty();
  SetEvent(ready);  // `setup_error` and `ready` are not touched after this
  if (!ok) return;
  try {
    BOOL got;
    while ((got = GetMessageW(&msg, nullptr, 0, 0)) != 0) {
      if (got == -1) {
        log_->error("{}: {}", name_, describe_last_error("GetMessage"));
        break;
      }
      if (!msg.hwnd) {
        if (hooks_.on_thread_message) hooks_.on_thread_message(msg);
        continue;
      }
      TranslateMessage(&msg);
      DispatchMessageW(&msg);
    }
  } catch (const std::exception& e) {
    log_->error("{}: message loop ended: {}", name_, e.what());
  } catch (...) {
    log_->error("{}: message loop ended by an unknown exception", name_);
  }
  try {
    if (hooks_.teardown) hooks_.teardown();
  } catch (...) {
    log_->error("{}: teardown failed", name_);
  }
}

}  // namespace voxl::platform::windows
