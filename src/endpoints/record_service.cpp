#include "endpoints/record_service.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "endpoints/record_file.h"

namespace voxl::endpoints {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

uint64_t mib(uint64_t bytes) { return bytes >> 20; }

int64_t micros(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

std::string low_disk(uint64_t free, uint64_t floor) {
  return "the temporary folder's disk has " + std::to_string(mib(free)) + " MB free; recordings need " +
         std::to_string(mib(floor)) + " MB";
}

// A sink's on_video; what it threw, or empty.
std::string feed_guarded(stream::VideoSink& sink, const encode::EncodedFramePtr& f) {
  try {
    sink.on_video(f);
    return {};
  } catch (const std::exception& e) {
    return *e.what() ? e.what() : "an exception";
  } catch (...) {
    return "an unknown exception";
  }
}

}  // namespace

// keep_last()'s sink: every frame into the ring, a key frame asked for
// when the stream has gone kBufferKeyInterval without one, and every frame
// on to the retroactive recordings that go on (followers).
class RecordService::Buffer final : public stream::VideoSink {
 public:
  Buffer(RecordService& svc, std::chrono::seconds length, uint64_t max_bytes)
      : svc_(svc), ring_(length, max_bytes) {
    svc_.hub_.add(this);  // asks for the first key frame
  }
  ~Buffer() override { svc_.hub_.remove(this); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // The best picture, as recordings have (and 4:2:0, which an MP4 keeps).
  bool wants_top_rung() const override { return true; }

  void on_video(const encode::EncodedFramePtr& f) override {
    ring_.push(f);
    // Asked again only an interval after the last ask: the hub may put a
    // request off, and the ring must not ask every frame meanwhile.
    if (ring_.needs_key(f->captured_at, kBufferKeyInterval) &&
        (!asked_ || f->captured_at - *asked_ >= kBufferKeyInterval)) {
      asked_ = f->captured_at;
      svc_.hub_.request_keyframe(this);
    }
    if (followers_.empty()) return;
    // A follower that ends leaves the list meanwhile: feed a copy, and only
    // those still in the list. One that throws is dropped; the others still
    // get the frame.
    fanout_.assign(followers_.begin(), followers_.end());
    for (stream::VideoSink* r : fanout_) {
      if (std::find(followers_.begin(), followers_.end(), r) == followers_.end()) continue;
      const std::string what = feed_guarded(*r, f);
      if (what.empty()) continue;
      unfollow(r);
      r->on_dropped(what);
    }
  }

  // The hub dropped it (on_video threw): nothing more is kept, record_last()
  // is refused, and the recordings going on from it fail.
  void on_dropped(std::string_view what) override {
    failed_ = std::string(what);
    svc_.log_->error("the stream kept for /record?last= stopped: {}", what);
    const std::vector<stream::VideoSink*> followers = std::move(followers_);
    followers_.clear();
    for (stream::VideoSink* r : followers) r->on_dropped("the stream kept for it stopped: " + failed_);
  }
  bool failed() const { return !failed_.empty(); }

  // A sink fed every frame after this one's own work (not through the
  // hub: it asks for no key frame and gets exactly the frames the ring
  // got). It must unfollow before it is destroyed.
  void follow(stream::VideoSink* r) { followers_.push_back(r); }
  void unfollow(stream::VideoSink* r) { std::erase(followers_, r); }

  const RecordRing& ring() const { return ring_; }

 private:
  RecordService& svc_;
  RecordRing ring_;
  std::optional<Clock::time_point> asked_;
  std::vector<stream::VideoSink*> followers_;
  std::vector<stream::VideoSink*> fanout_;  // on_video's copy of followers_
  std::string failed_;  // why the hub dropped it; empty while it runs
};

// The loop's side of one recording: which frames go in, when it ends, and
// its answer. Its file is a RecordFile that only the disk thread touches:
// every frame is handed over as a job, and what the disk has to say comes
// back as a post to the loop (guarded by alive_).
class RecordService::Recording final : public stream::VideoSink {
 public:
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

