// voxl_windows_probe.exe: a Windows program for the Wine end-to-end test
// (daemon.test.mjs). It covers the primary screen with one topmost window of
// a known colour that holds the keyboard focus and shows the hand cursor,
// and prints what reaches it, one line each, flushed at once:
//
//   ready                     the window is up and the clipboard watched
//   click X Y                 a left button press at screen pixel X,Y (a
//                             24x24 red mark is painted centred on it)
//   char U+XXXX               a character typed (surrogate pairs joined)
//   clipboard TEXT            the clipboard changed and now holds TEXT
//
// It reads commands from stdin, one per line:
//
//   copy TEXT                 put TEXT (UTF-8) on the clipboard
//   fill RRGGBB               fill the window with this colour
//
// and exits when stdin closes.
#include <windows.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

namespace {

constexpr UINT kCommand = WM_APP + 1;  // lParam: a std::string* to take
constexpr int kMark = 24;

struct Probe {
  HWND hwnd = nullptr;
  COLORREF fill = RGB(32, 160, 96);
  bool marked = false;
  POINT mark{};
  wchar_t high_surrogate = 0;
};

Probe probe;

void say(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

std::string utf8(const std::wstring& w) {
  if (w.empty()) return {};
  const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), int(w.size()), nullptr, 0, nullptr, nullptr);
  std::string s(std::size_t(n > 0 ? n : 0), '\0');
  if (n > 0) WideCharToMultiByte(CP_UTF8, 0, w.data(), int(w.size()), s.data(), n, nullptr, nullptr);
  return s;
}

std::wstring wide(const std::string& s) {
  if (s.empty()) return {};
  const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), int(s.size()), nullptr, 0);
  std::wstring w(std::size_t(n > 0 ? n : 0), L'\0');
  if (n > 0) MultiByteToWideChar(CP_UTF8, 0, s.data(), int(s.size()), w.data(), n);
  return w;
}

// Reads the clipboard's text into `text`; false when it holds none.
bool read_clipboard(HWND owner, std::wstring& text) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (OpenClipboard(owner)) {
      bool ok = false;
      if (HANDLE h = GetClipboardData(CF_UNICODETEXT)) {
        if (const auto* p = static_cast<const wchar_t*>(GlobalLock(h))) {
          text = p;
          GlobalUnlock(h);
          ok = true;
        }
      }
      CloseClipboard();
      return ok;
    }
    Sleep(50);  // another program holds it open for a moment
  }
  return false;
}

void write_clipboard(HWND owner, const std::wstring& text) {
  const std::size_t bytes = (text.size() + 1) * sizeof(wchar_t);
  HGLOBAL mem = GlobalAlloc(GMEM_MOVEABLE, bytes);
  if (!mem) return say("error GlobalAlloc");
  std::memcpy(GlobalLock(mem), text.c_str(), bytes);
  GlobalUnlock(mem);
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (OpenClipboard(owner)) {
      EmptyClipboard();
      if (!SetClipboardData(CF_UNICODETEXT, mem)) {
        GlobalFree(mem);
        say("error SetClipboardData");
      }
      CloseClipboard();
      return;
    }
    Sleep(50);
  }
  GlobalFree(mem);
  say("error OpenClipboard");
}

