// How much room a folder's file system has left for an unprivileged writer:
// statvfs's f_bavail on POSIX, GetDiskFreeSpaceExW's bytes available to the
// caller (quotas included) on Windows. Any thread; one system call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace voxl::platform {

// Bytes available to this process under `dir` (UTF-8); nullopt when the
// system cannot tell.
std::optional<uint64_t> free_bytes(const std::string& dir);

}  // namespace voxl::platform
