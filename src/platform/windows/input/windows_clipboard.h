// Clipboard for Windows. A thread of its own holds a message-only window
// registered with AddClipboardFormatListener (no polling): on each
// WM_CLIPBOARDUPDATE it opens the clipboard and reads what an application
// copied (clipboard_formats.h: "PNG", CF_UNICODETEXT, CF_DIBV5/CF_DIB ->
// PNG), and posts `copied` to the loop, or `refused` with the reason when
// it is over `max_bytes` or cannot be converted. The update that voxl's own
// offer() causes is not reported: the window owns the clipboard then, and
// the sequence number (GetClipboardSequenceNumber) is the one offer() left.
// Without `watch` no listener is registered and nothing is ever reported.
//
// offer() writes on the calling thread, with the window as the owner.
// OpenClipboard fails while another program has the clipboard open; both
// sides retry kOpenAttempts times kOpenRetryWait apart (clipboard_formats.h),
// so offer() blocks the loop for ~150 ms at worst.
//
// Threads: construct, use and destroy on the loop thread; listeners are
// called there. Destroy before the io_context: the destructor stops the
// thread and waits for it.
#pragma once

#include <windows.h>

#include <atomic>
#include <cstddef>
#include <memory>

#include "base/logging.h"
#include "input/clipboard.h"

namespace boost::asio {
class io_context;
}

namespace voxl::platform::windows {

class MessageThread;

class WindowsClipboard final : public input::Clipboard {
 public:
  // Throws std::runtime_error when the window or the listener cannot be made.
  WindowsClipboard(boost::asio::io_context& io, Logger log, size_t max_bytes, bool watch);
  ~WindowsClipboard() override;
  WindowsClipboard(const WindowsClipboard&) = delete;
  WindowsClipboard& operator=(const WindowsClipboard&) = delete;

  void set_listener(Listener listener) override;
  // The session's clipboard cannot go away under this process.
  void set_lost_handler(std::function<void()>) override {}
  bool offer(input::ClipboardContent content, std::string& error) override;

 private:
  struct LoopSide;

  static LRESULT CALLBACK window_proc(HWND hwnd, UINT msg, WPARAM wparam, LPARAM lparam);
  void create_window();   // message thread
  void destroy_window();  // message thread
  void on_update();       // message thread

  boost::asio::io_context& io_;
  Logger log_;
  size_t max_bytes_;
  bool watch_;
  std::shared_ptr<LoopSide> loop_;
  HWND window_ = nullptr;  // written before the constructor returns, then read only
  bool listening_ = false;
  std::atomic<DWORD> own_sequence_{0};  // the clipboard's sequence number after our last offer
  std::unique_ptr<MessageThread> thread_;
};

}  // namespace voxl::platform::windows
