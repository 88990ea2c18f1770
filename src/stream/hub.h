// Fan-out of the one encoded stream to every consumer (viewers now;
// recorders and /wait later). It switches the video pipeline on while
// anyone consumes and off when the last one leaves, and rate-limits
// key frame requests so many viewers joining or falling behind at once cost
// one IDR: requests are merged while one is outstanding, and no two IDRs
// are asked for closer than kMinKeyInterval (a request within it is put
// off to its end, where all such requests become one). While every consumer is congested it pauses the pipeline, and it
// sets the encoder's bitrate from what the consumers' links can take and
// its frame rate ceiling from what they allow (the highest; see
// stream/viewer_settings.h).
//
// Threads: the loop thread only. Sinks are registered by raw pointer and
// must remove themselves before they are destroyed.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

#include "encode/encoded_frame.h"
#include "stream/bitrate_controller.h"

namespace voxl::stream {

class VideoSink {
 public:
  virtual ~VideoSink() = default;
  // Called on the loop thread for every encoded frame; must not block.
  virtual void on_video(const encode::EncodedFramePtr& frame) = 0;
  // Whether a new frame now would be sent at once rather than queue up
  // behind frames still on their way or being decoded.
  virtual bool ready() const { return true; }
  // The bitrate this sink's link can take, in kbit/s; 0 when it has no
  // limit of its own (a recorder, a viewer not measured yet).
  virtual int target_kbps() const { return 0; }
  // Whether this sink decodes High 4:4:4 Predictive, which the encoder
  // codes a still screen in only while every sink does. Recordings do not
  // (their MP4 stays 4:2:0 Constrained Baseline throughout).
  virtual bool takes_full_chroma() const { return false; }
  // The frame rate this sink asks for at most; 0: no cap of its own (it
  // takes the server's --framerate maximum).
  virtual int max_fps() const { return 0; }
};

struct PipelineControls {
  std::function<void(bool)> set_active{};
  std::function<void()> request_keyframe{};
  std::function<void(bool)> set_paused{};  // every sink is congested (or no longer)
  std::function<void(int)> set_target_kbps{};  // the encoder's bitrate ceiling
  std::function<void(bool)> set_full_chroma{};  // every sink takes 4:4:4 (or no longer)
  // Calls Hub::on_key_timer() once after `delay` (on the loop thread),
  // replacing any earlier call still to come. Without it key frame
  // requests are never put off.
  std::function<void(std::chrono::steady_clock::duration delay)> arm_key_timer{};
  // The time; steady_clock::now when empty (tests pass their own).
  std::function<std::chrono::steady_clock::time_point()> now{};
  std::function<void(int)> set_max_fps{};  // the pipeline's frame rate ceiling
};

class Hub {
 public:
  explicit Hub(PipelineControls controls) : controls_(std::move(controls)) {}

  // Asks for a key frame so the newcomer can start (after withdrawing 4:4:4
  // if the newcomer does not take it, so that key frame is one it decodes).
  void add(VideoSink* sink);
  void remove(VideoSink* sink);  // the last one out turns the pipeline off
  size_t sinks() const { return sinks_.size(); }

  void publish(const encode::EncodedFramePtr& frame);

  // At most one outstanding request: repeated asks before the key frame
  // arrives (or within kRetry of the last ask) are merged; an ask within
  // kMinKeyInterval of the last key frame asked for or published waits
  // for the interval's end.
  void request_keyframe();
  // The key frame timer fired (see PipelineControls::arm_key_timer).
  void on_key_timer();
  // A request is waiting for the interval's end.
  bool key_deferred() const { return key_deferred_; }

  // Re-reads the sinks' ready(): while none is ready the pipeline pauses,
  // so frames are made when some viewer can take them, not to be queued
  // and dropped (TigerVNC's "don't produce while congested"). Sinks call it
  // when they may have become ready.
  void refresh_pause();

  static constexpr std::chrono::milliseconds kRetry{500};
  static constexpr std::chrono::milliseconds kMinKeyInterval{300};

  // Re-reads the sinks' target_kbps() and sets the encoder's ceiling to
  // the slowest within the limits (see combined_target_kbps). Sinks call it
  // when their estimate moves.
  void refresh_rate();
  void set_bitrate_limits(BitrateLimits limits);

  // Re-reads the sinks' max_fps() and sets the pipeline's frame rate
  // ceiling to the highest any sink allows, within the server's maximum
  // (combined_max_fps). Sinks call it when their cap changes.
  void refresh_fps();
  void set_server_max_fps(int fps);
  int max_fps() const { return max_fps_; }

  // Re-reads the sinks' takes_full_chroma(): 4:4:4 is allowed while there
  // is at least one sink and every sink takes it. Sinks call it when what
  // they take changes.
  void refresh_chroma();
  bool full_chroma() const { return full_chroma_; }
  int target_kbps() const { return target_kbps_; }

 private:
  PipelineControls controls_;
  std::vector<VideoSink*> sinks_;
  bool key_pending_ = false;
  bool paused_ = false;
  BitrateLimits limits_;
  std::vector<int> targets_;  // refresh_rate's scratch, kept to spare an allocation per ack
  int target_kbps_ = 0;  // last value handed to set_target_kbps
  int server_max_fps_ = 60;
  int max_fps_ = 0;  // last value handed to set_max_fps
  std::vector<int> caps_;  // refresh_fps's scratch
  bool full_chroma_ = false;  // last value handed to set_full_chroma
  std::chrono::steady_clock::time_point key_asked_at_;
  std::chrono::steady_clock::time_point last_key_at_;  // asked for or published
  bool any_key_ = false;  // last_key_at_ is set
  bool key_deferred_ = false;

  std::chrono::steady_clock::time_point now() const;
  void ask_encoder(std::chrono::steady_clock::time_point now);
};

}  // namespace voxl::stream