  ~Recording() override {
    *alive_ = false;
    leave();
    svc_.budget_.give_back(taken_);  // its file goes with it
    // Closing the file frees its blocks: on the disk thread, after the
    // jobs still queued for it. (Refused only while the disk thread stops:
    // then here.)
    if (file_) (void)svc_.disk_->submit([f = std::move(file_)] {}, 0, RecordDisk::Kind::kAlways);
  }

  // Makes the file: the first job of this recording, so every frame
  // follows it in the disk's queue. False when the queue is full.
  [[nodiscard]] bool open() {
    return svc_.disk_->submit([this, file = file_, &io = svc_.io_, alive = alive_] {
      RecordFile::Opened o = file->open();
      asio::post(io, [this, alive, o = std::move(o)] {
        if (*alive) opened(o);
      });
    });
  }

  // Starts taking frames: from the hub (which asks for a key frame), or
  // with a `backlog` (record_last) whose frames, from a key frame, are
  // written at once, those captured before backlog->floor as if then; it
  // then ends, or goes on with the frames the buffer gets next until its
  // length from its first frame (not capped by max_length).
  void begin(Backlog* backlog) {
    if (backlog) {
      floor_ = backlog->floor;
      asked_ = backlog->asked;
      buffered_ms_ = backlog->buffered_ms;
      batching_ = true;
      for (const auto& f : backlog->frames) {
        if (state_ != State::kRecording) break;
        on_video(f);
      }
      batching_ = false;
      if (state_ != State::kRecording) return;
      if (!started_) return fail(500, "the buffered stream did not begin with a key frame");
      // One job for all of them: the ring holds these frames already, so
      // they take no room of their own in the disk's queue.
      flush(RecordDisk::Kind::kAlways);
      if (state_ != State::kRecording) return;
      if (!backlog->live) return end("length", backlog->asked);
      // The next frame the buffer gets follows the last one written: no
      // gap, and no key frame to wait for.
      svc_.buffer_->follow(this);
      following_ = true;
      return;
    }
    in_hub_ = true;
    svc_.hub_.add(this);  // asks for a key frame
    timer_.expires_after(kFirstFrameLimit);
    timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
      if (ec || !*alive || started_ || state_ != State::kRecording) return;
      fail(503, "no picture came from the video pipeline");
    });
  }

  // A recording keeps the best picture: rung 0 of the ladder.
  bool wants_top_rung() const override { return true; }

