// /record: recordings of the stream the viewers get, as MP4, with no second
// encode. Each recording is a hub sink that is always ready, so it neither
// holds viewers back nor gets paused by them; it waits for a fresh IDR
// (asked for when it joins), writes access units to an unlinked temporary
// file and ends at its length, at the longest allowed length, when the
// picture size changes, when all recordings together reach their disk cap
// or when the temporary folder's disk runs low (RecordBudget).
//
// Threads: the loop thread only; destroy before the io_context and the hub.
#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/logging.h"
#include "endpoints/record_budget.h"
#include "endpoints/record_ring.h"
#include "net/endpoint.h"
#include "stream/hub.h"

namespace voxl::endpoints {

struct RecordOutcome {
  int status = 200;  // else an HTTP error status with `error`
  std::string error;
  std::shared_ptr<platform::OwnedFile> file;  // the MP4, offset 0
  size_t frames = 0;
  double seconds = 0;
  // "length", "stop", "max-record-seconds", "resize", "max-record-mb",
  // "low-disk-space"
  std::string ended;
  // A retroactive recording: how long before the request its first frame
  // was captured (-1 for the others).
  int64_t before_ms = -1;
};

// Why a recording could not start: 503 (too many, no file), 507 (the
// disk cap is used up or the disk is low) or 409 (set_unavailable).
struct RecordRefusal {
  int status = 503;
  std::string error;
};

class RecordService {
 public:
  using Done = std::function<void(RecordOutcome)>;
  static constexpr size_t kMaxRecordings = 16;
  // A stopped-by-itself recording nobody fetches is dropped after this.
  static constexpr std::chrono::minutes kKeepUnfetched{10};
  // No first frame by then: the pipeline is not producing.
  static constexpr std::chrono::seconds kFirstFrameLimit{15};

  RecordService(boost::asio::io_context& io, stream::Hub& hub, std::chrono::seconds max_length,
                std::string temp_dir, Logger log, RecordLimits limits = {});
  ~RecordService();
  RecordService(const RecordService&) = delete;
  RecordService& operator=(const RecordService&) = delete;

  std::chrono::seconds max_length() const { return max_; }

  // From now on every recording is refused with 409 and `why` (the stream
  // is one the MP4 cannot hold, e.g. --stripes above 1).
  void set_unavailable(std::string why) { unavailable_ = std::move(why); }

  // A recording of `length` (<= max_length) from its first frame; `done`
  // runs once on the loop. 0 when too many recordings run, no temporary
  // file can be made or the disk budget says no (`refusal` says which).
  uint64_t record_for(std::chrono::milliseconds length, Done done, RecordRefusal& refusal);
  // A recording that runs until stop() or max_length.
  uint64_t start(RecordRefusal& refusal);

  // Keeps the last `seconds` of the stream in memory (at most `max_bytes`)
  // for record_last(): a sink of the hub that is always attached and asks
  // for a key frame when the stream has gone kBufferKeyInterval without
  // one while it changes. Costs: the encoder runs whenever the screen
  // changes, also with no viewer; an IDR at least every
  // kBufferKeyInterval while it changes (a bigger frame than a P frame);
  // and up to `max_bytes` of memory for the frames held (shared with
  // the viewers' queues, not copied).
  // The sink joins the hub from the loop (once it runs), so the pipeline
  // it turns on exists by then.
  static constexpr std::chrono::seconds kBufferKeyInterval{2};
  void keep_last(std::chrono::seconds seconds, uint64_t max_bytes);
  // The buffer's length; 0 when off.
  std::chrono::seconds buffer_length() const { return buffer_length_; }
  // A recording of the buffered stream from `before` ago (from the key
  // frame at or before then), and on for `after` more (0: it ends now and
  // `done` gets it at once). 409 when no buffer is kept, 503 when it holds
  // nothing yet.
  uint64_t record_last(std::chrono::milliseconds before, std::chrono::milliseconds after, Done done,
                       RecordRefusal& refusal);
  // What the buffer holds now (frames, bytes, span), for /stats and tests.
  size_t buffered_frames() const;
  uint64_t buffered_bytes() const;
  // Ends `id` and hands its file to `done` (at once if it already ended).
  // False for an unknown id.
  bool stop(uint64_t id, Done done);
  void cancel(uint64_t id);  // dropped, file and all
  size_t recordings() const { return recordings_.size(); }
  const RecordBudget& budget() const { return budget_; }

 private:
  class Recording;
  class Buffer;
  std::string unavailable_;  // set_unavailable's reason; empty: recordings may start
  uint64_t add(std::optional<std::chrono::milliseconds> length, Done done, RecordRefusal& refusal,
               std::vector<encode::EncodedFramePtr> backlog = {}, bool live = true);
  void ended(uint64_t id);

  boost::asio::io_context& io_;
  stream::Hub& hub_;
  std::chrono::seconds max_;
  std::string temp_dir_;
  Logger log_;
  RecordBudget budget_;
  std::map<uint64_t, std::unique_ptr<Recording>> recordings_;
  std::chrono::seconds buffer_length_{0};
  std::unique_ptr<Buffer> buffer_;  // keep_last()'s sink
  uint64_t next_id_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::endpoints
