#include "platform/append_file.h"

#include <windows.h>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform {

OwnedFile open_append_file(const std::string& path, std::string& error) {
  // FILE_APPEND_DATA without FILE_WRITE_DATA: every write goes to the end.
  HANDLE h = CreateFileW(windows::to_wide(path).c_str(), FILE_APPEND_DATA | SYNCHRONIZE,
                         FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    error = windows::system_message(GetLastError());
    return OwnedFile();
  }
  if (GetFileType(h) != FILE_TYPE_DISK) {
    CloseHandle(h);
    error = "not a regular file";
    return OwnedFile();
  }
  return OwnedFile(h);
}

bool sync_file_data(NativeFile file, std::string& error) {
  if (FlushFileBuffers(file)) return true;
  error = windows::system_message(GetLastError());
  return false;
}

bool file_size(NativeFile file, uint64_t& size, std::string& error) {
  LARGE_INTEGER n{};
  if (!GetFileSizeEx(file, &n)) {
    error = windows::system_message(GetLastError());
    return false;
  }
  size = uint64_t(n.QuadPart);
  return true;
}

bool truncate_file(NativeFile file, uint64_t size, std::string& error) {
  FILE_END_OF_FILE_INFO end{};
  end.EndOfFile.QuadPart = LONGLONG(size);
  if (SetFileInformationByHandle(file, FileEndOfFileInfo, &end, sizeof end)) return true;
  error = windows::system_message(GetLastError());
  return false;
}

}  // namespace voxl::platform
