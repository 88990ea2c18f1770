#include "endpoints/recording_sink.h"

#include <boost/asio/post.hpp>

#include <algorithm>

#include "endpoints/record_buffer.h"
#include "endpoints/record_space_text.h"

namespace voxl::endpoints {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

int64_t micros(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

}  // namespace

RecordService::Recording::~Recording() {
  *alive_ = false;
  leave();
  svc_.budget_.give_back(taken_);  // its file goes with it
  // Closing the file frees its blocks: on the disk thread, after the
  // jobs still queued for it. (Refused only while the disk thread stops:
  // then here.)
  if (file_) (void)svc_.disk_->submit([f = std::move(file_)] {}, 0, RecordDisk::Kind::kAlways);
}

bool RecordService::Recording::open() {
  return svc_.disk_->submit([this, file = file_, &io = svc_.io_, alive = alive_] {
    RecordFile::Opened o = file->open();
    asio::post(io, [this, alive, o = std::move(o)] {
      if (*alive) opened(o);
    });
  });
}

void RecordService::Recording::begin(Backlog* backlog) {
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

void RecordService::Recording::on_video(const encode::EncodedFramePtr& f) {
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
  if (stop_asked_) end("stop", std::max(*stop_asked_, first_));  // stopped while it waited for this picture
}

bool RecordService::Recording::deliver() {
  if (!done_) return false;
  Done d = std::move(done_);
  d(std::move(outcome_));
  return true;
}

void RecordService::Recording::keep_unfetched() {
  timer_.expires_after(kKeepUnfetched);
  timer_.async_wait([svc = &svc_, id = id_, alive = alive_](boost::system::error_code ec) {
    if (ec || !*alive) return;
    svc->log_->info("recording {} dropped: not fetched within {} minutes", id, kKeepUnfetched.count());
    svc->cancel(id);
  });
}

void RecordService::Recording::leave() {
  if (in_hub_) svc_.hub_.remove(this);
  in_hub_ = false;
  if (following_) svc_.buffer_->unfollow(this);
  following_ = false;
}

void RecordService::Recording::flush(RecordDisk::Kind kind) {
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

void RecordService::Recording::opened(const RecordFile::Opened& o) {
  if (o.free) svc_.last_free_ = o.free;
  switch (o.status) {
    case RecordFile::Opened::Status::kOk: return;
    case RecordFile::Opened::Status::kLowDisk:
      return fail(507, low_disk(o.free.value_or(0), svc_.budget_.limits().min_free_bytes));
    case RecordFile::Opened::Status::kNoFile: return fail(503, o.error);
  }
}

void RecordService::Recording::written(const RecordFile::Written& w) {
  if (w.free) svc_.last_free_ = w.free;
  if (state_ != State::kRecording) return;  // finish() says it
  if (w.error) return fail(500, *w.error);
  if (w.low_disk_at) end("low-disk-space", *w.low_disk_at);
}

void RecordService::Recording::end(const char* reason, Clock::time_point at) {
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

void RecordService::Recording::finished(std::string reason, Clock::time_point at, RecordFile::Finished r) {
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

void RecordService::Recording::fail(int status, const std::string& why) {
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

}  // namespace voxl::endpoints
