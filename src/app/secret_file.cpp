#include "app/secret_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace voxl::app {

SecretFile read_secret_file(const std::string& flag, const std::string& path) {
  SecretFile out;
  const auto fail = [&](const std::string& why) {
    out.error = flag + ": cannot use '" + path + "': " + why;
    return out;
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return fail(std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail("not a regular file");
  }
  out.loose = (st.st_mode & (S_IRWXG | S_IRWXO)) != 0;
  constexpr size_t kMax = 4096;
  std::string text;
  char buf[kMax];
  while (text.size() < kMax) {
    const ssize_t n = ::read(fd, buf, kMax - text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      return fail(std::strerror(e));
    }
    if (n == 0) break;
    text.append(buf, size_t(n));
    if (text.find('\n') != std::string::npos) break;
  }
  ::close(fd);
  text = text.substr(0, text.find('\n'));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (text.empty()) return fail("its first line is empty");
  out.value = std::move(text);
  return out;
}

}  // namespace voxl::app