  void on_video(const encode::EncodedFramePtr& f) override {
    if (state_ != State::kRecording) return;
    if (!started_) {
      if (!f->key) return;  // wait for the IDR asked for at begin()
      started_ = true;
      size_ = f->size;
      first_ = std::max(f->captured_at, floor_);
      svc_.log_->info("recording {} begins with a {}x{} key frame", id_, size_.width, size_.height);
      timer_.cancel();
      timer_.expires_at(first_ + limit_);
      timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
        if (ec || !*alive || state_ != State::kRecording) return;
        end(limit_reason_, first_ + limit_);
      });
    }
    // A backlog's frames from before its floor are shown from then on.
    const Clock::time_point at = std::max(f->captured_at, floor_);
    if (f->size != size_) return end("resize", at);
    if (at >= first_ + limit_) return end(limit_reason_, first_ + limit_);
    RecordBudget& budget = svc_.budget_;
    if (budget.take(f->data.size()) != RecordBudget::Verdict::kOk) return end("max-record-mb", at);
    taken_ += f->data.size();
    // The free space is looked at on the disk thread, before this frame.
    batch_.push_back(RecordFile::Item{f, micros(at), at, budget.start_free_check()});
    if (!batching_) flush(RecordDisk::Kind::kBounded);
  }

  // The hub (or the buffer) dropped it: on_video threw.
  void on_dropped(std::string_view what) override { fail(500, "the recording failed: " + std::string(what)); }

  bool done() const { return state_ == State::kDone; }
  bool has_done() const { return bool(done_); }
  void set_done(Done d) { done_ = std::move(d); }

  // Ends it now; one ending already waits for its index.
  void stop() {
    if (state_ == State::kRecording) end("stop", Clock::now());
  }

  // Hands the outcome to whoever asked; false when no one has yet.
  bool deliver() {
    if (!done_) return false;
    Done d = std::move(done_);
    d(std::move(outcome_));
    return true;
  }

  void keep_unfetched() {
    timer_.expires_after(kKeepUnfetched);
    timer_.async_wait([svc = &svc_, id = id_, alive = alive_](boost::system::error_code ec) {
      if (ec || !*alive) return;
      svc->log_->info("recording {} dropped: not fetched within {} minutes", id, kKeepUnfetched.count());
      svc->cancel(id);
    });
  }

 private:
  void leave() {
    if (in_hub_) svc_.hub_.remove(this);
    in_hub_ = false;
    if (following_) svc_.buffer_->unfollow(this);
    following_ = false;
  }

  // Hands the frames gathered to the disk thread.
  void flush(RecordDisk::Kind kind) {
    if (batch_.empty()) return;
    uint64_t bytes = 0;
    for (const auto& item : batch_) bytes += item.frame->data.size();
    std::vector<RecordFile::Item> items;
    items.swap(batch_);
    const bool queued = svc_.disk_->submit(
        [this, file = file_, items = std::move(items), &io = svc_.io_, alive = alive_] {
          RecordFile::Written w = file->write(items);
          if (!w.worth_telling()) return;
          asio::post(io, [this, alive, w = std::move(w)] {
            if (*alive) written(w);
          });
        },
        bytes, kind);
    if (queued) return;
    const RecordDiskOptions& o = svc_.disk_->options();
    fail(503, "the disk cannot keep up with the recordings (" + std::to_string(o.max_jobs) + " frames or " +
                  std::to_string(mib(o.max_bytes)) + " MB were waiting to be written); try again later");
  }

  // The disk thread's answer to open().
  void opened(const RecordFile::Opened& o) {
    if (o.free) svc_.last_free_ = o.free;
    switch (o.status) {
      case RecordFile::Opened::Status::kOk: return;
      case RecordFile::Opened::Status::kLowDisk:
        return fail(507, low_disk(o.free.value_or(0), svc_.budget_.limits().min_free_bytes));
      case RecordFile::Opened::Status::kNoFile: return fail(503, o.error);
    }
  }

  // What a write job had to say.
  void written(const RecordFile::Written& w) {
    if (w.free) svc_.last_free_ = w.free;
    if (state_ != State::kRecording) return;  // finish() says it
    if (w.error) return fail(500, *w.error);
    if (w.low_disk_at) end("low-disk-space", *w.low_disk_at);
  }

  void end(const char* reason, Clock::time_point at) {
    if (state_ != State::kRecording) return;
    leave();
    timer_.cancel();
    if (!started_) return fail(503, "the recording ended before its first picture");
    flush(RecordDisk::Kind::kAlways);  // a backlog's frames gathered so far
    if (state_ != State::kRecording) return;
    state_ = State::kFinishing;
    const bool queued = svc_.disk_->submit(
        [this, file = file_, reason = std::string(reason), at, &io = svc_.io_, alive = alive_] {
          RecordFile::Finished r = file->finish(micros(at), reason);
          asio::post(io, [this, alive, reason, at, r = std::move(r)]() mutable {
            if (*alive) finished(reason, at, std::move(r));
          });
        },
        0, RecordDisk::Kind::kAlways);
    if (!queued) fail(503, "the server is stopping");
  }

  // The disk thread wrote the index (or could not).
  void finished(std::string reason, Clock::time_point at, RecordFile::Finished r) {
    if (state_ != State::kFinishing) return;
    if (r.status != 200) return fail(r.status, r.error);
    if (r.low_disk_at) {  // the disk ran low after it was told to end
      reason = "low-disk-space";
      at = std::min(at, *r.low_disk_at);
    }
    state_ = State::kDone;
    outcome_.file = std::move(r.file);
    outcome_.frames = r.frames;
    outcome_.seconds = std::chrono::duration<double>(at - first_).count();
    outcome_.ended = reason;
    if (asked_) {
      outcome_.before_ms = std::chrono::duration_cast<std::chrono::milliseconds>(*asked_ - first_).count();
      outcome_.buffered_ms = buffered_ms_;
    }
    svc_.log_->info("recording {} ended ({}): {} frames, {:.2f} s, {} bytes", id_, reason, outcome_.frames,
                    outcome_.seconds, r.bytes);
    svc_.ended(id_);
  }

  void fail(int status, const std::string& why) {
    if (state_ == State::kDone) return;
    state_ = State::kDone;
    batch_.clear();
    leave();
    timer_.cancel();
    outcome_ = {};
    outcome_.status = status;
    outcome_.error = why;
    svc_.log_->warn("recording {} failed: {}", id_, why);
    svc_.ended(id_);
  }

  RecordService& svc_;
  uint64_t id_;
  std::shared_ptr<RecordFile> file_;  // the disk thread's; handed to its jobs only
  Done done_;
  std::chrono::milliseconds limit_;
  const char* limit_reason_;
  uint64_t taken_ = 0;  // bytes counted against the budget
  asio::steady_timer timer_;
  State state_ = State::kRecording;
  bool started_ = false;  // its first key frame came
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

