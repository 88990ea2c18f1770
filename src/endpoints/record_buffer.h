// keep_last()'s sink of RecordService (endpoints/record_service.h): the
// last seconds of the stream in a RecordRing for /record?last=, the key
// frames that keeps asking for, and the retroactive recordings that go on
// from it (its followers). Private to the service's files.
//
// Threads: the loop thread (the hub's sink calls come there). Lifetime:
// owned by the RecordService; it joins the hub when made and leaves it
// when destroyed.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "endpoints/record_ring.h"
#include "endpoints/record_service.h"

namespace voxl::endpoints {

// keep_last()'s sink: every frame into the ring, a key frame asked for
// when the stream has gone kBufferKeyInterval without one, and every frame
// on to the retroactive recordings that go on (followers).
class RecordService::Buffer final : public stream::VideoSink {
 public:
  using Clock = std::chrono::steady_clock;

  Buffer(RecordService& svc, std::chrono::seconds length, uint64_t max_bytes);
  ~Buffer() override;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // The best picture, as recordings have (and 4:2:0, which an MP4 keeps).
  bool wants_top_rung() const override { return true; }

  void on_video(const encode::EncodedFramePtr& f) override;

  // The hub dropped it (on_video threw): nothing more is kept, record_last()
  // is refused, and the recordings going on from it fail.
  void on_dropped(std::string_view what) override;
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

}  // namespace voxl::endpoints
