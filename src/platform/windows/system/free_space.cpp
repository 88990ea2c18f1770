#include "platform/free_space.h"

#include <windows.h>

#include "platform/windows/wide_string.h"

namespace voxl::platform {

std::optional<uint64_t> free_bytes(const std::string& dir) {
  ULARGE_INTEGER available{};
  if (!GetDiskFreeSpaceExW(windows::to_wide(dir).c_str(), &available, nullptr, nullptr)) return std::nullopt;
  return uint64_t(available.QuadPart);
}

}  // namespace voxl::platform
