#include "endpoints/record_service.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <vector>

#include "endpoints/mp4_writer.h"
#include "platform/free_space.h"
#include "platform/owned_file.h"

namespace voxl::endpoints {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

uint64_t mib(uint64_t bytes) { return bytes >> 20; }

int64_t micros(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
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
    // A follower that ends leaves the list meanwhile: feed a copy.
    fanout_.assign(followers_.begin(), followers_.end());
    for (stream::VideoSink* r : fanout_) r->on_video(f);
  }

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
};

class RecordService::Recording final : public stream::VideoSink {
 public:
  // With a `backlog` (record_last): its frames, from a key frame, are
  // written at once, those captured before backlog->floor as if then; it
  // then ends, or goes on with the frames the buffer gets next until
  // `length` from its first frame (not capped by max_length).
  Recording(RecordService& svc, uint64_t id, platform::OwnedFile file, std::optional<std::chrono::milliseconds> length,
            Done done, Backlog* backlog)
      : svc_(svc), id_(id), file_(std::make_shared<platform::OwnedFile>(std::move(file))), done_(std::move(done)),
        limit_(length && (*length < svc.max_ || backlog) ? *length : std::chrono::milliseconds(svc.max_)),
        limit_reason_(length && (*length < svc.max_ || backlog) ? "length" : "max-record-seconds"),
        timer_(svc.io_), in_hub_(!backlog) {
    if (backlog) {
      floor_ = backlog->floor;
      asked_ = backlog->asked;
      buffered_ms_ = backlog->buffered_ms;
      for (const auto& f : backlog->frames) {
        if (ended_) break;
        on_video(f);
      }
      if (ended_) return;
      if (!writer_) {
        fail(500, "the buffered stream did not begin with a key frame");
        return;
      }
      if (!backlog->live) {
        end("length", backlog->asked);
        return;
      }
      // The next frame the buffer gets follows the last one written: no
      // gap, and no key frame to wait for.
      svc_.buffer_->follow(this);
      following_ = true;
      return;
    }
    svc_.hub_.add(this);  // asks for a key frame
    timer_.expires_after(kFirstFrameLimit);
    timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
      if (ec || !*alive || writer_ || ended_) return;
      fail(503, "no picture came from the video pipeline");
    });
  }

  ~Recording() override {
    *alive_ = false;
    leave();
    svc_.budget_.give_back(taken_);  // its file goes with it
  }

  // A recording keeps the best picture: rung 0 of the ladder.
  bool wants_top_rung() const override { return true; }

  void on_video(const encode::EncodedFramePtr& f) override {
    if (ended_) return;
    if (!writer_) {
      if (!f->key) return;  // wait for the IDR asked for at add()
      size_ = f->size;
      first_ = std::max(f->captured_at, floor_);
      svc_.log_->info("recording {} begins with a {}x{} key frame", id_, size_.width, size_.height);
      writer_.emplace(file_->get(), f->size);
      timer_.cancel();
      timer_.expires_at(first_ + limit_);
      timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
        if (ec || !*alive || ended_) return;
        end(limit_reason_, first_ + limit_);
      });
    }
    // A backlog's frames from before its floor are shown from then on.
    const Clock::time_point at = std::max(f->captured_at, floor_);
    if (f->size != size_) return end("resize", at);
    if (at >= first_ + limit_) return end(limit_reason_, first_ + limit_);
    RecordBudget& budget = svc_.budget_;
    if (budget.free_check_due() &&
        budget.check_free(platform::free_bytes(svc_.temp_dir_)) != RecordBudget::Verdict::kOk)
      return end("low-disk-space", at);
    if (budget.take(f->data.size()) != RecordBudget::Verdict::kOk) return end("max-record-mb", at);
    taken_ += f->data.size();
    if (!writer_->add(f->data, f->key, micros(at))) fail(500, writer_->error());
  }

  bool ended() const { return ended_; }
  bool has_done() const { return bool(done_); }
  void set_done(Done d) { done_ = std::move(d); }

  void stop() {
    if (!ended_) end("stop", Clock::now());
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

  void end(const char* reason, Clock::time_point at) {
    ended_ = true;
    leave();
    timer_.cancel();
    if (!writer_) return fail(503, "the recording ended before its first picture");
    if (writer_->frames() == 0)
      return fail(507, std::string("the recording ended (") + reason + ") before its first picture was written");
    if (!writer_->finish(micros(at))) return fail(500, writer_->error());
    outcome_.file = file_;
    outcome_.frames = writer_->frames();
    outcome_.seconds = std::chrono::duration<double>(at - first_).count();
    outcome_.ended = reason;
    if (asked_) {
      outcome_.before_ms = std::chrono::duration_cast<std::chrono::milliseconds>(*asked_ - first_).count();
      outcome_.buffered_ms = buffered_ms_;
    }
    svc_.log_->info("recording {} ended ({}): {} frames, {:.2f} s, {} bytes", id_, reason, outcome_.frames,
                    outcome_.seconds, writer_->bytes());
    svc_.ended(id_);
  }

  void fail(int status, const std::string& why) {
    ended_ = true;
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
  std::shared_ptr<platform::OwnedFile> file_;
  Done done_;
  std::chrono::milliseconds limit_;
  const char* limit_reason_;
  uint64_t taken_ = 0;  // bytes counted against the budget
  asio::steady_timer timer_;
  std::optional<Mp4Writer> writer_;
  Size size_;
  Clock::time_point first_;
  bool ended_ = false;
  bool in_hub_ = true;
  bool following_ = false;  // fed by the buffer (a retroactive recording going on)
  // A retroactive recording's request time, the time before which its
  // frames are shown as if then, and how far back the buffer reached.
  std::optional<Clock::time_point> asked_;
  Clock::time_point floor_ = Clock::time_point::min();
  int64_t buffered_ms_ = -1;
  RecordOutcome outcome_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

RecordService::RecordService(asio::io_context& io, stream::Hub& hub, std::chrono::seconds max_length,
                             std::string temp_dir, Logger log, RecordLimits limits)
    : io_(io), hub_(hub), max_(max_length), temp_dir_(std::move(temp_dir)), log_(std::move(log)), budget_(limits) {}

RecordService::~RecordService() {
  *alive_ = false;
  recordings_.clear();
  buffer_.reset();
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
  const auto free = platform::free_bytes(temp_dir_);
  switch (budget_.can_start(free)) {
    case RecordBudget::Verdict::kCapReached:
      refusal = {507, "the recordings kept take " + std::to_string(mib(budget_.used())) +
                          " MB, all --max-record-mb allows; fetch or stop some first"};
      return 0;
    case RecordBudget::Verdict::kLowDisk:
      refusal = {507, "the temporary folder's disk has " + std::to_string(mib(*free)) + " MB free; recordings need " +
                          std::to_string(mib(budget_.limits().min_free_bytes)) + " MB"};
      return 0;
    case RecordBudget::Verdict::kOk: break;
  }
  refusal.status = 503;
  platform::OwnedFile file = platform::make_anonymous_file(temp_dir_, refusal.error);
  if (!file.valid()) return 0;
  const uint64_t id = ++next_id_;
  log_->info("recording {} started{}", id, backlog ? " from the buffered stream" : "");
  recordings_.emplace(id, std::make_unique<Recording>(*this, id, std::move(file), length, std::move(done), backlog));
  return id;
}

uint64_t RecordService::record_for(std::chrono::milliseconds length, Done done, RecordRefusal& refusal) {
  return add(length, std::move(done), refusal);
}

uint64_t RecordService::start(RecordRefusal& refusal) { return add(std::nullopt, nullptr, refusal); }

bool RecordService::stop(uint64_t id, Done done) {
  const auto it = recordings_.find(id);
  if (it == recordings_.end() || it->second->has_done()) return false;
  it->second->set_done(std::move(done));
  if (it->second->ended()) ended(id);
  else it->second->stop();  // calls ended()
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
