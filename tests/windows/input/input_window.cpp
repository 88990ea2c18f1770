#include "input_window.h"

#include <boost/asio/executor_work_guard.hpp>
#include <stdexcept>

namespace voxl::platform::windows::test {

namespace {

constexpr wchar_t kClass[] = L"voxl-test-window";

bool recorded(UINT msg) {
  switch (msg) {
    case WM_KEYDOWN:
    case WM_KEYUP:
    case WM_SYSKEYDOWN:
    case WM_SYSKEYUP:
    case WM_CHAR:
    case WM_LBUTTONDOWN:
    case WM_LBUTTONUP:
    case WM_RBUTTONDOWN:
    case WM_RBUTTONUP:
    case WM_MBUTTONDOWN:
    case WM_MBUTTONUP:
    case WM_XBUTTONDOWN:
    case WM_XBUTTONUP:
    case WM_MOUSEWHEEL:
    case WM_MOUSEHWHEEL:
    case WM_MOUSEMOVE: return true;
    default: return false;
  }
}

}  // namespace

InputWindow::InputWindow(int x, int y, int width, int height) {
  WNDCLASSEXW wc{};
  wc.cbSize = sizeof(wc);
  wc.lpfnWndProc = &InputWindow::proc;
  wc.hInstance = GetModuleHandleW(nullptr);
  wc.hCursor = LoadCursorW(nullptr, IDC_ARROW);
  wc.lpszClassName = kClass;
  RegisterClassExW(&wc);  // may exist from an earlier test
  RECT r{0, 0, width, height};
  AdjustWindowRectEx(&r, WS_POPUP, FALSE, 0);
  hwnd_ = CreateWindowExW(WS_EX_TOPMOST, kClass, L"voxl test", WS_POPUP | WS_VISIBLE, x, y, r.right - r.left,
                          r.bottom - r.top, nullptr, nullptr, wc.hInstance, this);
  if (!hwnd_) throw std::runtime_error("CreateWindowEx failed");
  ShowWindow(hwnd_, SW_SHOW);
  UpdateWindow(hwnd_);
  SetForegroundWindow(hwnd_);
  SetActiveWindow(hwnd_);
  SetFocus(hwnd_);
  pump_until([this] { return GetForegroundWindow() == hwnd_ && GetFocus() == hwnd_; });
  messages_.clear();
}

InputWindow::~InputWindow() {
  DestroyWindow(hwnd_);
  pump_until([] { return true; });
}

LRESULT CALLBACK InputWindow::proc(HWND hwnd, UINT msg, WPARAM wparam, LPARAM lparam) {
  if (msg == WM_NCCREATE)
    SetWindowLongPtrW(hwnd, GWLP_USERDATA,
                      reinterpret_cast<LONG_PTR>(reinterpret_cast<CREATESTRUCTW*>(lparam)->lpCreateParams));
  auto* self = reinterpret_cast<InputWindow*>(GetWindowLongPtrW(hwnd, GWLP_USERDATA));
  if (self && recorded(msg)) self->messages_.push_back({msg, wparam, lparam});
  return DefWindowProcW(hwnd, msg, wparam, lparam);
}

const Recorded* InputWindow::find(UINT message, std::function<bool(const Recorded&)> match) const {
  for (const auto& m : messages_)
    if (m.message == message && (!match || match(m))) return &m;
  return nullptr;
}

const Recorded* InputWindow::wait_for(UINT message, std::function<bool(const Recorded&)> match) {
  pump_until([&] { return find(message, match) != nullptr; });
  return find(message, match);
}

std::wstring InputWindow::chars() const {
  std::wstring s;
  for (const auto& m : messages_)
    if (m.message == WM_CHAR) s.push_back(wchar_t(m.wparam));
  return s;
}

bool pump_until(const std::function<bool()>& done, std::chrono::milliseconds deadline) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  for (;;) {
    MSG m;
    while (PeekMessageW(&m, nullptr, 0, 0, PM_REMOVE)) {
      TranslateMessage(&m);
      DispatchMessageW(&m);
    }
    if (done()) return true;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    // Wakes for any message, input included, or after a while (the input
    // arrives through the system's queue and may be posted later).
    MsgWaitForMultipleObjects(0, nullptr, FALSE, DWORD(std::min<long long>(left.count(), 50)), QS_ALLINPUT);
  }
}

bool run_until(boost::asio::io_context& io, const std::function<bool()>& done, std::chrono::milliseconds deadline) {
  auto guard = boost::asio::make_work_guard(io);
  io.restart();
  const auto end = std::chrono::steady_clock::now() + deadline;
  while (!done()) {
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return false;
    io.run_one_for(left);
  }
  return true;
}

}  // namespace voxl::platform::windows::test
