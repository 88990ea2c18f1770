#include "platform/file_head.h"

#include <windows.h>

#include <algorithm>
#include <string>
#include <vector>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform {

FileHead read_file_head(const std::string& path, size_t max_bytes, FileExtent extent) {
  FileHead out;
  HANDLE h = CreateFileW(windows::to_wide(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    out.error = windows::system_message(GetLastError());
    return out;
  }
  BY_HANDLE_FILE_INFORMATION info{};
  if (GetFileType(h) != FILE_TYPE_DISK || !GetFileInformationByHandle(h, &info) ||
      (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
    CloseHandle(h);
    out.error = "not a regular file";
    return out;
  }
  const bool whole = extent == FileExtent::kWhole;
  // A whole file reads one byte past the limit, to know it is too large.
  const size_t room = whole ? max_bytes + 1 : max_bytes;
  std::string text;
  std::vector<char> buf(std::min<size_t>(room, 64 * 1024));
  while (text.size() < room) {
    DWORD n = 0;
    if (!ReadFile(h, buf.data(), DWORD(std::min(buf.size(), room - text.size())), &n, nullptr)) {
      out.error = windows::system_message(GetLastError());
      CloseHandle(h);
      return out;
    }
    if (n == 0) break;
    text.append(buf.data(), n);
    if (!whole && text.find('\n') != std::string::npos) break;
  }
  CloseHandle(h);
  if (text.size() > max_bytes) {
    out.error = "larger than " + std::to_string(max_bytes) + " bytes";
    return out;
  }
  out.text = std::move(text);
  return out;
}

}  // namespace voxl::platform
