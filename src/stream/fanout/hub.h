// Fan-out of the encoded streams to every consumer (viewers, recorders,
// /wait). With --max-encodes above 1 the pipeline codes an encoding ladder:
// rung 0 for the fastest links and recordings, lower rungs at lower
// bitrates for slower links; the hub says which rung each consumer takes
// (RungPlanner, from the consumers' link estimates, with hysteresis), and
// which rungs the pipeline codes: only those with a consumer. A consumer
// moving to another rung keeps the frames of its old rung until the first
// key frame of the new one, which the move asks for; it then takes the new
// rung from that key frame on, so its decoder never sees a gap.
//
// Per rung the hub sets the encoder's bitrate from what its consumers'
// links can take (the slowest that is not on its way to a slower rung),
// pauses a rung while every consumer of it is congested (and the pipeline
// while every rung is), and rate-limits key frame requests so many viewers
// joining or falling behind at once cost one IDR: requests are merged while
// one is outstanding, and no two IDRs are asked for closer than
// kMinKeyInterval (a request within it is put off to its end, where all
// such requests become one). The frame rate ceiling is the highest any
// consumer allows (stream/viewer/viewer_settings.h); 4:4:4 is allowed on rung 0
// while every consumer of it decodes it (lower rungs stay 4:2:0).
//
// A sink that throws from on_video is a fault of that sink alone: the hub
// catches it, logs it, drops that sink (it gets no more frames, as if it
// had removed itself) and tells it through on_dropped(), and every other
// sink still gets the frame. Nothing a sink throws leaves publish().
//
// Threads: the loop thread only. Sinks are registered by raw pointer and
// must remove themselves before they are destroyed (removing a sink the hub
// dropped does nothing).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "base/logging.h"
#include "encode/encoded_frame.h"
#include "stream/viewer/bitrate_controller.h"
#include "stream/video/motion_choice.h"
#include "stream/video/rung_planner.h"

namespace voxl::stream {

class VideoSink {
 public:
  virtual ~VideoSink() = default;
  // Called on the loop thread for every encoded frame of its rung; must not
  // block.
  virtual void on_video(const encode::EncodedFramePtr& frame) = 0;
  // Whether a new frame now would be sent at once rather than queue up
  // behind frames still on their way or being decoded.
  virtual bool ready() const { return true; }
  // The bitrate this sink's link can take, in kbit/s, as a limit on the
  // encoder of its rung; 0 when it has no say (a recorder, a viewer not
  // measured yet, a view-only viewer).
  virtual int target_kbps() const { return 0; }
  // What this sink's link carries, in kbit/s, to choose its rung; 0 when
  // unknown (it takes rung 0). A view-only viewer has one even though it has
  // no say in the bitrate.
  virtual int link_kbps() const { return target_kbps(); }
  // Always rung 0, the best picture (a recording).
  virtual bool wants_top_rung() const { return false; }
  // An observer (a session recording, sessions/session_recorder.h) takes
  // what the others are given and has no say: it takes the best rung some
  // other sink takes (rung 0 while it is alone), never makes a rung coded,
  // never keeps the pipeline from pausing, and sets neither a bitrate nor a
  // frame rate. It does count against 4:4:4 on its rung, like any sink
  // that does not take it, and the pipeline runs while others are there.
  virtual bool observes() const { return false; }
  // Whether this sink decodes High 4:4:4 Predictive, which the encoder
  // codes a still screen in only while every sink of rung 0 does.
  // Recordings do not (their MP4 stays 4:2:0 Constrained Baseline
  // throughout).
  virtual bool takes_full_chroma() const { return false; }
  // The frame rate this sink asks for at most; 0: no cap of its own (it
  // takes the server's --framerate maximum).
  virtual int max_fps() const { return 0; }
  // How this sink would have the frame rate traded against sharpness;
  // nullopt: no choice of its own (the server's --motion).
  virtual std::optional<Motion> motion() const { return std::nullopt; }
  // on_video threw `what`: the hub has dropped this sink already (it gets
  // no more frames) and says so once, at once, on the loop thread. The
  // sink's owner ends it here (a viewer closes its connection, a recording
  // fails); the default does nothing, which leaves it without video.
  // Anything it throws is logged and swallowed.
  virtual void on_dropped(std::string_view /*what*/) {}
};

// What the hub asks of the video pipeline. Rungs count from 0.
struct PipelineControls {
  std::function<void(bool)> set_active{};
  std::function<void(int rung)> request_keyframe{};
  std::function<void(bool)> set_paused{};  // every coded rung's sinks are congested (or no longer)
  std::function<void(int rung, int kbps)> set_target_kbps{};  // a rung's bitrate ceiling
  std::function<void(bool)> set_full_chroma{};  // every sink of rung 0 takes 4:4:4 (or no longer)
  // Calls Hub::on_key_timer() once after `delay` (on the loop thread),
  // replacing any earlier call still to come. Without it key frame
  // requests are never put off.
  std::function<void(std::chrono::steady_clock::duration delay)> arm_key_timer{};
  // The time; steady_clock::now when empty (tests pass their own).
  std::function<std::chrono::steady_clock::time_point()> now{};
  std::function<void(int)> set_max_fps{};  // the pipeline's frame rate ceiling
  // Whether a rung is coded (it has sinks) and whether any of them can take
  // a frame now; rung 0's state is said too.
  std::function<void(int rung, bool coded, bool ready)> set_rung{};
  std::function<void(Motion)> set_motion{};  // the stream's motion choice (combined_motion)
};

class Hub {
 public:
  // `log`: where a sink that throws is reported (none when empty).
  explicit Hub(PipelineControls controls, Logger log = {})
      : controls_(std::move(controls)), log_(std::move(log)) {}