RecordService::RecordService(asio::io_context& io, stream::Hub& hub, std::chrono::seconds max_length,
                             std::string temp_dir, Logger log, RecordLimits limits, RecordDiskOptions disk)
    : io_(io), hub_(hub), max_(max_length), temp_dir_(std::move(temp_dir)), log_(std::move(log)), budget_(limits),
      disk_(std::make_shared<RecordDisk>(std::move(disk))) {
  // A first look at the free space, for the first start's answer.
  (void)disk_->submit(
      [this, ops = disk_->ops(), dir = temp_dir_, &io = io_, alive = alive_] {
        const auto free = ops.free_in(dir);
        asio::post(io, [this, alive, free] {
          if (*alive) last_free_ = free;
        });
      },
      0, RecordDisk::Kind::kAlways);
}

RecordService::~RecordService() {
  *alive_ = false;
  recordings_.clear();
  buffer_.reset();
  disk_.reset();  // joins the disk thread once its running job is done
}

void RecordService::keep_last(std::chrono::seconds seconds, uint64_t max_bytes) {
  if (buffer_length_.count() > 0 || seconds.count() <= 0) return;  // once
  buffer_length_ = seconds;
  if (!unavailable_.empty()) {
    log_->warn("--record-buffer-seconds keeps nothing: {}", unavailable_);
    return;
  }
  // Joins the hub from the loop: the server is wired before the video
  // pipeline starts, and a sink that joined earlier would turn on no
  // pipeline.
  asio::post(io_, [this, seconds, max_bytes, alive = alive_] {
    if (!*alive || buffer_) return;
    buffer_ = std::make_unique<Buffer>(*this, seconds, max_bytes);
    log_->info("keeping the last {} s of the stream (at most {} MB) for /record?last=", seconds.count(),
               mib(max_bytes));
  });
}

size_t RecordService::buffered_frames() const { return buffer_ ? buffer_->ring().frames() : 0; }
uint64_t RecordService::buffered_bytes() const { return buffer_ ? buffer_->ring().bytes() : 0; }

