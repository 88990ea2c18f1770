// One thread for the blocking disk work of file transfers (writing upload
// chunks, flushing and renaming finished uploads, reading files and zips
// for downloads, listing folders), so the loop that sends the picture
// never waits on a disk. Jobs run in the order given; the queue is bounded
// and submit() refuses past it.
//
// Threads: submit() from any thread; jobs run on the worker's own thread,
// which the destructor joins after the running job (jobs still queued are
// dropped unrun, their captures destroyed on the destroying thread). A job
// reports back by posting to the loop itself.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace voxl::files {

class DiskWorker {
 public:
  explicit DiskWorker(size_t max_queued);
  ~DiskWorker();
  DiskWorker(const DiskWorker&) = delete;
  DiskWorker& operator=(const DiskWorker&) = delete;

  // False (and `job` dropped) when max_queued jobs wait already.
  bool submit(std::function<void()> job);

 private:
  void run();

  const size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace voxl::files
