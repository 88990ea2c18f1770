// The disk that recordings may take: a cap on the bytes of all recordings
// together (--max-record-mb) and a floor of free space on the temporary
// folder's file system. Pure bookkeeping; the caller asks the file system
// (platform/free_space.h) when free_check_due() says so and passes the answer
// in, so the rules are tested without a disk. RecordService looks on its
// disk thread instead: the loop calls start_free_check() (which starts the
// count again) and the disk thread compares with min_free_bytes itself.
//
// Threads: one owner (the loop thread).
#pragma once

#include <cstdint>
#include <optional>

namespace voxl::endpoints {

struct RecordLimits {
  uint64_t max_total_bytes = uint64_t(2048) << 20;  // --max-record-mb
  uint64_t min_free_bytes = uint64_t(256) << 20;    // left free on the temporary folder's disk
  // Written between two looks at the free space.
  uint64_t free_check_every = uint64_t(1) << 20;
};

class RecordBudget {
 public:
  enum class Verdict {
    kOk,
    kCapReached,  // the recordings together reached max_total_bytes
    kLowDisk,     // the disk has less than min_free_bytes left
  };

  explicit RecordBudget(RecordLimits limits) : limits_(limits) {}

  // May a recording start, with `free` bytes free (nullopt: unknown, which
  // does not refuse)?
  [[nodiscard]] Verdict can_start(std::optional<uint64_t> free) const;
  // `bytes` more for one recording: kOk (and counted) when they fit under
  // the cap, else kCapReached (and not counted).
  [[nodiscard]] Verdict take(uint64_t bytes);
  // True once free_check_every bytes were taken since the last look.
  bool free_check_due() const { return since_check_ >= limits_.free_check_every; }
  // The look: kLowDisk when `free` fell below the floor.
  [[nodiscard]] Verdict check_free(std::optional<uint64_t> free);
  // A look made elsewhere (on the disk's thread): true when one was due,
  // and the count starts again.
  [[nodiscard]] bool start_free_check();
  // A recording's bytes, once its file is gone.
  void give_back(uint64_t bytes);

  uint64_t used() const { return used_; }
  const RecordLimits& limits() const { return limits_; }

 private:
  RecordLimits limits_;
  uint64_t used_ = 0;
  uint64_t since_check_ = 0;
};

}  // namespace voxl::endpoints