uint64_t RecordService::record_last(std::chrono::milliseconds before, std::chrono::milliseconds after, Done done,
                                    RecordRefusal& refusal) {
  if (!unavailable_.empty()) {
    refusal = {409, unavailable_};
    return 0;
  }
  if (buffer_length_.count() == 0) {
    refusal = {409, "no stream is kept for recordings of the past: start the server with --record-buffer-seconds N"};
    return 0;
  }
  if (!buffer_) {
    refusal = {503, "the buffer of the stream starts with the video pipeline: try again"};
    return 0;
  }
  if (buffer_->failed()) {
    refusal = {503, "the stream kept for recordings of the past stopped after an error (see the server's log)"};
    return 0;
  }
  const auto now = Clock::now();
  const RecordRing& ring = buffer_->ring();
  Backlog backlog;
  backlog.frames = ring.clip(now - before);
  if (backlog.frames.empty()) {
    refusal = {503, "nothing is buffered yet: no picture has been coded since the buffer started"};
    return 0;
  }
  backlog.asked = now;
  backlog.floor = now - before - kBufferKeyInterval;
  backlog.live = after.count() > 0;
  // How far back it reached, up to its length (a still screen's last
  // frames may be older: they still show the last seconds).
  backlog.buffered_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::min<Clock::duration>(now - *ring.oldest(), buffer_length_))
                            .count();
  // From the clip's first frame (as written) to the request, and `after`.
  const auto first = std::max(backlog.frames.front()->captured_at, backlog.floor);
  const auto length =
      std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(now - first) + after);
  return add(length, std::move(done), refusal, &backlog);
}

uint64_t RecordService::add(std::optional<std::chrono::milliseconds> length, Done done, RecordRefusal& refusal,
                            Backlog* backlog) {
  if (!unavailable_.empty()) {
    refusal = {409, unavailable_};
    return 0;
  }
  if (recordings_.size() >= kMaxRecordings) {
    refusal = {503, "too many recordings at once (" + std::to_string(kMaxRecordings) + ")"};
    return 0;
  }
  // From what the loop knows: the disk thread looks again before the file
  // is made, and fails the recording (507) if the space went low meanwhile.
  switch (budget_.can_start(last_free_)) {
    case RecordBudget::Verdict::kCapReached:
      refusal = {507, "the recordings kept take " + std::to_string(mib(budget_.used())) +
                          " MB, all --max-record-mb allows; fetch or stop some first"};
      return 0;
    case RecordBudget::Verdict::kLowDisk:
      refusal = {507, low_disk(last_free_.value_or(0), budget_.limits().min_free_bytes)};
      return 0;
    case RecordBudget::Verdict::kOk: break;
  }
  const uint64_t id = next_id_ + 1;
  auto file = std::make_shared<RecordFile>(disk_, disk_->ops(), temp_dir_, budget_.limits().min_free_bytes);
  auto recording =
      std::make_unique<Recording>(*this, id, std::move(file), length, std::move(done), backlog != nullptr);
  if (!recording->open()) {
    refusal = {503, "the disk is behind with the recordings' writes; try again shortly"};
    return 0;
  }
  next_id_ = id;
  log_->info("recording {} started{}", id, backlog ? " from the buffered stream" : "");
  Recording& r = *recordings_.emplace(id, std::move(recording)).first->second;
  r.begin(backlog);
  return id;
}

uint64_t RecordService::record_for(std::chrono::milliseconds length, Done done, RecordRefusal& refusal) {
  return add(length, std::move(done), refusal);
}

uint64_t RecordService::start(RecordRefusal& refusal) { return add(std::nullopt, nullptr, refusal); }

bool RecordService::stop(uint64_t id, Done done) {
  const auto it = recordings_.find(id);
  if (it == recordings_.end() || it->second->has_done()) return false;
  Recording& r = *it->second;
  r.set_done(std::move(done));
  if (r.done()) ended(id);  // its answer waits: hand it over
  else r.stop();  // the answer comes once its index is written (ended())
  return true;
}

void RecordService::cancel(uint64_t id) { recordings_.erase(id); }

void RecordService::ended(uint64_t id) {
  // From the loop, not from inside the recording's own call stack.
  asio::post(io_, [this, id, alive = alive_] {
    if (!*alive) return;
    const auto it = recordings_.find(id);
    if (it == recordings_.end()) return;
    std::unique_ptr<Recording> r = std::move(it->second);
    if (!r->has_done()) {
      it->second = std::move(r);
      it->second->keep_unfetched();
      return;
    }
    recordings_.erase(it);
    r->deliver();
  });
}

}  // namespace voxl::endpoints
