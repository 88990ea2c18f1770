// capture::Capturer for a wlroots compositor's output, through
// wlr-screencopy (screencopy_stream.h): damage driven, since the
// compositor answers a frame asked for after damage only once something
// changed, with the boxes that did. The compositor writes the whole output
// into a shared-memory picture the capturer keeps; what changed (and what a
// reused pool buffer lacks) is copied from it into the frame, turned into
// BGRX where the compositor's format differs.
//
// A grab waits for the compositor: capture() with something pending (an
// invalidate(), a change already reported) waits up to 2 s for the frame
// whatever its timeout.
//
// The first output the compositor lists is captured, whole or a region of
// it (--capture-region): the compositor still copies the whole output, and
// only the region is copied into frames, its damage counted from the
// region's corner; a change outside it is no frame.
//
// Threads: see capture::Capturer. Owns its own Wayland connection.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/block_map.h"
#include "base/logging.h"
#include "capture/capturer.h"
#include "capture/pending_damage.h"
#include "platform/owned_file.h"

namespace voxl::platform::wayland {

class ScreencopyStream;
class WaylandDisplay;

class ScreencopyCapturer final : public capture::Capturer {
 public:
  // `display`: the compositor's socket (see socket_path); `region`: the
  // part of the output to capture, in its pixels (empty: all of it). Throws
  // std::runtime_error with a readable message when it cannot be reached,
  // offers no screencopy, or the region does not lie on the output.
  ScreencopyCapturer(const std::string& display, Logger log, Rect region = {});
  ~ScreencopyCapturer() override;

  capture::CaptureResult capture(capture::FramePool& pool, std::chrono::milliseconds timeout) override;
  bool wait_for_change(std::chrono::milliseconds timeout) override;
  void invalidate(const Rect& r) override;
  void wake() override;
  Size size() const override { return size_; }
  Point origin() const override { return {region_.x, region_.y}; }
  std::string describe() const override;

 private:
  // Asks for a frame if none is in flight (at once when something is
  // pending here) and waits for it until `deadline`; true once one is in.
  bool wait_for_frame(std::chrono::steady_clock::time_point deadline);
  // Asks for the next frame after damage as soon as this one is read.
  void ask_ahead();
  // The frame from the shared-memory picture: `blocks` of it.
  void copy_blocks(const BlockMap& blocks, capture::Frame& frame) const;
  // Why the region cannot be captured from the output as it is now.
  std::string region_outside() const;

  Logger log_;
  std::unique_ptr<WaylandDisplay> display_;
  std::unique_ptr<ScreencopyStream> stream_;
  Rect region_;   // empty: the whole output
  Size output_;   // the output's size at the last frame
  Size size_;     // the frames': the region's, or the output's
  capture::PendingDamage pending_;
  uint64_t seq_ = 0;
  std::string lost_;  // why the connection is gone, once it is
  OwnedFile wake_fd_;
};

}  // namespace voxl::platform::wayland
