#include "endpoints/record_ring.h"

namespace voxl::endpoints {

RecordRing::RecordRing(std::chrono::milliseconds max_age, uint64_t max_bytes)
    : max_age_(max_age), max_bytes_(max_bytes) {}

void RecordRing::clear() {
  frames_.clear();
  keys_.clear();
  bytes_ = 0;
}

void RecordRing::push(const encode::EncodedFramePtr& f) {
  if (!f || f->stripes > 1 || f->data.empty()) return;
  // Time must not go back within a clip (the MP4's sample times).
  if (!frames_.empty() && f->captured_at < frames_.back()->captured_at) clear();
  if (frames_.empty() && !f->key) return;
  frames_.push_back(f);
  bytes_ += f->data.size();
  if (f->key) keys_.push_back(f->captured_at);
  trim();
}

void RecordRing::drop_first_group() {
  // The front key frame and everything up to the next one (all of it, when
  // there is none).
  do {
    bytes_ -= frames_.front()->data.size();
    frames_.pop_front();
  } while (!frames_.empty() && !frames_.front()->key);
  keys_.pop_front();
}

void RecordRing::trim() {
  // Age: the first group goes once the next one alone reaches back
  // max_age from the newest frame.
  while (keys_.size() >= 2 && frames_.back()->captured_at - keys_[1] >= max_age_) drop_first_group();
  // Bytes: groups go from the front, the newest one too if it alone is
  // larger than the cap.
  while (bytes_ > max_bytes_ && !frames_.empty()) drop_first_group();
}

std::vector<encode::EncodedFramePtr> RecordRing::clip(Clock::time_point since) const {
  if (frames_.empty()) return {};
  // The newest key frame at or before `since`, else the oldest (index 0).
  size_t start = 0;
  for (size_t i = 0; i < frames_.size() && frames_[i]->captured_at <= since; ++i)
    if (frames_[i]->key) start = i;
  // One picture size: from the first key frame after the last frame of
  // another size than the newest.
  const Size last = frames_.back()->size;
  for (size_t i = frames_.size(); i-- > start;) {
    if (frames_[i]->size == last) continue;
    size_t k = i + 1;
    while (k < frames_.size() && !frames_[k]->key) ++k;
    if (k == frames_.size()) return {};  // the newest size has no key frame held
    start = k;
    break;
  }
  return {frames_.begin() + std::ptrdiff_t(start), frames_.end()};
}

bool RecordRing::needs_key(Clock::time_point now, std::chrono::milliseconds interval) const {
  return keys_.empty() || now - keys_.back() >= interval;
}

std::chrono::milliseconds RecordRing::held() const {
  if (frames_.empty()) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(frames_.back()->captured_at -
                                                               frames_.front()->captured_at);
}

std::optional<RecordRing::Clock::time_point> RecordRing::oldest() const {
  if (frames_.empty()) return std::nullopt;
  return frames_.front()->captured_at;
}

}  // namespace voxl::endpoints
