#include "stream/video/chroma_policy.h"

namespace voxl::stream {

using encode::ChromaFormat;

void ChromaPolicy::leave_full() {
  format_ = ChromaFormat::k420;
  heavy_run_ = 0;
}

ChromaFormat ChromaPolicy::on_change(double damaged_fraction, bool allowed, Time) {
  if (format_ != ChromaFormat::k444) return format_;
  if (!allowed) {
    leave_full();
    return format_;
  }
  heavy_run_ = damaged_fraction >= kHeavyFraction ? heavy_run_ + 1 : 0;
  if (heavy_run_ >= kHeavyFrames) leave_full();
  return format_;
}

ChromaFormat ChromaPolicy::on_still(bool allowed, Time now) {
  if (!allowed) {
    leave_full();
    return format_;
  }
  heavy_run_ = 0;
  if (format_ == ChromaFormat::k420 && now >= earliest_entry()) {
    format_ = ChromaFormat::k444;
    entered_at_ = now;
  }
  return format_;
}

ChromaPolicy::Time ChromaPolicy::earliest_entry() const {
  return entered_at_ ? *entered_at_ + kMinInterval : Time::min();
}

std::optional<ChromaPolicy::Time> ChromaPolicy::full_chroma_due(bool allowed) const {
  if (!allowed || format_ == ChromaFormat::k444) return std::nullopt;
  return earliest_entry();
}

}  // namespace voxl::stream
