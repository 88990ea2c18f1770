// Fan-out of the one encoded stream to every consumer (viewers now;
// recorders and /wait later). It switches the video pipeline on while
// anyone consumes and off when the last one leaves, and rate-limits
// key frame requests so many viewers joining or falling behind at once cost
// one IDR. While every consumer is congested it pauses the pipeline.
//
// Threads: the loop thread only. Sinks are registered by raw pointer and
// must remove themselves before they are destroyed.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

#include "encode/encoded_frame.h"

namespace voxl::stream {

class VideoSink {
 public:
  virtual ~VideoSink() = default;
  // Called on the loop thread for every encoded frame; must not block.
  virtual void on_video(const encode::EncodedFramePtr& frame) = 0;
  // Whether a new frame now would be sent at once rather than queue up
  // behind frames still on their way or being decoded.
  virtual bool ready() const { return true; }
};

struct PipelineControls {
  std::function<void(bool)> set_active;
  std::function<void()> request_keyframe;
  std::function<void(bool)> set_paused;  // every sink is congested (or no longer)
};

class Hub {
 public:
  explicit Hub(PipelineControls controls) : controls_(std::move(controls)) {}

  void add(VideoSink* sink);     // asks for a key frame so the newcomer can start
  void remove(VideoSink* sink);  // the last one out turns the pipeline off
  size_t sinks() const { return sinks_.size(); }

  void publish(const encode::EncodedFramePtr& frame);

  // At most one outstanding request: repeated asks before the key frame
  // arrives (or within kRetry of the last ask) are merged.
  void request_keyframe();

  // Re-reads the sinks' ready(): while none is ready the pipeline pauses,
  // so frames are made when some viewer can take them, not to be queued
  // and dropped (TigerVNC's "don't produce while congested"). Sinks call it
  // when they may have become ready.
  void refresh_pause();

  static constexpr std::chrono::milliseconds kRetry{500};

 private:
  PipelineControls controls_;
  std::vector<VideoSink*> sinks_;
  bool key_pending_ = false;
  bool paused_ = false;
  std::chrono::steady_clock::time_point key_asked_at_;
};

}  // namespace voxl::stream
