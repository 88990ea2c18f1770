// A file handle owned by one holder, in the form Beast's file type takes
// (beast::file::native_handle): an int descriptor on POSIX, a HANDLE on
// Windows. Also the few plain writes the recorder makes, and the unnamed
// temporary file it records into.
//
// Threads: an OwnedFile has one owner at a time; the functions are
// blocking system calls, callable from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace voxl::platform {

#ifdef _WIN32
using NativeFile = void*;  // HANDLE
#else
using NativeFile = int;
#endif

// The value that names no file (-1; INVALID_HANDLE_VALUE on Windows).
NativeFile no_file() noexcept;

class OwnedFile {
 public:
  OwnedFile() : file_(no_file()) {}
  explicit OwnedFile(NativeFile file) : file_(file) {}
  ~OwnedFile() { reset(); }
  OwnedFile(OwnedFile&& o) noexcept : file_(std::exchange(o.file_, no_file())) {}
  OwnedFile& operator=(OwnedFile&& o) noexcept {
    if (this != &o) {
      reset();
      file_ = std::exchange(o.file_, no_file());
    }
    return *this;
  }

  bool valid() const { return file_ != no_file(); }
  NativeFile get() const { return file_; }
  // The caller owns it afterwards.
  NativeFile release() { return std::exchange(file_, no_file()); }
  void reset() noexcept;

 private:
  NativeFile file_;
};

// Writes all `n` bytes at the file's offset, moving it on; false with
// `error` set when the system refuses.
bool write_all(NativeFile file, const void* data, size_t n, std::string& error);
// Writes `n` bytes at `offset`, leaving the file's offset where it was.
bool write_at(NativeFile file, const void* data, size_t n, uint64_t offset, std::string& error);
// Reads up to `n` bytes at `offset` into `data`, leaving the file's offset
// alone: `got` < n only at the end of the file. False with `error` set
// when the system refuses.
bool read_at(NativeFile file, void* data, size_t n, uint64_t offset, size_t& got, std::string& error);
// Moves the file's offset back to 0.
bool rewind(NativeFile file, std::string& error);

// A read-write file in `dir` that no other process can open by name and
// that goes away with its last handle, even if voxl is killed. POSIX:
// O_TMPFILE, else mkostemp and unlink at once; close-on-exec. Windows:
// CreateFileW with FILE_FLAG_DELETE_ON_CLOSE and FILE_ATTRIBUTE_TEMPORARY,
// shared for reading and deleting only (the HTTP reply reads through this
// same handle, so nothing reopens it), not inherited. Invalid with `error`
// set when it cannot be made.
OwnedFile make_anonymous_file(const std::string& dir, std::string& error);

}  // namespace voxl::platform
