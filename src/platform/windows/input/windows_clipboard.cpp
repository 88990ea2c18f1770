#include "platform/windows/input/windows_clipboard.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <stdexcept>

#include "platform/windows/input/clipboard_formats.h"
#include "platform/windows/input/message_thread.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

constexpr wchar_t kWindowClass[] = L"voxl-clipboard";

}  // namespace

struct WindowsClipboard::LoopSide {
  Listener listener;
};

WindowsClipboard::WindowsClipboard(boost::asio::io_context& io, Logger log, size_t max_bytes, bool watch)
    : io_(io), log_(std::move(log)), max_bytes_(max_bytes), watch_(watch), loop_(std::make_shared<LoopSide>()) {
  MessageThread::Hooks hooks;
  hooks.setup = [this] { create_window(); };
  hooks.teardown = [this] { destroy_window(); };
  thread_ = std::make_unique<MessageThread>("clipboard", log_, std::move(hooks));
  log_->debug("clipboard: {}", watch_ ? "following the clipboard (AddClipboardFormatListener)"
                                      : "offering only; what applications copy stays on the desktop");
}

WindowsClipboard::~WindowsClipboard() {
  thread_.reset();
  loop_.reset();
}

void WindowsClipboard::set_listener(Listener listener) { loop_->listener = std::move(listener); }

void WindowsClipboard::create_window() {
  const HINSTANCE instance = GetModuleHandleW(nullptr);
  WNDCLASSEXW wc{};
  wc.cbSize = sizeof(wc);
  wc.lpfnWndProc = &WindowsClipboard::window_proc;
  wc.hInstance = instance;
  wc.lpszClassName = kWindowClass;
  // Another instance in this process may have registered it already.
  if (!RegisterClassExW(&wc) && GetLastError() != ERROR_CLASS_ALREADY_EXISTS)
    throw std::runtime_error(describe_last_error("RegisterClassEx"));
  window_ = CreateWindowExW(0, kWindowClass, L"voxl clipboard", 0, 0, 0, 0, 0, HWND_MESSAGE, nullptr, instance, this);
  if (!window_) throw std::runtime_error(describe_last_error("CreateWindowEx"));
  if (watch_) {
    if (!AddClipboardFormatListener(window_)) {
      const std::string why = describe_last_error("AddClipboardFormatListener");
      DestroyWindow(window_);
      window_ = nullptr;
      throw std::runtime_error(why);
    }
    listening_ = true;
  }
}

void WindowsClipboard::destroy_window() {
  if (!window_) return;
  if (listening_) RemoveClipboardFormatListener(window_);
  DestroyWindow(window_);
  // Fails harmlessly while another instance's window still uses the class.
  UnregisterClassW(kWindowClass, GetModuleHandleW(nullptr));
}

LRESULT CALLBACK WindowsClipboard::window_proc(HWND hwnd, UINT msg, WPARAM wparam, LPARAM lparam) {
  if (msg == WM_NCCREATE) {
    const auto* create = reinterpret_cast<const CREATESTRUCTW*>(lparam);
    SetWindowLongPtrW(hwnd, GWLP_USERDATA, reinterpret_cast<LONG_PTR>(create->lpCreateParams));
  }
  auto* self = reinterpret_cast<WindowsClipboard*>(GetWindowLongPtrW(hwnd, GWLP_USERDATA));
  if (self && msg == WM_CLIPBOARDUPDATE) {
    try {
      self->on_update();
    } catch (const std::exception& e) {
      self->log_->error("clipboard: reading what was copied failed: {}", e.what());
    }
    return 0;
  }
  return DefWindowProcW(hwnd, msg, wparam, lparam);
}

void WindowsClipboard::on_update() {
  if (!watch_) return;
  // Our own offer: nothing to tell the viewers.
  if (GetClipboardOwner() == window_ || GetClipboardSequenceNumber() == own_sequence_.load()) return;
  if (!open_clipboard(window_)) {
    log_->warn("clipboard: another program kept the clipboard open; this copy is not passed on");
    return;
  }
  if (GetClipboardOwner() == window_ || GetClipboardSequenceNumber() == own_sequence_.load()) {
    CloseClipboard();
    return;
  }
  ClipboardRead read = read_open_clipboard(max_bytes_);
  CloseClipboard();
  if (!read.content && read.refused.empty()) return;  // nothing voxl knows
  if (read.content)
    log_->debug("clipboard: an application copied {} bytes of {}", read.content->data.size(), read.content->mime);
  else
    log_->info("clipboard: not passed on: {}", read.refused);
  std::weak_ptr<LoopSide> weak = loop_;
  boost::asio::post(io_, [weak, read = std::move(read), log = log_] {
    const auto loop = weak.lock();
    if (!loop) return;
    try {
      if (read.content && loop->listener.copied) loop->listener.copied(*read.content);
      if (!read.content && loop->listener.refused) loop->listener.refused(read.refused);
    } catch (const std::exception& e) {
      log->error("clipboard: listener failed: {}", e.what());
    }
  });
}

bool WindowsClipboard::offer(input::ClipboardContent content, std::string& error) {
  if (content.data.size() > max_bytes_) {
    error = too_large(content.data.size(), max_bytes_);
    return false;
  }
  if (!open_clipboard(window_)) {
    error = "another program keeps the clipboard open";
    return false;
  }
  const bool ok = write_open_clipboard(content, error);
  own_sequence_ = GetClipboardSequenceNumber();
  CloseClipboard();
  // Some systems count the close as a change too.
  own_sequence_ = GetClipboardSequenceNumber();
  if (ok) log_->debug("clipboard: offering {} bytes of {}", content.data.size(), content.mime);
  return ok;
}

}  // namespace voxl::platform::windows
