// How much room a folder's file system has left for an unprivileged
// writer (statvfs's f_bavail). POSIX only; any thread; one system call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace voxl {

// Bytes available to this process under `dir`; nullopt when statvfs fails.
std::optional<uint64_t> free_bytes(const std::string& dir);

}  // namespace voxl
