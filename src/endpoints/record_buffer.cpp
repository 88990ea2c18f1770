#include "endpoints/record_buffer.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace voxl::endpoints {

namespace {

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

RecordService::Buffer::Buffer(RecordService& svc, std::chrono::seconds length, uint64_t max_bytes)
    : svc_(svc), ring_(length, max_bytes) {
  svc_.hub_.add(this);  // asks for the first key frame
}

RecordService::Buffer::~Buffer() { svc_.hub_.remove(this); }

void RecordService::Buffer::on_video(const encode::EncodedFramePtr& f) {
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

void RecordService::Buffer::on_dropped(std::string_view what) {
  failed_ = std::string(what);
  svc_.log_->error("the stream kept for /record?last= stopped: {}", what);
  const std::vector<stream::VideoSink*> followers = std::move(followers_);
  followers_.clear();
  for (stream::VideoSink* r : followers) r->on_dropped("the stream kept for it stopped: " + failed_);
}

}  // namespace voxl::endpoints
