// What one viewer's link carries, learned from its acknowledgements the way
// BBR learns a TCP path:
// - round-trip time: each ack gives (ack arrival - frame sent - time the
//   client held the frame before acking, i.e. its decode time); kept as a
//   windowed minimum (the path with empty queues) and a smoothed value.
// - delivery rate: bytes acknowledged between a frame's send and its ack,
//   over that interval (a per-frame BBR rate sample), kept as a windowed
//   maximum. Samples taken while the sender had nothing more to send
//   (application-limited) only count when they raise the estimate: a still
//   screen must not talk the link down.
//   A smoothed recent rate reacts to a slower link at once.
// - in flight: frames and bytes sent and not yet acknowledged.
// From these: the bandwidth-delay product, the queueing delay (smoothed -
// minimum RTT) and whether one more frame fits without building a queue.
//
// A queue at the bottleneck delays every frame behind it; a busy machine
// (a late ack, a client or server thread not scheduled for a while) delays
// one or two, or on a loaded machine all of them by about the same. So the
// delay a congestion controller reacts to is the standing queue of our own
// making: each ack's delay above the minimum, but no more than the bytes
// ahead of and in that frame (what was in flight when it left, and itself)
// take at the fastest delivery rate seen (a frame sent into an empty LAN
// pipe cannot have queued behind itself for 15 ms), and of those the
// smallest over the last kStandingWindow (at least kStandingSamples acks).
// A lone slow ack, or a CPU-bound client, raises the smoothed RTT but not
// that. (A queue another flow builds at the bottleneck is not seen either:
// the window still holds the stream to what the link delivers.)
//
// The minimum RTT is only true when some frame crossed an empty path. A
// large first key frame, or frames sent behind it, can leave a standing
// queue that the window (sized from that inflated minimum) then keeps
// standing, so the minimum never comes back down and the queue is never
// seen. Like BBR's PROBE_RTT, the window therefore drains the path now and
// then: when no frame has left into an empty pipe for kProbeEvery (kFirstProbe
// after the first frame), the next frame waits until every frame in flight
// is acknowledged, which costs at most about one round trip of frames.
//
// Pure logic with no clock of its own (callers pass steady_clock times), so
// it is tested on synthetic ack traces. One owner (a viewer session, loop
// thread); not thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

#include "base/windowed_extremum.h"

namespace voxl::stream {

class LinkEstimator {
 public:
  using Clock = std::chrono::steady_clock;
  using Time = Clock::time_point;

  // A frame sent and not yet acknowledged after this long is taken as lost
  // (a decoder reset drops what it held) and no longer counts in flight.
  static constexpr auto kGiveUp = std::chrono::seconds(1);
  static constexpr auto kMinRttWindow = std::chrono::seconds(10);
  static constexpr auto kRateWindow = std::chrono::seconds(2);
  // Frames allowed in flight beyond one round trip's worth: one being
  // decoded and one on its way.
  static constexpr size_t kExtraFrames = 2;
  static constexpr size_t kMaxFramesInFlight = 16;
  static constexpr auto kFirstProbe = std::chrono::seconds(1);
  // Within kMinRttWindow, so a clean sample is always in the window.
  static constexpr auto kProbeEvery = std::chrono::seconds(8);
  // The standing queue is the least delay over this long and at least
  // this many acks (so it spans more than one scheduling hiccup).
  static constexpr auto kStandingWindow = std::chrono::milliseconds(100);
  static constexpr size_t kStandingSamples = 4;

  // `app_limited`: the sender sent this frame with room to spare in the
  // window, so its rate sample measures the content, not the link.
  void on_send(uint32_t id, size_t bytes, bool app_limited, Time now);
  // `client_hold_ms`: receive -> ack at the client (decode), taken out of
  // the RTT sample. Ids wrap at 2^32; an ack also acknowledges every
  // earlier frame still in flight (acks can be coalesced).
  void on_ack(uint32_t id, double client_hold_ms, Time now);
  // The client's decoder was reset: nothing it held will be acknowledged.
  void forget_in_flight();
  // Drops frames in flight longer than kGiveUp.
  void expire(Time now);

  bool has_samples() const { return min_rtt_.best().has_value(); }
  double min_rtt_ms() const { return min_rtt_.best().value_or(0.0); }
  double srtt_ms() const { return srtt_ms_; }
  // Smoothed RTT above the minimum: time frames spend queued on the path.
  double queue_delay_ms() const;
  // The same from a quickly smoothed RTT (the last two or three samples).
  double recent_queue_delay_ms() const;
  // The standing queue (see above): what a congestion controller reacts to.
  double standing_queue_delay_ms() const;
  // Windowed max of the per-frame delivery samples, in kbit/s; 0 until the
  // first ack.
  double delivery_kbps() const { return rate_.best().value_or(0.0); }
  // A smoothed recent delivery rate (the last few samples that measured
  // the link): after the link slows down, this knows at once while the
  // windowed max still remembers the old rate. 0 until the first ack.
  double recent_kbps() const { return recent_kbps_; }
  size_t frames_in_flight() const { return in_flight_.size(); }
  size_t bytes_in_flight() const { return bytes_in_flight_; }

  // Whether a frame may be sent at `now` at `fps` without queueing: the
  // frames in flight stay within one round trip's worth plus kExtraFrames,
  // and the bytes within the bandwidth-delay product (at the recent rate)
  // plus that many average frames; while a drain is due (see above),
  // nothing may be in flight.
  // Before any ack, at most kExtraFrames + 1 frames go out. `parts`: the
  // frames a picture is sent as (--stripes: one per changed band, each
  // its own message); the windows count whole pictures, so they hold that
  // many times the frames and average frames.
  bool can_send(double fps, Time now, int parts = 1) const;
  // A drain of the path is due: the next frame waits for an empty pipe.
  bool drain_due(Time now) const;
  // The window can_send() applies, in frames.
  size_t frame_window(double fps, int parts = 1) const;

 private:
  struct Sent {
    uint32_t id;
    size_t bytes;
    Time sent;
    uint64_t delivered_at_send;  // delivered_ when this frame left
    Time delivered_time_at_send;
    bool app_limited;
    size_t bytes_ahead;  // bytes in flight when it left
  };

  std::deque<Sent> in_flight_;
  size_t bytes_in_flight_ = 0;
  uint64_t delivered_ = 0;  // bytes acknowledged since the start
  std::optional<Time> delivered_time_;
  WindowedMin<double> min_rtt_{kMinRttWindow};
  WindowedMax<double> rate_{kRateWindow};
  double srtt_ms_ = 0;
  double fast_rtt_ms_ = 0;
  struct QueueSample {
    double queue_ms;  // bounded by what our own bytes can explain
    Time at;
  };
  std::deque<QueueSample> recent_queue_;  // bounded: kStandingWindow or kStandingSamples, whichever holds more
  double recent_kbps_ = 0;
  double avg_frame_bytes_ = 0;
  // When a frame last left into an empty pipe, and whether that was the
  // first frame (the first drain comes sooner).
  std::optional<Time> last_empty_send_;
  bool only_first_empty_send_ = true;
};

}  // namespace voxl::stream
