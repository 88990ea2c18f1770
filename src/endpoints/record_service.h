// /record: recordings of the stream the viewers get, as MP4, with no second
// encode. Each recording is a hub sink that is always ready, so it neither
// holds viewers back nor gets paused by them; it waits for a fresh IDR
// (asked for when it joins), writes access units to an unlinked temporary
// file and ends at its length, at the longest allowed length, when the
// picture size changes, when all recordings together reach their disk cap
// or when the temporary folder's disk runs low (RecordBudget).
//
// Retroactive recordings (/record?last=N, keep_last and record_last): a
// sink of the hub keeps the last seconds of the same stream in a
// RecordRing; a request writes what it holds into a new recording at once
// and, when it asks for more, goes on with the frames that sink gets next.
//
// The service never touches the disk on the loop: making the file,
// writing the frames, the index, the looks at the free space and closing
// the files it drops run on one disk thread (RecordDisk, bounded), each
// recording's in order (RecordFile), and what they have to say is posted
// back to the loop. (Sending a finished MP4 is the HTTP reply's.) A
// start is refused at once from what the loop knows (the cap, the last
// free space the disk thread saw, a full disk queue: 503); what only the
// disk can tell (low space, no file, a failed write, the queue filling up
// while it records) ends the recording with that error as its outcome, so
// `done` (or stop()) still gets exactly one answer. A recording's answer
// comes once its index is written: after end, stop() or its length, not
// within the call.
//
// A sink that throws is dropped by the hub (stream/fanout/hub.h): a recording
// fails with 500, the buffer stops and refuses further record_last().
//
// Threads: the loop thread only, but for the disk thread described above;
// destroy before the io_context and the hub (it joins the disk thread).
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
#include "endpoints/record_disk.h"
#include "endpoints/record_ring.h"
#include "net/endpoint.h"
#include "stream/fanout/hub.h"

namespace voxl::endpoints {

struct RecordOutcome {
  // Else an HTTP error status with `error`: 500 a failed write, 503 no
  // picture, no file or the disk could not keep up, 507 the disk ran low
  // before the first picture was written.
  int status = 200;
  std::string error;
  std::shared_ptr<platform::OwnedFile> file;  // the MP4, offset 0
  size_t frames = 0;
  double seconds = 0;
  // "length", "stop", "max-record-seconds", "resize", "max-record-mb",
  // "low-disk-space"
  std::string ended;
  // A retroactive recording (-1 for the others): how long before the
  // request the clip begins, and how far back the buffer reached then, up
  // to its length (less than asked for when it held less: the clip is
  // what it held).
  int64_t before_ms = -1;
  int64_t buffered_ms = -1;
};

// Why a recording could not start: 503 (too many, the disk queue is full),
// 507 (the disk cap is used up or the disk was low at the last look) or
// 409 (set_unavailable).
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

  // `disk`: the disk thread's queue bounds, and its system calls (tests).
  RecordService(boost::asio::io_context& io, stream::Hub& hub, std::chrono::seconds max_length,
                std::string temp_dir, Logger log, RecordLimits limits = {}, RecordDiskOptions disk = {});
  ~RecordService();
  RecordService(const RecordService&) = delete;
  RecordService& operator=(const RecordService&) = delete;

  std::chrono::seconds max_length() const { return max_; }

  // From now on every recording is refused with 409 and `why` (the stream
  // is one the MP4 cannot hold, e.g. --stripes above 1).
  void set_unavailable(std::string why) { unavailable_ = std::move(why); }

  // A recording of `length` (<= max_length) from its first frame; `done`
  // runs once on the loop, later (with an error status when the disk
  // failed it). 0 when too many recordings run, the disk budget or the
  // disk queue says no (`refusal` says which); `done` is not called then.
  [[nodiscard]] uint64_t record_for(std::chrono::milliseconds length, Done done, RecordRefusal& refusal);
  // A recording that runs until stop() or max_length.
  [[nodiscard]] uint64_t start(RecordRefusal& refusal);

