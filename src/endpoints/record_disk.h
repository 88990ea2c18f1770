// One thread for the blocking disk work of recordings (making the file,
// writing access units, writing the index, looking at the free space,
// closing the file, which frees an unlinked file's blocks), so the loop
// that sends the picture never waits on a disk. Jobs run in the order
// given, so a recording's writes, its index and its release follow one
// another without further locking.
//
// The queue is bounded in jobs and bytes for the work that grows with the
// stream (Kind::kBounded: frames, and a recording's start); submit()
// refuses such a job past either bound, and the recording then fails with
// 503 (the disk cannot keep up). The work a recording needs once to end
// (Kind::kAlways: its index, its release, a retroactive recording's backlog
// whose frames the ring holds already) is never refused while the worker
// runs, so a recording let start always gets its end; it is bounded by the
// number of recordings.
//
// Threads: submit() and on_worker() from any thread; jobs run on the
// worker's thread, which the destructor joins after the running job (jobs
// still queued are dropped unrun and destroyed on the destroying thread).
// A job reports back by posting to the loop itself.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "platform/owned_file.h"

namespace voxl::endpoints {

// The system calls a recording makes on the disk's thread; empty members
// are the platform's (tests pass their own to stall or fail the disk).
struct RecordDiskOps {
  std::function<std::optional<uint64_t>(const std::string& dir)> free_bytes;
  std::function<platform::OwnedFile(const std::string& dir, std::string& error)> make_file;

  // platform::free_bytes unless replaced.
  std::optional<uint64_t> free_in(const std::string& dir) const;
  // platform::make_anonymous_file unless replaced.
  platform::OwnedFile make_in(const std::string& dir, std::string& error) const;
};

struct RecordDiskOptions {
  size_t max_jobs = 4096;                    // kBounded jobs waiting, at most
  uint64_t max_bytes = uint64_t(64) << 20;   // their frames' bytes, at most
  RecordDiskOps ops;
};

class RecordDisk {
 public:
  enum class Kind { kBounded, kAlways };

  explicit RecordDisk(RecordDiskOptions options);
  ~RecordDisk();
  RecordDisk(const RecordDisk&) = delete;
  RecordDisk& operator=(const RecordDisk&) = delete;

  // False (and `job` dropped here) when the worker is stopping, or for a
  // kBounded job when max_jobs wait already or `bytes` more would pass
  // max_bytes (a job alone in the queue is always taken).
  [[nodiscard]] bool submit(std::function<void()> job, uint64_t bytes = 0, Kind kind = Kind::kBounded);
  // Whether the caller runs on the worker's thread.
  bool on_worker() const { return std::this_thread::get_id() == thread_.get_id(); }
  const RecordDiskOps& ops() const { return options_.ops; }
  const RecordDiskOptions& options() const { return options_; }

 private:
  struct Job {
    std::function<void()> run;
    uint64_t bytes = 0;
    bool bounded = true;
  };
  void run();

  const RecordDiskOptions options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  size_t bounded_jobs_ = 0;  // kBounded ones in jobs_
  uint64_t bytes_ = 0;       // of the kBounded ones in jobs_
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace voxl::endpoints