  // Asks for a key frame of the newcomer's rung so it can start (after
  // withdrawing 4:4:4 if it cannot take it, so that key frame is one it
  // decodes).
  void add(VideoSink* sink);
  void remove(VideoSink* sink);  // the last one out turns the pipeline off
  size_t sinks() const { return members_.size(); }

  // Hands the frame to the sinks of its rung (frame->rung); a sink that
  // throws is dropped (see above) and the others still get it.
  void publish(const encode::EncodedFramePtr& frame);
  // Sinks dropped so far because on_video threw.
  uint64_t sinks_dropped() const { return dropped_; }

  // At most one outstanding request per rung: repeated asks before its key
  // frame arrives (or within kRetry of the last ask) are merged; an ask
  // within kMinKeyInterval of the rung's last key frame asked for or
  // published waits for the interval's end. Without a sink: rung 0.
  void request_keyframe();
  void request_keyframe(const VideoSink* sink);
  // The key frame timer fired (see PipelineControls::arm_key_timer).
  void on_key_timer();
  // A request is waiting for the interval's end.
  bool key_deferred() const;

  // Re-reads the sinks' ready(): a rung none of whose sinks is ready is not
  // coded, and while no rung is ready the pipeline pauses, so frames are
  // made when some viewer can take them, not to be queued and dropped
  // (TigerVNC's "don't produce while congested"). Sinks call it when they
  // may have become ready.
  void refresh_pause();

  static constexpr std::chrono::milliseconds kRetry{500};
  static constexpr std::chrono::milliseconds kMinKeyInterval{300};

  // Re-reads the sinks' link estimates: moves sinks between rungs
  // (RungPlanner) and sets each rung's bitrate ceiling to the slowest of its
  // sinks within the limits (combined_target_kbps). Sinks call it when their
  // estimate moves.
  void refresh_rate();
  void set_bitrate_limits(BitrateLimits limits);

