// The disk side of one recording: its unlinked temporary file and the MP4
// muxer writing it, driven by RecordDisk jobs that RecordService posts
// (open, write, finish). It keeps the recording's first failure, so later
// jobs do nothing and finish() reports it; once the free space fell below
// the floor it writes nothing more.
//
// Threads: every method on the RecordDisk's thread only (made on the loop,
// handed over; destroyed by whichever job holds it last). Blocking: all of
// them. The file it hands out (Finished::file) closes on the disk's thread
// too, since closing an unlinked file frees its blocks: dropped anywhere
// else (a recording cancelled or never fetched), it is closed by a job.
// One who takes its descriptor (OwnedFile::release) closes it themselves.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "encode/encoded_frame.h"
#include "endpoints/mp4_writer.h"
#include "endpoints/record_disk.h"
#include "platform/owned_file.h"

namespace voxl::endpoints {

class RecordFile {
 public:
  using Clock = std::chrono::steady_clock;

  // One access unit to write, shown at `time_us`; with `look` the free
  // space is looked at first.
  struct Item {
    encode::EncodedFramePtr frame;
    int64_t time_us = 0;
    Clock::time_point at;
    bool look = false;
  };

  struct Opened {
    enum class Status { kOk, kLowDisk, kNoFile } status = Status::kOk;
    std::optional<uint64_t> free;  // the space looked at
    std::string error;             // kNoFile: why
  };
  // What write() has to say; nothing when all went as planned.
  struct Written {
    std::optional<uint64_t> free;   // looked at (for the service's last word on free space)
    std::optional<Clock::time_point> low_disk_at;  // fell below the floor before this item: stopped there
    std::optional<std::string> error;              // the write failed: the recording is lost
    bool worth_telling() const { return free || low_disk_at || error; }
  };
  struct Finished {
    int status = 200;  // else an HTTP error status with `error`
    std::string error;
    std::shared_ptr<platform::OwnedFile> file;  // the MP4, offset 0
    size_t frames = 0;
    uint64_t bytes = 0;
    // The disk went low before the end asked for: the MP4 ends there.
    std::optional<Clock::time_point> low_disk_at;
  };

  // `disk`: where the file is released at last (see above); `dir`: the
  // temporary folder; `min_free_bytes`: the floor of free space.
  RecordFile(std::weak_ptr<RecordDisk> disk, RecordDiskOps ops, std::string dir, uint64_t min_free_bytes);

  // Looks at the free space and makes the file.
  Opened open();
  // Writes `items` in order; stops at the first failure or low disk.
  Written write(const std::vector<Item>& items);
  // Writes the index, the last frame lasting until `end_us` (or until the
  // disk went low); `reason` names why it ended, for the error when not one
  // frame was written. What the others threw (bad_alloc) is a failure here
  // too, so the answer is never lost.
  Finished finish(int64_t end_us, const std::string& reason);

 private:
  void failed(int status, std::string error);

  std::weak_ptr<RecordDisk> disk_;
  RecordDiskOps ops_;
  std::string dir_;
  uint64_t min_free_;
  std::shared_ptr<platform::OwnedFile> file_;
  std::optional<Mp4Writer> writer_;
  int status_ = 200;  // the first failure, else 200
  std::string error_;
  bool stopped_ = false;   // the disk went low: nothing more is written
  // The frame it stopped before (not written): the MP4 ends at its time.
  int64_t stopped_us_ = 0;
  Clock::time_point stopped_at_;
  bool finished_ = false;
};

}  // namespace voxl::endpoints
