#include "platform/free_space.h"

#include <sys/statvfs.h>

namespace voxl::platform {

std::optional<uint64_t> free_bytes(const std::string& dir) {
  struct statvfs s {};
  if (::statvfs(dir.c_str(), &s) != 0) return std::nullopt;
  return uint64_t(s.f_bavail) * uint64_t(s.f_frsize);
}

}  // namespace voxl::platform
