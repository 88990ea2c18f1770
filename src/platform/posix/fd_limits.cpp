#include "platform/fd_limits.h"

#include <fcntl.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>

namespace voxl::platform {

FdLimit raise_fd_limit() {
  FdLimit out;
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0) {
    out.error = std::string("getrlimit: ") + std::strerror(errno);
    return out;
  }
  out.soft = r.rlim_cur;
  out.hard = r.rlim_max;
  if (r.rlim_cur == r.rlim_max) return out;
  rlimit raised = r;
  raised.rlim_cur = r.rlim_max;
  if (::setrlimit(RLIMIT_NOFILE, &raised) != 0) {
    out.error = std::string("setrlimit: ") + std::strerror(errno);
    return out;
  }
  out.soft = raised.rlim_cur;
  return out;
}

bool set_close_on_exec(NativeSocket socket) {
  const int fd = static_cast<int>(socket);
  const int flags = ::fcntl(fd, F_GETFD);
  if (flags < 0) return false;
  if (flags & FD_CLOEXEC) return true;
  return ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0;
}

}  // namespace voxl::platform
