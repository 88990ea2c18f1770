// The start of a small file that holds a secret (a password or token file),
// or the whole of one (the users file): read only if it is a regular file,
// with a note when others may read it or write it.
//
// POSIX: opened non-blocking (a FIFO cannot hang us) and fstat'ed: a
// regular file; `loose` when group or others have any permission,
// `world_readable` and `shared_write` for the two that matter most. Windows: opened for reading (shared read), checked to be a
// disk file and not a folder; the ACL is not examined, so `loose` is always
// false there, as are the other two (files in the user profile are private
// by default).
//
// Threads: any; blocking file reads.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace voxl::platform {

struct FileHead {
  std::optional<std::string> text;  // up to and including the first '\n', at most max_bytes; nullopt on error
  std::string error;                // why not, in words ("not a regular file", the system's message)
  bool loose = false;               // others than the owner may read it (POSIX only)
  bool world_readable = false;      // any user may read it (POSIX only)
  bool shared_write = false;        // group or others may write it (POSIX only)
};

enum class FileExtent {
  kFirstLine,  // up to and including the first '\n', at most max_bytes
  kWhole,      // all of it; a file larger than max_bytes is an error
};

FileHead read_file_head(const std::string& path, size_t max_bytes, FileExtent extent = FileExtent::kFirstLine);

}  // namespace voxl::platform