  // Keeps the last `seconds` of the stream in memory, at most `max_bytes`
  // (RecordRing: whole groups of pictures go from the front), for
  // record_last(). Call once, before any recording; the sink joins the hub
  // from the loop, once it runs (the video pipeline it turns on is started
  // after the wiring).
  //
  // The sink stays attached for the server's life, which costs:
  // - The encoder runs whenever the screen changes, at up to --framerate,
  //   also with no viewer (a still screen still costs nothing: capture is
  //   driven by damage).
  // - A key frame at least every kBufferKeyInterval while the screen
  //   changes, asked for through the hub only when the stream has gone
  //   that long without one (viewers joining or resyncing make some
  //   anyway). Extra bitrate is about (IDR size - P frame size) per
  //   interval: e.g. a 1080p desktop whose IDR is 150 KB and whose small
  //   changes code to 5 KB pays about 72 KB/s (~0.6 Mbit/s) more while
  //   something moves; a full-screen video, whose P frames are large
  //   already, pays relatively less. Compare /stats kbps with and without.
  // - Memory: up to `max_bytes` (--record-buffer-mb), at most
  //   `seconds` plus one interval of the stream: about kbps / 8 * (seconds
  //   + kBufferKeyInterval) bytes, e.g. 60 s of a 2 Mbit/s stream is 15 MB.
  //   Frames are shared with the viewers' queues, not copied.
  // - Rung 0 always has a consumer that is ready, so it is coded even while
  //   every viewer of it is congested (they then drop frames and resync
  //   with a key frame), and the still-screen 4:4:4 paintover is never
  //   used (an MP4 track keeps one profile).
  static constexpr std::chrono::seconds kBufferKeyInterval{2};
  void keep_last(std::chrono::seconds seconds, uint64_t max_bytes);
  // The buffer's length; 0 when off.
  std::chrono::seconds buffer_length() const { return buffer_length_; }
  // A recording of the buffered stream from `before` ago and on for
  // `after` more, as one MP4 (`done` runs once on the loop: at once when
  // `after` is 0). It begins at the newest key frame at or before
  // now - before (or the oldest held), or after a picture size change in
  // that window at the first key frame of the newest size. A still screen
  // may leave that key frame long before the window: frames captured more
  // than kBufferKeyInterval before the window are shown from then on (the
  // screen looked the same), so the clip lasts at most before +
  // kBufferKeyInterval + after. The live part follows the held frames with
  // no gap: the frames the buffer gets next, with no key frame asked for.
  // 409 when no buffer is kept or recordings are unavailable, 503 when it
  // holds nothing yet, and the refusals of record_for().
  [[nodiscard]] uint64_t record_last(std::chrono::milliseconds before, std::chrono::milliseconds after, Done done,
                                     RecordRefusal& refusal);
  // What the buffer holds now, for /stats and tests.
  size_t buffered_frames() const;
  uint64_t buffered_bytes() const;
  // Ends `id` and hands its file to `done` once its index is written (soon
  // after, if it had ended already). False for an unknown id or one whose
  // answer someone already waits for.
  [[nodiscard]] bool stop(uint64_t id, Done done);
  void cancel(uint64_t id);  // dropped, file and all
  size_t recordings() const { return recordings_.size(); }
  uint64_t started() const { return next_id_; }  // recordings begun since start
  const RecordBudget& budget() const { return budget_; }
  // What the disk thread last saw free in the temporary folder (nullopt:
  // not looked yet, or unknown).
  std::optional<uint64_t> last_free() const { return last_free_; }

 private:
  class Recording;  // one recording's loop side (endpoints/recording_sink.h)
  class Buffer;     // keep_last()'s sink (endpoints/record_buffer.h)
  std::string unavailable_;  // set_unavailable's reason; empty: recordings may start
  // A retroactive recording's start (record_last).
  struct Backlog {
    std::vector<encode::EncodedFramePtr> frames;  // from a key frame
    std::chrono::steady_clock::time_point asked;  // the request
    std::chrono::steady_clock::time_point floor;  // frames captured earlier are shown from then
    bool live = false;                            // it goes on after `asked`
    int64_t buffered_ms = 0;
  };
  uint64_t add(std::optional<std::chrono::milliseconds> length, Done done, RecordRefusal& refusal,
               Backlog* backlog = nullptr);
  void ended(uint64_t id);

  boost::asio::io_context& io_;
  stream::Hub& hub_;
  std::chrono::seconds max_;
  std::string temp_dir_;
  Logger log_;
  RecordBudget budget_;
  std::optional<uint64_t> last_free_;  // the disk thread's last look
  // The disk thread; shared so a recording's file, released last by the
  // HTTP reply, can still hand its closing to it (record_file.h).
  std::shared_ptr<RecordDisk> disk_;
  std::map<uint64_t, std::unique_ptr<Recording>> recordings_;
  std::chrono::seconds buffer_length_{0};
  std::unique_ptr<Buffer> buffer_;  // keep_last()'s sink
  uint64_t next_id_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::endpoints
