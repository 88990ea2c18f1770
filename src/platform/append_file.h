// A file that is only ever appended to (the audit log): opened for
// appending, created private to its owner, each write going to the end
// even when another process appends too; flushed to the disk on demand.
//
// POSIX: O_APPEND, mode 0600, fdatasync. Windows: FILE_APPEND_DATA (every
// write at the end), FlushFileBuffers; the file's ACL is the folder's.
//
// Threads: blocking system calls, callable from any thread; one writer per
// file at a time.
#pragma once

#include <cstdint>
#include <string>

#include "platform/owned_file.h"

namespace voxl::platform {

// Opens `path` for appending, creating it (private to this user) when it
// does not exist. Invalid with `error` set when it cannot.
OwnedFile open_append_file(const std::string& path, std::string& error);
// Puts what was written on the disk (its data, not every timestamp).
bool sync_file_data(NativeFile file, std::string& error);
// The file's size in bytes; false with `error` set when it cannot tell.
bool file_size(NativeFile file, uint64_t& size, std::string& error);
// Cuts the file back to `size` bytes (a write that failed half way).
bool truncate_file(NativeFile file, uint64_t size, std::string& error);

}  // namespace voxl::platform