  // --max-encodes (1..kMaxRungs; 1: one encode for everyone), and how many
  // of them the machine affords now (LadderBudget, as the pipeline reports
  // it): a change replans every sink's rung.
  void set_max_rungs(int rungs);
  int max_rungs() const { return max_rungs_; }
  void set_rung_budget(int rungs);
  int rung_budget() const { return budget_; }
  // The rung a sink takes frames of now (0 for an unknown sink), and the
  // one it is moving to (-1: none).
  int rung_of(const VideoSink* sink) const;
  int moving_to(const VideoSink* sink) const;
  // Sinks taking rung `rung` now; its bitrate ceiling; whether it is coded.
  int sinks_on(int rung) const;
  int target_kbps(int rung) const;
  bool rung_coded(int rung) const;
  int rung_moves() const { return moves_; }  // sinks switched rungs so far

  // Re-reads the sinks' max_fps() and sets the pipeline's frame rate
  // ceiling to the highest any sink allows, within the server's maximum
  // (combined_max_fps). Sinks call it when their cap changes.
  void refresh_fps();
  void set_server_max_fps(int fps);
  int max_fps() const { return max_fps_; }

  // Re-reads the sinks' motion() and sets the pipeline's motion choice
  // (combined_motion). Sinks call it when their choice changes.
  void refresh_motion();
  void set_server_motion(Motion m);
  Motion motion() const { return motion_; }

  // Re-reads the sinks' takes_full_chroma(): 4:4:4 is allowed while rung 0
  // has a sink and every sink of it takes it. Sinks call it when what they
  // take changes.
  void refresh_chroma();
  bool full_chroma() const { return full_chroma_; }
  int target_kbps() const { return target_kbps(0); }

 private:
  using Time = std::chrono::steady_clock::time_point;
  struct Member {
    VideoSink* sink;
    int rung = 0;   // whose frames it gets
    int next = -1;  // the rung it waits for a key frame of
    RungSeat seat;  // the planner's view (seat.rung: where it is going)
  };
  struct Rung {
    bool key_pending = false;
    bool key_deferred = false;
    bool any_key = false;  // last_key_at is set
    Time key_asked_at{};
    Time last_key_at{};  // asked for or published
    int target_kbps = 0;  // last value handed to set_target_kbps
    bool told = false;    // set_rung has been called for it
    bool coded = false;
    bool ready = false;
  };

  Time now() const;
  Member* find(const VideoSink* sink);
  const Member* find(const VideoSink* sink) const;
  int rung_wanted(const Member& m) const { return m.next >= 0 ? m.next : m.rung; }
  bool counts_on(const Member& m, int rung) const { return m.rung == rung || m.next == rung; }
  // Counts on `rung` with a say in it (not an observer).
  bool drives(const Member& m, int rung) const { return counts_on(m, rung) && !m.sink->observes(); }
  bool any_driver() const;
  int rungs() const;  // the rungs planned now
  void request_rung_key(int rung);
  // on_video, with a throw turned into drop().
  void feed(VideoSink* sink, const encode::EncodedFramePtr& frame);
  void drop(VideoSink* sink, std::string_view what);
  void ask_encoder(int rung, Time now);
  void arm_timer(Time now);
  // Moves sinks (plan) and then tells the pipeline what each rung is now.
  void replan();
  void refresh_rungs();

  PipelineControls controls_;
  Logger log_;
  std::vector<Member> members_;
  std::array<Rung, kMaxRungs> rungs_{};
  RungPlanner planner_;
  std::vector<RungSeat> seats_;  // replan's scratch
  std::vector<VideoSink*> fanout_;  // publish's copy of the sinks (publish is not re-entered)
  int max_rungs_ = 1;
  int budget_ = kMaxRungs;
  int moves_ = 0;
  uint64_t dropped_ = 0;
  bool paused_ = false;
  BitrateLimits limits_;
  std::vector<int> targets_;  // scratch, kept to spare an allocation per ack
  int server_max_fps_ = 60;
  int max_fps_ = 0;  // last value handed to set_max_fps
  std::vector<int> caps_;  // refresh_fps's scratch
  Motion server_motion_ = Motion::kAuto;
  Motion motion_ = Motion::kAuto;  // last value handed to set_motion
  bool full_chroma_ = false;  // last value handed to set_full_chroma
};

}  // namespace voxl::stream
