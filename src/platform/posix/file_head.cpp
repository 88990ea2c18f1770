#include "platform/file_head.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace voxl::platform {

FileHead read_file_head(const std::string& path, size_t max_bytes) {
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
  std::string text;
  std::vector<char> buf(max_bytes);
  while (text.size() < max_bytes) {
    const ssize_t n = ::read(fd, buf.data(), max_bytes - text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.error = std::strerror(errno);
      ::close(fd);
      return out;
    }
    if (n == 0) break;
    text.append(buf.data(), size_t(n));
    if (text.find('\n') != std::string::npos) break;
  }
  ::close(fd);
  out.text = std::move(text);
  return out;
}

}  // namespace voxl::platform