void run_command(const std::string& line) {
  if (line.rfind("copy ", 0) == 0) {
    write_clipboard(probe.hwnd, wide(line.substr(5)));
  } else if (line.rfind("fill ", 0) == 0) {
    const unsigned long rgb = std::strtoul(line.c_str() + 5, nullptr, 16);
    probe.fill = RGB((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff);
    probe.marked = false;
    InvalidateRect(probe.hwnd, nullptr, FALSE);
  } else {
    say("error unknown command: " + line);
  }
}

void paint(HWND hwnd) {
  PAINTSTRUCT ps;
  HDC dc = BeginPaint(hwnd, &ps);
  RECT all;
  GetClientRect(hwnd, &all);
  HBRUSH fill = CreateSolidBrush(probe.fill);
  FillRect(dc, &all, fill);
  DeleteObject(fill);
  if (probe.marked) {
    RECT mark{probe.mark.x - kMark / 2, probe.mark.y - kMark / 2, probe.mark.x + kMark / 2, probe.mark.y + kMark / 2};
    HBRUSH red = CreateSolidBrush(RGB(255, 0, 0));
    FillRect(dc, &mark, red);
    DeleteObject(red);
  }
  EndPaint(hwnd, &ps);
}

LRESULT CALLBACK window_proc(HWND hwnd, UINT message, WPARAM wparam, LPARAM lparam) {
  switch (message) {
    case WM_PAINT:
      paint(hwnd);
      return 0;
    case WM_ERASEBKGND:
      return 1;
    case WM_LBUTTONDOWN: {
      POINT p{short(LOWORD(lparam)), short(HIWORD(lparam))};
      ClientToScreen(hwnd, &p);
      say("click " + std::to_string(p.x) + " " + std::to_string(p.y));
      probe.marked = true;
      probe.mark = p;
      ScreenToClient(hwnd, &probe.mark);
      InvalidateRect(hwnd, nullptr, FALSE);
      return 0;
    }
    case WM_CHAR: {
      const auto unit = wchar_t(wparam);
      if (unit >= 0xD800 && unit < 0xDC00) {
        probe.high_surrogate = unit;
        return 0;
      }
      unsigned long cp = unit;
      if (unit >= 0xDC00 && unit < 0xE000 && probe.high_surrogate) {
        cp = 0x10000 + ((unsigned long)(probe.high_surrogate - 0xD800) << 10) + (unit - 0xDC00);
      }
      probe.high_surrogate = 0;
      char buf[32];
      std::snprintf(buf, sizeof buf, "char U+%04lX", cp);
      say(buf);
      return 0;
    }
    case WM_CLIPBOARDUPDATE: {
      std::wstring text;
      if (read_clipboard(hwnd, text)) say("clipboard " + utf8(text));
      return 0;
    }
    case kCommand: {
      auto* line = reinterpret_cast<std::string*>(lparam);
      run_command(*line);
      delete line;
      return 0;
    }
    case WM_DESTROY:
      PostQuitMessage(0);
      return 0;
    default:
      return DefWindowProcW(hwnd, message, wparam, lparam);
  }
}

}  // namespace

int main() {
  HINSTANCE instance = GetModuleHandleW(nullptr);
  WNDCLASSW wc{};
  wc.lpfnWndProc = window_proc;
  wc.hInstance = instance;
  wc.hCursor = LoadCursorW(nullptr, IDC_HAND);
  wc.lpszClassName = L"VoxlProbe";
  if (!RegisterClassW(&wc)) {
    say("error RegisterClass");
    return 1;
  }
  const int width = GetSystemMetrics(SM_CXSCREEN);
  const int height = GetSystemMetrics(SM_CYSCREEN);
  probe.hwnd = CreateWindowExW(WS_EX_TOPMOST, wc.lpszClassName, L"voxl probe", WS_POPUP | WS_VISIBLE, 0, 0, width,
                               height, nullptr, nullptr, instance, nullptr);
  if (!probe.hwnd) {
    say("error CreateWindow");
    return 1;
  }
  if (!AddClipboardFormatListener(probe.hwnd)) say("error AddClipboardFormatListener");
  SetForegroundWindow(probe.hwnd);
  SetFocus(probe.hwnd);
  UpdateWindow(probe.hwnd);

  // Commands arrive on a thread of their own; stdin's end closes the window.
  const HWND hwnd = probe.hwnd;
  std::thread reader([hwnd] {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      auto* command = new std::string(line);
      if (!PostMessageW(hwnd, kCommand, 0, reinterpret_cast<LPARAM>(command))) {
        delete command;
        break;
      }
    }
    PostMessageW(hwnd, WM_CLOSE, 0, 0);
  });
  reader.detach();
  say("ready " + std::to_string(width) + "x" + std::to_string(height));

  MSG msg;
  while (GetMessageW(&msg, nullptr, 0, 0) > 0) {
    TranslateMessage(&msg);
    DispatchMessageW(&msg);
  }
  return 0;
}
