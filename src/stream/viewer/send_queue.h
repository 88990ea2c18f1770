// What one viewer has still to be sent: bounded in frames and bytes. When a
// viewer falls behind, its pending delta frames are useless (each depends on
// the one before), so they are all dropped at once and the viewer waits for
// the next key frame, which the caller then asks the encoder for. A slow
// viewer therefore costs a bounded amount of memory and never holds back
// the others. A striped picture's frames (one per changed band) count as
// one picture against the bound; its stripes restart together, so only
// stripe 0's key frame ends the wait. Pure logic; one thread (the viewer's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

#include "encode/encoded_frame.h"

namespace voxl::stream {

class SendQueue {
 public:
  // max_frames: pictures (a striped picture's parts count once).
  SendQueue(size_t max_frames, size_t max_bytes) : max_frames_(max_frames), max_bytes_(max_bytes) {}

  enum class Push {
    kQueued,
    kDropped,        // waiting for a key frame; this delta is useless
    kNeedKeyframe,   // the queue overflowed: everything pending was dropped
  };
  Push push(encode::EncodedFramePtr frame);

  bool empty() const { return frames_.empty(); }
  size_t size() const { return frames_.size(); }  // frames (parts), not pictures
  size_t bytes() const { return bytes_; }
  bool waiting_for_key() const { return waiting_for_key_; }
  encode::EncodedFramePtr pop();
  // The viewer's decoder was reset: every pending delta, and every delta
  // until the next key frame, is useless to it.
  void drop_until_key();
  const encode::EncodedFrame* peek() const { return frames_.empty() ? nullptr : frames_.front().get(); }

  // Frames dropped since the start.
  uint64_t dropped() const { return dropped_; }

 private:
  void clear();  // drops everything pending, counting it

  size_t max_frames_;
  size_t pictures_ = 0;  // pending frames that end a picture
  size_t max_bytes_;
  std::deque<encode::EncodedFramePtr> frames_;
  size_t bytes_ = 0;
  bool waiting_for_key_ = true;  // a new viewer starts on a key frame
  uint64_t dropped_ = 0;
};

}  // namespace voxl::stream
