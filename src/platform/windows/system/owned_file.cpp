#include "platform/owned_file.h"

#include <windows.h>

#include <random>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform {

namespace {

std::string last_error_text() { return windows::system_message(GetLastError()); }

// WriteFile until all of it is written; `at` positions the write (and, on
// a synchronous handle, leaves the file pointer after it).
bool write_fully(HANDLE h, const void* data, size_t n, const uint64_t* at, std::string& error) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t offset = at ? *at : 0;
  while (n > 0) {
    const DWORD chunk = n > (1u << 30) ? DWORD(1u << 30) : DWORD(n);
    OVERLAPPED where{};
    where.Offset = DWORD(offset);
    where.OffsetHigh = DWORD(offset >> 32);
    DWORD written = 0;
    if (!WriteFile(h, p, chunk, &written, at ? &where : nullptr) || written == 0) {
      error = last_error_text();
      return false;
    }
    p += written;
    n -= written;
    offset += written;
  }
  return true;
}

}  // namespace

NativeFile no_file() noexcept { return INVALID_HANDLE_VALUE; }

void OwnedFile::reset() noexcept {
  if (file_ != INVALID_HANDLE_VALUE && file_ != nullptr) CloseHandle(file_);
  file_ = INVALID_HANDLE_VALUE;
}

bool write_all(NativeFile file, const void* data, size_t n, std::string& error) {
  return write_fully(file, data, n, nullptr, error);
}

bool write_at(NativeFile file, const void* data, size_t n, uint64_t offset, std::string& error) {
  LARGE_INTEGER zero{}, here{};
  if (!SetFilePointerEx(file, zero, &here, FILE_CURRENT)) {
    error = last_error_text();
    return false;
  }
  if (!write_fully(file, data, n, &offset, error)) return false;
  if (!SetFilePointerEx(file, here, nullptr, FILE_BEGIN)) {
    error = last_error_text();
    return false;
  }
  return true;
}

bool read_at(NativeFile file, void* data, size_t n, uint64_t offset, size_t& got, std::string& error) {
  LARGE_INTEGER zero{}, here{};
  if (!SetFilePointerEx(file, zero, &here, FILE_CURRENT)) {
    error = last_error_text();
    return false;
  }
  auto* p = static_cast<unsigned char*>(data);
  got = 0;
  bool ok = true;
  while (got < n) {
    const size_t left = n - got;
    const DWORD chunk = left > (1u << 30) ? DWORD(1u << 30) : DWORD(left);
    OVERLAPPED where{};
    where.Offset = DWORD(offset + got);
    where.OffsetHigh = DWORD((offset + got) >> 32);
    DWORD read = 0;
    if (!ReadFile(file, p + got, chunk, &read, &where)) {
      if (GetLastError() == ERROR_HANDLE_EOF) break;
      error = last_error_text();
      ok = false;
      break;
    }
    if (read == 0) break;
    got += read;
  }
  if (!SetFilePointerEx(file, here, nullptr, FILE_BEGIN) && ok) {
    error = last_error_text();
    return false;
  }
  return ok;
}

bool rewind(NativeFile file, std::string& error) {
  LARGE_INTEGER zero{};
  if (SetFilePointerEx(file, zero, nullptr, FILE_BEGIN)) return true;
  error = last_error_text();
  return false;
}

OwnedFile make_anonymous_file(const std::string& dir, std::string& error) {
  std::random_device random;
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string path = dir + "\\voxl-record-";
    for (int i = 0; i < 8; ++i) path += kLetters[random() % (sizeof kLetters - 1)];
    HANDLE h = CreateFileW(windows::to_wide(path).c_str(), GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr, CREATE_NEW,
                           FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h != INVALID_HANDLE_VALUE) return OwnedFile(h);
    if (GetLastError() != ERROR_FILE_EXISTS) break;
  }
  error = "cannot create a temporary file in " + dir + ": " + last_error_text();
  return OwnedFile();
}

}  // namespace voxl::platform
