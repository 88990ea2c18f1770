// One output's pictures through wlr-screencopy, one frame at a time, each
// into a shared-memory picture the stream keeps and reuses (made again only
// when the compositor asks for another format or size). The cursor is left
// out: viewers draw it themselves.
//
// A frame asked for "after damage" (copy_with_damage) is answered only once
// something on the output changed since the stream's last frame, so an idle
// desktop costs nothing while one waits; the answer lists what changed.
//
// Threads: the thread that owns the WaylandDisplay, which must outlive the
// stream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "platform/wayland/shm_picture.h"
#include "platform/wayland/wayland_display.h"

struct zwlr_screencopy_frame_v1;

namespace voxl::platform::wayland {

// The wl_shm formats a picture may come in that voxl reads: 32 bits a pixel,
// red, green and blue in either order.
bool readable_format(uint32_t format);
// Whether a picture of `format` has its red in the low byte (wl_shm's
// ABGR/XBGR, bytes R G B X), unlike voxl's BGRX.
bool red_first(uint32_t format);

class ScreencopyStream {
 public:
  // Throws std::runtime_error when the compositor has no screencopy.
  explicit ScreencopyStream(WaylandDisplay& display);
  ~ScreencopyStream();
  ScreencopyStream(const ScreencopyStream&) = delete;
  ScreencopyStream& operator=(const ScreencopyStream&) = delete;

  enum class State { kIdle, kWaiting, kReady, kFailed };
  State state() const { return state_; }
  bool waiting_for_damage() const { return state_ == State::kWaiting && after_damage_; }
  // kWaiting, and the compositor has been told where to copy the picture
  // (it copies when it next draws; after damage, when that changed something).
  bool copy_asked() const { return state_ == State::kWaiting && copy_asked_; }

  // Asks for the next frame: once something changed (`after_damage`) or at
  // once. A frame already asked for after damage is given up and asked for
  // again at once when `after_damage` is false; otherwise a frame in flight
  // stays. Call in kIdle or kWaiting.
  void request(bool after_damage);

  // After kReady: the whole picture, whether its rows are bottom to top,
  // and what changed since the previous frame (the whole picture for a
  // frame asked for at once, the first one and after a size change).
  const ShmPicture* picture() const { return picture_.get(); }
  bool y_inverted() const { return y_invert_; }
  const std::vector<Rect>& damage() const { return damage_; }
  // After kFailed: why.
  const std::string& failure() const { return failure_; }
  // Back to kIdle once the result was read.
  void consume();

 private:
  static void on_buffer(void* self, zwlr_screencopy_frame_v1*, uint32_t format, uint32_t width, uint32_t height,
                        uint32_t stride);
  static void on_flags(void* self, zwlr_screencopy_frame_v1*, uint32_t flags);
  static void on_ready(void* self, zwlr_screencopy_frame_v1*, uint32_t, uint32_t, uint32_t);
  static void on_failed(void* self, zwlr_screencopy_frame_v1*);
  static void on_damage(void* self, zwlr_screencopy_frame_v1*, uint32_t x, uint32_t y, uint32_t width,
                        uint32_t height);
  static void on_dmabuf(void* self, zwlr_screencopy_frame_v1*, uint32_t, uint32_t, uint32_t);
  static void on_buffer_done(void* self, zwlr_screencopy_frame_v1*);
  // The compositor said which pictures it can fill: copy into ours.
  void copy();
  void fail(std::string why);
  void drop_frame();

  WaylandDisplay& display_;
  zwlr_screencopy_frame_v1* frame_ = nullptr;
  State state_ = State::kIdle;
  bool after_damage_ = false;
  // The shared-memory picture offered for the frame in flight.
  bool offered_ = false;
  bool copy_asked_ = false;
  uint32_t offered_format_ = 0;
  Size offered_size_;
  int offered_stride_ = 0;
  std::unique_ptr<ShmPicture> picture_;
  bool size_changed_ = true;
  bool y_invert_ = false;
  std::vector<Rect> damage_;
  std::string failure_;
};

}  // namespace voxl::platform::wayland
