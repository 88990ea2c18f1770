#include "endpoints/record_service.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

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

class RecordService::Recording final : public stream::VideoSink {
 public:
  // `backlog` (from a key frame) is written first: a retroactive recording,
  // whose `length` counts from its first frame and is not capped by
  // max_length. `live`: it goes on with the frames published from now.
  Recording(RecordService& svc, uint64_t id, platform::OwnedFile file, std::optional<std::chrono::milliseconds> length,
            Done done, std::vector<encode::EncodedFramePtr> backlog = {}, bool live = true)
      : svc_(svc), id_(id), file_(std::make_shared<platform::OwnedFile>(std::move(file))), done_(std::move(done)),
        limit_(length && (*length < svc.max_ || !backlog.empty()) ? *length : std::chrono::milliseconds(svc.max_)),
        limit_reason_(length && (*length < svc.max_ || !backlog.empty()) ? "length" : "max-record-seconds"),
        timer_(svc.io_), in_hub_(live) {
    const auto now = Clock::now();
    if (live) svc_.hub_.add(this);  // asks for a key frame
    if (!backlog.empty()) {
      before_ms_ = std::chrono::duration_cast<std::chrono::milliseconds>(now - backlog.front()->captured_at).count();
      for (const auto& f : backlog)
        if (!ended_) on_video(f);
      if (!live && !ended_) end("length", now);
      return;
    }
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
      first_ = f->captured_at;
      svc_.log_->info("recording {} begins with a {}x{} key frame", id_, size_.width, size_.height);
      writer_.emplace(file_->get(), f->size);
      timer_.cancel();
      timer_.expires_at(first_ + limit_);
      timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
        if (ec || !*alive || ended_) return;
        end(limit_reason_, first_ + limit_);
      });
    }
    if (f->size != size_) return end("resize", f->captured_at);
    if (f->captured_at >= first_ + limit_) return end(limit_reason_, first_ + limit_);
    RecordBudget& budget = svc_.budget_;
    if (budget.free_check_due() &&
        budget.check_free(platform::free_bytes(svc_.temp_dir_)) != RecordBudget::Verdict::kOk)
      return end("low-disk-space", f->captured_at);
    if (budget.take(f->data.size()) != RecordBudget::Verdict::kOk) return end("max-record-mb", f->captured_at);
    taken_ += f->data.size();
    if (!writer_->add(f->data, f->key, micros(f->captured_at))) fail(500, writer_->error());
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
    outcome_.before_ms = before_ms_;
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
  int64_t before_ms_ = -1;
  RecordOutcome outcome_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// keep_last()'s sink: every frame into the ring, and a key frame asked for
// when the stream has gone too long without one.
class RecordService::Buffer final : public stream::VideoSink {
 public:
  Buffer(RecordService& svc, std::chrono::seconds length, uint64_t max_bytes)
      : svc_(svc), ring_(length, max_bytes) {
    svc_.hub_.add(this);
  }
  ~Buffer() override { svc_.hub_.remove(this); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // The best picture, as recordings have.
  bool wants_top_rung() const override { return true; }

  void on_video(const encode::EncodedFramePtr& f) override {
    ring_.push(f);
    // Asked again only an interval after the last ask: the hub may defer a
    // key frame, and the ring must not ask every frame meanwhile.
    if (ring_.needs_key(f->captured_at, kBufferKeyInterval) &&
        (!asked_ || f->captured_at - *asked_ >= kBufferKeyInterval)) {
      asked_ = f->captured_at;
      svc_.hub_.request_keyframe(this);
    }
  }

  const RecordRing& ring() const { return ring_; }

 private:
  RecordService& svc_;
  RecordRing ring_;
  std::optional<Clock::time_point> asked_;
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
  buffer_.reset();
  buffer_length_ = seconds;
  if (seconds.count() == 0 || !unavailable_.empty()) return;
  // Joins the hub from the loop: the server is wired before the video
  // pipeline starts, and a sink that joins earlier would find no pipeline
  // to turn on.
  asio::post(io_, [this, seconds, max_bytes, alive = alive_] {
    if (*alive && buffer_length_ == seconds && !buffer_) buffer_ = std::make_unique<Buffer>(*this, seconds, max_bytes);
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
  if (!buffer_) {
    refusal = {409, "no stream is kept for recordings of the past: start the server with --record-buffer-seconds N"};
    return 0;
  }
  const auto now = Clock::now();
  std::vector<encode::EncodedFramePtr> clip = buffer_->ring().clip(now - before);
  if (clip.empty()) {
    refusal = {503, "nothing is buffered yet: the screen has not changed since the buffer started"};
    return 0;
  }
  const auto length = std::chrono::duration_cast<std::chrono::milliseconds>(now - clip.front()->captured_at) + after;
  return add(length, std::move(done), refusal, std::move(clip), after.count() > 0);
}

uint64_t RecordService::add(std::optional<std::chrono::milliseconds> length, Done done, RecordRefusal& refusal,
                            std::vector<encode::EncodedFramePtr> backlog, bool live) {
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
  const bool retroactive = !backlog.empty();
  log_->info("recording {} started{}", id, retroactive ? " from the buffered stream" : "");
  recordings_.emplace(id, std::make_unique<Recording>(*this, id, std::move(file), length, std::move(done),
                                                      std::move(backlog), live));
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
