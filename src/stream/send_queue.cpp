#include "stream/send_queue.h"

namespace voxl::stream {

SendQueue::Push SendQueue::push(encode::EncodedFramePtr frame) {
  if (frame->key) {
    // A key frame supersedes everything still pending.
    dropped_ += frames_.size();
    frames_.clear();
    bytes_ = 0;
    waiting_for_key_ = false;
  } else if (waiting_for_key_) {
    ++dropped_;
    return Push::kDropped;
  } else if (frames_.size() + 1 > max_frames_ || bytes_ + frame->data.size() > max_bytes_) {
    dropped_ += frames_.size() + 1;
    frames_.clear();
    bytes_ = 0;
    waiting_for_key_ = true;
    return Push::kNeedKeyframe;
  }
  bytes_ += frame->data.size();
  frames_.push_back(std::move(frame));
  return Push::kQueued;
}

void SendQueue::drop_until_key() {
  dropped_ += frames_.size();
  frames_.clear();
  bytes_ = 0;
  waiting_for_key_ = true;
}

encode::EncodedFramePtr SendQueue::pop() {
  if (frames_.empty()) return nullptr;
  auto f = std::move(frames_.front());
  frames_.pop_front();
  bytes_ -= f->data.size();
  return f;
}

}  // namespace voxl::stream
