// capture::Capturer for a desktop reached through the portal: a reader of
// the portal session's PipeWire stream of the monitor (pipewire_stream.h).
// Damage driven: the desktop sends a picture only when something changed,
// with the boxes that did; an idle desktop costs nothing. What changed (and
// what a reused pool buffer lacks) is copied from the producer's buffer into
// the frame, red and blue swapped where the format has them the other way.
// A key frame with nothing new is copied from the newest picture, which the
// stream keeps. With a region (--capture-region) only that part of the
// monitor's picture is copied, its damage counted from the region's corner;
// a change outside it is no frame.
//
// Threads: see capture::Capturer. Shares the portal session, and its
// stream, with the desktop's other products.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/logging.h"
#include "capture/capturer.h"
#include "capture/pending_damage.h"
#include "platform/owned_file.h"

namespace voxl::platform::portal {

class PortalSession;
class StreamReader;

class PortalCapturer final : public capture::Capturer {
 public:
  // `region`: the part of the monitor's picture to capture, in its pixels
  // (empty: all of it). Throws std::runtime_error when the session has
  // ended, the stream cannot be connected, or the region does not lie on
  // the picture.
  PortalCapturer(std::shared_ptr<PortalSession> session, Logger log, Rect region = {});
  ~PortalCapturer() override;

  capture::CaptureResult capture(capture::FramePool& pool, std::chrono::milliseconds timeout) override;
  bool wait_for_change(std::chrono::milliseconds timeout) override;
  void invalidate(const Rect& r) override;
  void wake() override;
  Size size() const override { return size_; }
  Point origin() const override { return {region_.x, region_.y}; }
  std::string describe() const override;

 private:
  // Takes the stream's news: its size and damage; false when it failed.
  bool take_stream_news();
  // The pending blocks copied from the newest picture into a frame, under
  // the stream's lock; null when there is no picture of the current size
  // yet, or no free buffer (pool_exhausted_).
  capture::FrameRef copy_pending(capture::FramePool& pool);
  void drain_wake();
  // Why the region cannot be captured from the picture as it is now.
  std::string region_outside() const;

  Logger log_;
  std::shared_ptr<PortalSession> session_;
  std::unique_ptr<StreamReader> reader_;
  Rect region_;   // empty: the whole picture
  Size picture_;  // the monitor's picture's size, as the stream last said
  Size size_;     // the frames': the region's, or the picture's
  capture::PendingDamage pending_;
  bool pool_exhausted_ = false;
  uint64_t seq_ = 0;
  std::string lost_;
  OwnedFile wake_fd_;
};

}  // namespace voxl::platform::portal
