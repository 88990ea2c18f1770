#include "platform/file_head.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace voxl::platform {

FileHead read_file_head(const std::string& path, size_t max_bytes, FileExtent extent) {
  FileHead out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    out.error = std::strerror(errno);
    return out;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    out.error = "not a regular file";
    return out;
  }
  out.loose = (st.st_mode & (S_IRWXG | S_IRWXO)) != 0;
  out.world_readable = (st.st_mode & S_IROTH) != 0;
  out.shared_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  const bool whole = extent == FileExtent::kWhole;
  // A whole file reads one byte past the limit, to know it is too large.
  const size_t room = whole ? max_bytes + 1 : max_bytes;
  std::string text;
  std::vector<char> buf(std::min<size_t>(room, 64 * 1024));
  while (text.size() < room) {
    const ssize_t n = ::read(fd, buf.data(), std::min(buf.size(), room - text.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.error = std::strerror(errno);
      ::close(fd);
      return out;
    }
    if (n == 0) break;
    text.append(buf.data(), size_t(n));
    if (!whole && text.find('\n') != std::string::npos) break;
  }
  ::close(fd);
  if (text.size() > max_bytes) {
    out.error = "larger than " + std::to_string(max_bytes) + " bytes";
    return out;
  }
  out.text = std::move(text);
  return out;
}

}  // namespace voxl::platform
