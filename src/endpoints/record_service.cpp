#include "endpoints/record_service.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "endpoints/record_buffer.h"
#include "endpoints/record_file.h"
#include "endpoints/record_space_text.h"
#include "endpoints/recording_sink.h"

namespace voxl::endpoints {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

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
