#include "platform/windows/wide_string.h"

#include <windows.h>

#include <climits>

namespace voxl::platform::windows {

std::wstring to_wide(std::string_view utf8) {
  if (utf8.empty() || utf8.size() > size_t(INT_MAX)) return {};
  const int len = static_cast<int>(utf8.size());
  const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), len, nullptr, 0);
  if (n <= 0) return {};
  std::wstring out(size_t(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, utf8.data(), len, out.data(), n);
  return out;
}

std::string to_utf8(std::wstring_view utf16) {
  if (utf16.empty() || utf16.size() > size_t(INT_MAX)) return {};
  const int len = static_cast<int>(utf16.size());
  const int n = WideCharToMultiByte(CP_UTF8, 0, utf16.data(), len, nullptr, 0, nullptr, nullptr);
  if (n <= 0) return {};
  std::string out(size_t(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, utf16.data(), len, out.data(), n, nullptr, nullptr);
  return out;
}

}  // namespace voxl::platform::windows
