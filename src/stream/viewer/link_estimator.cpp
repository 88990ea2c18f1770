#include "stream/viewer/link_estimator.h"

#include <algorithm>
#include <cmath>

namespace voxl::stream {

namespace {

double ms_between(LinkEstimator::Time from, LinkEstimator::Time to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

}  // namespace

void LinkEstimator::on_send(uint32_t id, size_t bytes, bool app_limited, Time now) {
  // Starting from an empty pipe, the interval of the next rate sample starts
  // now, not at the last ack: idle time is not the link's.
  if (in_flight_.empty() || !delivered_time_) delivered_time_ = now;
  if (in_flight_.empty()) {
    only_first_empty_send_ = !last_empty_send_;
    last_empty_send_ = now;
  }
  in_flight_.push_back({id, bytes, now, delivered_, *delivered_time_, app_limited, bytes_in_flight_});
  bytes_in_flight_ += bytes;
  avg_frame_bytes_ = avg_frame_bytes_ == 0 ? double(bytes) : avg_frame_bytes_ * 0.875 + double(bytes) * 0.125;
  if (in_flight_.size() > kMaxFramesInFlight) {  // a client that does not ack
    bytes_in_flight_ -= in_flight_.front().bytes;
    in_flight_.pop_front();
  }
}

void LinkEstimator::on_ack(uint32_t id, double client_hold_ms, Time now) {
  std::optional<Sent> acked;
  while (!in_flight_.empty() && int32_t(in_flight_.front().id - id) <= 0) {
    const Sent s = in_flight_.front();
    in_flight_.pop_front();
    bytes_in_flight_ -= s.bytes;
    delivered_ += s.bytes;
    if (s.id == id) acked = s;
  }
  if (!acked) return;  // late, duplicate or forgotten: no sample
  delivered_time_ = now;

  const double rtt = std::max(0.1, ms_between(acked->sent, now) - std::max(0.0, client_hold_ms));
  min_rtt_.add(rtt, now);
  srtt_ms_ = srtt_ms_ == 0 ? rtt : srtt_ms_ * 0.875 + rtt * 0.125;
  fast_rtt_ms_ = fast_rtt_ms_ == 0 ? rtt : (fast_rtt_ms_ + rtt) / 2;
  // The queue this frame met, as far as our own bytes can have made it (the
  // rate is the fastest seen before this sample; none yet: no bound).
  double queue = std::max(0.0, rtt - min_rtt_ms());
  if (delivery_kbps() > 0)
    queue = std::min(queue, double(acked->bytes_ahead + acked->bytes) * 8.0 / delivery_kbps());
  recent_queue_.push_back({queue, now});
  while (recent_queue_.size() > kStandingSamples &&
         (now - recent_queue_.front().at > kStandingWindow || recent_queue_.size() > kMaxFramesInFlight * 4))
    recent_queue_.pop_front();

  // The interval runs from the ack before this frame left (whose arrival
  // was delayed by a decode much like this one's) or, from an empty pipe,
  // from the send itself, when the client's hold has to come out.
  double interval_ms = ms_between(acked->delivered_time_at_send, now);
  if (acked->delivered_time_at_send == acked->sent) interval_ms -= std::max(0.0, client_hold_ms);
  interval_ms = std::max(1.0, interval_ms);
  const double kbps = double(delivered_ - acked->delivered_at_send) * 8.0 / interval_ms;
  rate_.expire(now);
  if (!acked->app_limited || kbps > delivery_kbps()) rate_.add(kbps, now);
  if (!acked->app_limited || kbps > recent_kbps_)
    recent_kbps_ = recent_kbps_ == 0 ? kbps : recent_kbps_ * 0.75 + kbps * 0.25;
}

void LinkEstimator::forget_in_flight() {
  in_flight_.clear();
  bytes_in_flight_ = 0;
}

void LinkEstimator::expire(Time now) {
  while (!in_flight_.empty() && now - in_flight_.front().sent > kGiveUp) {
    bytes_in_flight_ -= in_flight_.front().bytes;
    in_flight_.pop_front();
  }
  rate_.expire(now);
  min_rtt_.expire(now);
}

double LinkEstimator::queue_delay_ms() const {
  return has_samples() ? std::max(0.0, srtt_ms_ - min_rtt_ms()) : 0.0;
}

double LinkEstimator::recent_queue_delay_ms() const {
  return has_samples() ? std::max(0.0, fast_rtt_ms_ - min_rtt_ms()) : 0.0;
}

double LinkEstimator::standing_queue_delay_ms() const {
  if (!has_samples() || recent_queue_.empty()) return 0.0;
  double least = recent_queue_.front().queue_ms;
  for (const QueueSample& q : recent_queue_) least = std::min(least, q.queue_ms);
  return least;
}

size_t LinkEstimator::frame_window(double fps, int parts) const {
  const auto n = size_t(std::max(1, parts));
  if (!has_samples()) return (kExtraFrames + 1) * n;
  const auto rtt_frames = size_t(std::ceil(min_rtt_ms() * std::max(1.0, fps) / 1000.0));
  return std::clamp<size_t>(rtt_frames + kExtraFrames, kExtraFrames, kMaxFramesInFlight) * n;
}

bool LinkEstimator::drain_due(Time now) const {
  if (!last_empty_send_ || !has_samples()) return false;
  return now - *last_empty_send_ >= (only_first_empty_send_ ? Clock::duration(kFirstProbe) : Clock::duration(kProbeEvery));
}

bool LinkEstimator::can_send(double fps, Time now, int parts) const {
  if (in_flight_.empty()) return true;
  if (drain_due(now)) return false;
  if (in_flight_.size() >= frame_window(fps, parts)) return false;
  if (recent_kbps_ <= 0) return true;
  const double bdp_bytes = recent_kbps_ * min_rtt_ms() / 8.0;  // kbit/s x ms / 8 = bytes
  const double budget =
      bdp_bytes + double(kExtraFrames) * double(std::max(1, parts)) * std::max(1.0, avg_frame_bytes_);
  return double(bytes_in_flight_) < budget;
}

}  // namespace voxl::stream
