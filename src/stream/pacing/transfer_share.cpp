#include "stream/pacing/transfer_share.h"

#include <algorithm>
#include <cmath>

namespace voxl::stream {

namespace {

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

void TransferShare::on_link(const LinkSample& s, Time now) {
  last_sample_ = now;
  if (kbps_ == 0) {
    kbps_ = std::max(kStartKbps, (s.delivery_kbps - s.video_kbps) / 2);
    last_move_ = now;
    return;
  }
  move(std::max(-1.0, (kTargetDelayMs - s.queue_delay_ms) / kTargetDelayMs), now);
}

void TransferShare::on_progress(Time now) {
  if (kbps_ == 0 || now - last_sample_ < kQuiet) return;  // no sample yet: no limit
  move(1, now);
}

void TransferShare::move(double off, Time now) {
  const double dt = seconds(std::min<Time::duration>(now - last_move_, kLongestStep));
  last_move_ = now;
  if (dt <= 0 || kbps_ >= kUnpacedKbps) return;
  const double per = seconds(off >= 0 ? Time::duration(kDoubleEvery) : Time::duration(kHalveEvery));
  kbps_ = std::clamp(kbps_ * std::exp2(off * dt / per), kFloorKbps, kUnpacedKbps);
}

std::optional<double> TransferShare::kbps() const {
  if (kbps_ == 0 || kbps_ >= kUnpacedKbps) return std::nullopt;
  return kbps_;
}

}  // namespace voxl::stream
