#include "platform/owned_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace voxl::platform {

NativeFile no_file() noexcept { return -1; }

void OwnedFile::reset() noexcept {
  if (file_ >= 0) ::close(file_);
  file_ = -1;
}

bool write_all(NativeFile file, const void* data, size_t n, std::string& error) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(file, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error = std::strerror(w < 0 ? errno : ENOSPC);
      return false;
    }
    p += w;
    n -= size_t(w);
  }
  return true;
}

bool write_at(NativeFile file, const void* data, size_t n, uint64_t offset, std::string& error) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (n > 0) {
    const ssize_t w = ::pwrite(file, p, n, off_t(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error = std::strerror(w < 0 ? errno : ENOSPC);
      return false;
    }
    p += w;
    n -= size_t(w);
    offset += uint64_t(w);
  }
  return true;
}

bool read_at(NativeFile file, void* data, size_t n, uint64_t offset, size_t& got, std::string& error) {
  auto* p = static_cast<unsigned char*>(data);
  got = 0;
  while (got < n) {
    const ssize_t r = ::pread(file, p + got, n - got, off_t(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      error = std::strerror(errno);
      return false;
    }
    if (r == 0) break;
    got += size_t(r);
  }
  return true;
}

bool rewind(NativeFile file, std::string& error) {
  if (::lseek(file, 0, SEEK_SET) == 0) return true;
  error = std::strerror(errno);
  return false;
}

OwnedFile make_anonymous_file(const std::string& dir, std::string& error) {
#ifdef O_TMPFILE
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return OwnedFile(fd);
#endif
  std::string path = dir + "/voxl-record-XXXXXX";
  const int named = ::mkostemp(path.data(), O_CLOEXEC);
  if (named < 0) {
    error = "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
    return OwnedFile();
  }
  ::unlink(path.c_str());
  return OwnedFile(named);
}

}  // namespace voxl::platform
