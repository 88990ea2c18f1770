#include "stream/viewer/send_queue.h"

namespace voxl::stream {

namespace {

// Every stream of a striped picture restarts together, stripe 0 first: its
// key frame is where a viewer can start again.
bool restarts(const encode::EncodedFrame& f) { return f.key && f.stripe == 0; }

}  // namespace

SendQueue::Push SendQueue::push(encode::EncodedFramePtr frame) {
  const size_t pictures = pictures_ + (frame->last_part ? 1 : 0);
  if (restarts(*frame)) {
    // A key frame supersedes everything still pending.
    clear();
    waiting_for_key_ = false;
  } else if (waiting_for_key_) {
    ++dropped_;
    return Push::kDropped;
  } else if (pictures > max_frames_ || bytes_ + frame->data.size() > max_bytes_) {
    clear();
    ++dropped_;
    waiting_for_key_ = true;
    return Push::kNeedKeyframe;
  }
  bytes_ += frame->data.size();
  if (frame->last_part) ++pictures_;
  frames_.push_back(std::move(frame));
  return Push::kQueued;
}

void SendQueue::clear() {
  dropped_ += frames_.size();
  frames_.clear();
  bytes_ = 0;
  pictures_ = 0;
}

void SendQueue::drop_until_key() {
  clear();
  waiting_for_key_ = true;
}

encode::EncodedFramePtr SendQueue::pop() {
  if (frames_.empty()) return nullptr;
  auto f = std::move(frames_.front());
  frames_.pop_front();
  bytes_ -= f->data.size();
  if (f->last_part) --pictures_;
  return f;
}

}  // namespace voxl::stream
