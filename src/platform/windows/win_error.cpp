#include "platform/windows/win_error.h"

#include <windows.h>

#include <cstdio>

#include "platform/windows/wide_string.h"

namespace voxl::platform::windows {

namespace {

std::string hex(uint32_t code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(code));
  return buf;
}

}  // namespace

std::string system_message(uint32_t code) {
  wchar_t* text = nullptr;
  const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                     FORMAT_MESSAGE_IGNORE_INSERTS,
                                 nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  if (n == 0 || !text) return "error " + hex(code);
  std::wstring w(text, n);
  LocalFree(text);
  while (!w.empty() && (w.back() == L'\n' || w.back() == L'\r' || w.back() == L' ' || w.back() == L'.'))
    w.pop_back();
  return to_utf8(w);
}

std::string describe_hresult(const std::string& what, long hr) {
  const auto code = static_cast<uint32_t>(hr);
  return what + ": " + system_message(code) + " (" + hex(code) + ")";
}

std::string describe_last_error(const std::string& what) {
  const DWORD e = GetLastError();
  return what + ": " + system_message(e) + " (" + hex(e) + ")";
}

}  // namespace voxl::platform::windows
