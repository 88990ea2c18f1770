// The loop's side of one recording of RecordService
// (endpoints/record_service.h): a hub sink (or a follower of the buffer)
// that decides which frames go in, when the recording ends and what its
// answer is. Its disk side is a RecordFile (endpoints/record_file.h).
// Private to the service's files.
//
// Threads: the loop thread; its file only on the disk thread, through
// jobs whose answers are posted back to the loop. Lifetime: owned by the
// RecordService; answers that arrive after it went are dropped (alive_).
#pragma once

#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "endpoints/record_file.h"
#include "endpoints/record_service.h"

namespace voxl::endpoints {

// The loop's side of one recording: which frames go in, when it ends, and
// its answer. Its file is a RecordFile that only the disk thread touches:
// every frame is handed over as a job, and what the disk has to say comes
// back as a post to the loop (guarded by alive_).
class RecordService::Recording final : public stream::VideoSink {
 public:
  using Clock = std::chrono::steady_clock;

  enum class State {
    kRecording,  // taking frames
    kFinishing,  // ended: its index is being written
    kDone,       // outcome_ holds its answer
  };

  Recording(RecordService& svc, uint64_t id, std::shared_ptr<RecordFile> file,
            std::optional<std::chrono::milliseconds> length, Done done, bool retroactive)
      : svc_(svc), id_(id), file_(std::move(file)), done_(std::move(done)),
        limit_(length && (*length < svc.max_ || retroactive) ? *length : std::chrono::milliseconds(svc.max_)),
        limit_reason_(length && (*length < svc.max_ || retroactive) ? "length" : "max-record-seconds"),
        timer_(svc.io_) {}

  ~Recording() override;

  // Makes the file: the first job of this recording, so every frame
  // follows it in the disk's queue. False when the queue is full.
  [[nodiscard]] bool open();

  // Starts taking frames: from the hub (which asks for a key frame), or
  // with a `backlog` (record_last) whose frames, from a key frame, are
  // written at once, those captured before backlog->floor as if then; it
  // then ends, or goes on with the frames the buffer gets next until its
  // length from its first frame (not capped by max_length).
  void begin(Backlog* backlog);

  // A recording keeps the best picture: rung 0 of the ladder.
  bool wants_top_rung() const override { return true; }

  void on_video(const encode::EncodedFramePtr& f) override;

  // The hub (or the buffer) dropped it: on_video threw.
  void on_dropped(std::string_view what) override { fail(500, "the recording failed: " + std::string(what)); }

  bool done() const { return state_ == State::kDone; }
  bool has_done() const { return bool(done_); }
  void set_done(Done d) { done_ = std::move(d); }

  // Ends it now; one ending already waits for its index. Asked before
  // its first picture came (an idle desktop, a loaded machine), it ends
  // with that picture instead: a recording stopped at once still holds
  // one frame, and kFirstFrameLimit still bounds the wait.
  void stop() {
    if (state_ != State::kRecording) return;
    if (!started_) {
      stop_asked_ = Clock::now();
      return;
    }
    end("stop", Clock::now());
  }

  // Hands the outcome to whoever asked; false when no one has yet.
  bool deliver();

  void keep_unfetched();

 private:
  void leave();
  // Hands the frames gathered to the disk thread.
  void flush(RecordDisk::Kind kind);
  // The disk thread's answer to open().
  void opened(const RecordFile::Opened& o);
  // What a write job had to say.
  void written(const RecordFile::Written& w);
  void end(const char* reason, Clock::time_point at);
  // The disk thread wrote the index (or could not).
  void finished(std::string reason, Clock::time_point at, RecordFile::Finished r);
  void fail(int status, const std::string& why);

  RecordService& svc_;
  uint64_t id_;
  std::shared_ptr<RecordFile> file_;  // the disk thread's; handed to its jobs only
  Done done_;
  std::chrono::milliseconds limit_;
  const char* limit_reason_;
  uint64_t taken_ = 0;  // bytes counted against the budget
  boost::asio::steady_timer timer_;
  State state_ = State::kRecording;
  bool started_ = false;  // its first key frame came
  std::optional<Clock::time_point> stop_asked_;  // stop() came before the first key frame
  Size size_;
  Clock::time_point first_;
  bool in_hub_ = false;
  bool following_ = false;  // fed by the buffer (a retroactive recording going on)
  bool batching_ = false;   // gathering a backlog's frames into one job
  std::vector<RecordFile::Item> batch_;
  // A retroactive recording's request time, the time before which its
  // frames are shown as if then, and how far back the buffer reached.
  std::optional<Clock::time_point> asked_;
  Clock::time_point floor_ = Clock::time_point::min();
  int64_t buffered_ms_ = -1;
  RecordOutcome outcome_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::endpoints
