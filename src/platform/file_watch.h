// Tells when a file may have changed: written, replaced (an editor renames
// a new file onto it), removed, or its permissions changed. The folder that
// holds it is watched, so a replaced file is still seen; a burst of changes
// (a save is several) is told once, after kSettle of quiet.
//
// POSIX: inotify on the folder, filtered by the file's name. Windows: a
// change notification on the folder (any file in it: the caller compares
// what it reads with what it has).
//
// Threads: made and destroyed on one thread; `changed` runs on the watch's
// own thread (post it to where it belongs). Ownership: the destructor stops
// and joins that thread; `changed` is not called after it returns.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace voxl::platform {

class FileWatch {
 public:
  static constexpr std::chrono::milliseconds kSettle{200};

  // Throws std::runtime_error naming the folder when it cannot be watched.
  FileWatch(const std::string& path, std::function<void()> changed);
  ~FileWatch();
  FileWatch(const FileWatch&) = delete;
  FileWatch& operator=(const FileWatch&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace voxl::platform
