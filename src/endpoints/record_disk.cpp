#include "endpoints/record_disk.h"

#include <algorithm>

#include "platform/free_space.h"

namespace voxl::endpoints {

std::optional<uint64_t> RecordDiskOps::free_in(const std::string& dir) const {
  return free_bytes ? free_bytes(dir) : platform::free_bytes(dir);
}

platform::OwnedFile RecordDiskOps::make_in(const std::string& dir, std::string& error) const {
  return make_file ? make_file(dir, error) : platform::make_anonymous_file(dir, error);
}

RecordDisk::RecordDisk(RecordDiskOptions options) : options_(std::move(options)), thread_([this] { run(); }) {}

RecordDisk::~RecordDisk() {
  std::deque<Job> dropped;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(jobs_);
  }
  wake_.notify_all();
  thread_.join();
}

bool RecordDisk::submit(std::function<void()> job, uint64_t bytes, Kind kind) {
  const bool bounded = kind == Kind::kBounded;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    if (bounded && bounded_jobs_ > 0 &&
        (bounded_jobs_ >= options_.max_jobs || bytes > options_.max_bytes - std::min(bytes_, options_.max_bytes)))
      return false;
    jobs_.push_back(Job{std::move(job), bounded ? bytes : 0, bounded});
    if (bounded) {
      ++bounded_jobs_;
      bytes_ += bytes;
    }
  }
  wake_.notify_one();
  return true;
}

void RecordDisk::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      if (job.bounded) {
        --bounded_jobs_;
        bytes_ -= job.bytes;
      }
    }
    // Recordings' jobs catch and report their own faults; anything else
    // thrown is the job's alone, and the worker carries on with the others.
    try {
      job.run();
    } catch (...) {
    }
  }
}

}  // namespace voxl::endpoints
