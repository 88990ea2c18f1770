#include "stream/viewer/text_queue.h"

namespace voxl::stream {

TextQueue::Push TextQueue::push(std::string text, TextKind kind) {
  Entry e{std::move(text), kind};
  if (kind != TextKind::kOther) {
    for (size_t i = in_flight_ ? 1 : 0; i < entries_.size(); ++i) {
      Entry& old = entries_[i];
      if (old.kind != kind) continue;
      const size_t after = bytes_ - counted(old) + counted(e);
      if (after > max_bytes_) return Push::kOverflow;
      bytes_ = after;
      old = std::move(e);
      return Push::kReplaced;
    }
  }
  if (entries_.size() >= max_messages_ || bytes_ + counted(e) > max_bytes_) return Push::kOverflow;
  bytes_ += counted(e);
  entries_.push_back(std::move(e));
  return Push::kQueued;
}

const std::string& TextQueue::start_front() {
  in_flight_ = true;
  return entries_.front().text;
}

void TextQueue::pop() {
  if (entries_.empty()) return;
  bytes_ -= counted(entries_.front());
  entries_.pop_front();
  in_flight_ = false;
}

}  // namespace voxl::stream
