#include "platform/append_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace voxl::platform {

OwnedFile open_append_file(const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
  if (fd < 0) {
    error = std::strerror(errno);
    return OwnedFile();
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    error = "not a regular file";
    return OwnedFile();
  }
  return OwnedFile(fd);
}

bool sync_file_data(NativeFile file, std::string& error) {
  while (::fdatasync(file) != 0) {
    if (errno == EINTR) continue;
    error = std::strerror(errno);
    return false;
  }
  return true;
}

bool file_size(NativeFile file, uint64_t& size, std::string& error) {
  struct stat st {};
  if (::fstat(file, &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  size = uint64_t(st.st_size);
  return true;
}

bool truncate_file(NativeFile file, uint64_t size, std::string& error) {
  while (::ftruncate(file, off_t(size)) != 0) {
    if (errno == EINTR) continue;
    error = std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace voxl::platform
