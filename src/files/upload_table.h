// The uploads in progress: for each, where its bytes go, how many were
// announced and how many are safely written (the confirmed offset a
// client resumes from). Bookkeeping only: the files themselves are opened
// and written elsewhere. Bounded in count; entries untouched for longer
// than the expiry are handed back by expire() for their partial files to
// be removed.
//
// Threads: the loop thread (one owner). The clock is passed in, so the
// rules are tested without waiting.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/owned_file.h"

namespace voxl::files {

struct Upload {
  using Clock = std::chrono::steady_clock;
  std::string id;        // 32 hex digits, unguessable
  std::string target;    // where it goes, relative to the root
  std::string partial;   // the hidden file being written, relative to the root
  uint64_t size = 0;     // announced
  uint64_t offset = 0;   // written and confirmed
  Clock::time_point touched;
  bool busy = false;     // a chunk (or the completion) is being written
  bool placing = false;  // the completion: flushed and renamed into place
  bool cancelled = false;  // DELETE came while a chunk was written: the write's end removes it
  // DELETE came while placing: the completion checks this (on the disk
  // worker) before the rename and withdraws the upload instead.
  std::shared_ptr<std::atomic<bool>> withdrawn = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<platform::OwnedFile> file;  // the partial file, open for writing
};

class UploadTable {
 public:
  using Clock = Upload::Clock;

  UploadTable(size_t max_uploads, Clock::duration expiry) : max_(max_uploads), expiry_(expiry) {}

  // False when max_uploads are in progress already (or the id is taken).
  bool add(Upload upload);
  Upload* find(const std::string& id);
  void remove(const std::string& id);
  size_t size() const { return uploads_.size(); }
  bool full() const { return uploads_.size() >= max_; }

  enum class Verdict { kOk, kUnknown, kBusy, kWrongOffset, kPastEnd };
  // Whether `n` bytes at `offset` may be written to upload `id` now.
  Verdict check_chunk(const std::string& id, uint64_t offset, uint64_t n) const;
  // `n` more bytes are written and confirmed.
  void advance(Upload& upload, uint64_t n, Clock::time_point now);

  // Bytes announced but not yet written, over every upload: room the disk
  // must keep for them.
  uint64_t outstanding_bytes() const;

  // Takes out and returns the uploads untouched since now - expiry (and
  // not busy).
  std::vector<Upload> expire(Clock::time_point now);
  // When the next one expires, if any.
  std::optional<Clock::time_point> next_expiry() const;

 private:
  size_t max_;
  Clock::duration expiry_;
  std::map<std::string, Upload> uploads_;
};

}  // namespace voxl::files
