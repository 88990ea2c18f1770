#include "platform/user_paths.h"

#include <windows.h>

#include "platform/windows/wide_string.h"

namespace voxl::platform {

std::string home_folder() {
  wchar_t buffer[MAX_PATH * 2];
  const DWORD n = GetEnvironmentVariableW(L"USERPROFILE", buffer, DWORD(std::size(buffer)));
  if (n == 0 || n >= std::size(buffer)) return "";
  std::string home = windows::to_utf8(std::wstring_view(buffer, n));
  return is_absolute_path(home) ? home : "";
}

bool is_absolute_path(std::string_view path) {
  auto separator = [](char c) { return c == '\\' || c == '/'; };
  const char letter = path.empty() ? 0 : path[0];
  const bool drive = path.size() >= 3 && ((letter >= 'A' && letter <= 'Z') || (letter >= 'a' && letter <= 'z')) &&
                     path[1] == ':' && separator(path[2]);
  const bool share = path.size() >= 3 && separator(path[0]) && separator(path[1]) && !separator(path[2]);
  return drive || share;
}

}  // namespace voxl::platform
