#include "test_window.h"

#include <stdexcept>

namespace voxl::platform::windows::test {

namespace {

constexpr UINT kRepaint = WM_APP + 1;  // lParam: const Paint*
constexpr UINT kDestroy = WM_APP + 2;
constexpr wchar_t kClassName[] = L"VoxlTestWindow";

COLORREF to_colorref(uint32_t rgb) { return RGB((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff); }

void fill(HDC dc, const RECT& r, uint32_t rgb) {
  HBRUSH b = CreateSolidBrush(to_colorref(rgb));
  FillRect(dc, &r, b);
  DeleteObject(b);
}

LRESULT CALLBACK window_proc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp) {
  if (msg == WM_NCCREATE) {
    const auto* cs = reinterpret_cast<const CREATESTRUCTW*>(lp);
    SetWindowLongPtrW(hwnd, GWLP_USERDATA, reinterpret_cast<LONG_PTR>(cs->lpCreateParams));
  }
  auto* paint = reinterpret_cast<Paint*>(GetWindowLongPtrW(hwnd, GWLP_USERDATA));
  switch (msg) {
    case WM_ERASEBKGND:
      return 1;
    case WM_PAINT: {
      PAINTSTRUCT ps;
      HDC dc = BeginPaint(hwnd, &ps);
      if (paint) {
        RECT client;
        GetClientRect(hwnd, &client);
        fill(dc, client, paint->fill);
        for (const Paint::Box& b : paint->boxes)
          fill(dc, RECT{b.rect.x, b.rect.y, b.rect.right(), b.rect.bottom()}, b.color);
      }
      EndPaint(hwnd, &ps);
      GdiFlush();
      return 0;
    }
    case kRepaint:
      if (paint) *paint = *reinterpret_cast<const Paint*>(lp);
      InvalidateRect(hwnd, nullptr, FALSE);
      UpdateWindow(hwnd);
      return 0;
    case kDestroy:
      DestroyWindow(hwnd);
      return 0;
    case WM_DESTROY:
      PostQuitMessage(0);
      return 0;
    default:
      return DefWindowProcW(hwnd, msg, wp, lp);
  }
}

}  // namespace

TestWindow::TestWindow(Rect where, Paint paint) : created_(CreateEventW(nullptr, TRUE, FALSE, nullptr)) {
  thread_ = std::thread([this, where, paint = std::move(paint)] { run(where, paint); });
  WaitForSingleObject(created_, INFINITE);
  CloseHandle(created_);
  created_ = nullptr;
  if (!hwnd_) {
    thread_.join();
    throw std::runtime_error("cannot create the test window");
  }
}

TestWindow::~TestWindow() { destroy(); }

void TestWindow::run(Rect where, Paint paint) {
  WNDCLASSEXW wc{};
  wc.cbSize = sizeof wc;
  wc.lpfnWndProc = window_proc;
  wc.hInstance = GetModuleHandleW(nullptr);
  wc.lpszClassName = kClassName;
  RegisterClassExW(&wc);  // fails harmlessly when a previous window registered it
  // `paint` lives on this thread's stack for the window's lifetime.
  hwnd_ = CreateWindowExW(WS_EX_TOPMOST | WS_EX_TOOLWINDOW, kClassName, L"voxl test", WS_POPUP | WS_VISIBLE,
                          where.x, where.y, where.width, where.height, nullptr, nullptr, wc.hInstance, &paint);
  HANDLE created = created_;
  const bool ok = hwnd_ != nullptr;
  SetEvent(created);
  if (!ok) return;
  UpdateWindow(hwnd_);
  MSG m;
  while (GetMessageW(&m, nullptr, 0, 0) > 0) {
    TranslateMessage(&m);
    DispatchMessageW(&m);
  }
}

void TestWindow::repaint(Paint paint) {
  if (hwnd_) SendMessageW(hwnd_, kRepaint, 0, reinterpret_cast<LPARAM>(&paint));
}

void TestWindow::destroy() {
  if (hwnd_) SendMessageW(hwnd_, kDestroy, 0, 0);
  hwnd_ = nullptr;
  if (thread_.joinable()) thread_.join();
}

}  // namespace voxl::platform::windows::test
