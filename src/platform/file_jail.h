// Files beneath one folder, the root, resolved by the kernel: every path
// handed in is relative to the root, and whatever it says (`..`, an
// absolute symlink, a symlink whose target climbs out) it cannot reach
// anything outside. On Linux each lookup is one openat2() with
// RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS from a descriptor of the root
// opened once; where the kernel lacks openat2 (before 5.6) the same rule is
// kept by opening one component at a time with O_NOFOLLOW and refusing
// every symlink. A symlink whose target stays beneath the root is followed.
//
// Paths given here have been checked already (files/relative_path.h):
// components joined by '/', none empty, ".", ".." or longer than 255
// bytes; "" names the root itself. The jail checks again and refuses what
// slipped through, but it is not a parser.
//
// Threads: any; the functions are blocking system calls and keep no state
// besides the root's descriptor, so one jail may serve several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/owned_file.h"

namespace voxl::platform {

enum class JailError {
  kNone,
  kNotFound,       // no such file or folder (or a symlink out of the root: it is not there for us)
  kNotAllowed,     // the system refused (permissions), or the path leaves the root
  kExists,         // the name is taken
  kNotADirectory,  // a component or the target is not a folder
  kIsADirectory,   // a file was wanted
  kNoSpace,        // the disk or a quota is full
  kTooLong,        // a name or the path is too long for the system
  kIo,             // anything else; the message says what
};

struct JailStatus {
  JailError error = JailError::kNone;
  std::string message;  // for the log and the user; empty when all went well
  explicit operator bool() const { return error == JailError::kNone; }
};

struct FileInfo {
  enum class Kind { kFile, kDirectory, kOther };
  Kind kind = Kind::kOther;
  uint64_t size = 0;
  int64_t modified_ms = 0;  // since the Unix epoch
  // Identifies this version of the file (device, inode, size, change time):
  // a download's ETag.
  std::string version;
};

struct DirEntry {
  std::string name;
  // A symlink is described by what it points at when that lies beneath
  // the root; one that points out of it, or nowhere, is kOther.
  FileInfo info;
};

class FileJail {
 public:
  // Opens `root` (an absolute path) as the jail's root. Null with `error`
  // set when it is not an existing folder that can be opened.
  static std::unique_ptr<FileJail> open(const std::string& root, std::string& error);
  ~FileJail();
  FileJail(const FileJail&) = delete;
  FileJail& operator=(const FileJail&) = delete;

  const std::string& root() const;

  JailStatus stat(const std::string& rel, FileInfo& info) const;
  // A regular file, open for reading (close-on-exec); `info` describes it.
  JailStatus open_read(const std::string& rel, OwnedFile& file, FileInfo& info) const;
  // The entries of a folder, "." and ".." left out, at most `max_entries`
  // (`truncated` says whether there were more), in the order the system
  // gives them.
  JailStatus list(const std::string& rel, size_t max_entries, std::vector<DirEntry>& out, bool& truncated) const;
  // Creates `rel` and any missing folders above it (mode 0777 less the
  // umask); fine when it exists as a folder already.
  JailStatus make_dirs(const std::string& rel) const;
  // A new regular file, read-write, O_EXCL: kExists when the name is
  // taken. Mode 0666 less the umask: never executable.
  JailStatus create_new(const std::string& rel, OwnedFile& file) const;
  // Renames within the root without ever replacing: kExists when `to` is
  // taken (renameat2 RENAME_NOREPLACE; where the file system lacks it, a
  // hard link and an unlink, which cannot replace either).
  JailStatus rename_new(const std::string& from, const std::string& to) const;
  // Removes a file (not a folder).
  JailStatus remove(const std::string& rel) const;
  // Whether this system can hold a file at `rel`, by its names alone (the
  // disk is not asked): on Linux any plain relative path; on Windows not a
  // device name (CON, nul.txt, COM1), a stream (a:b), a reserved character
  // or a name ending in a dot or space. The message names the part that
  // cannot be held.
  static JailStatus check_names(const std::string& rel);

  // Bytes the root's file system has left for this process.
  std::optional<uint64_t> free_bytes() const;
  // Flushes a file's data to the disk (fdatasync).
  static JailStatus sync(const OwnedFile& file);

 private:
  struct Impl;
  explicit FileJail(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace voxl::platform
