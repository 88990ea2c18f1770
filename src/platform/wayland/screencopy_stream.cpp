#include "platform/wayland/screencopy_stream.h"

#include <stdexcept>

#include <wayland-client.h>

#include "wlr-screencopy-unstable-v1-client.h"

namespace voxl::platform::wayland {

bool readable_format(uint32_t format) {
  return format == WL_SHM_FORMAT_ARGB8888 || format == WL_SHM_FORMAT_XRGB8888 || red_first(format);
}

bool red_first(uint32_t format) { return format == WL_SHM_FORMAT_ABGR8888 || format == WL_SHM_FORMAT_XBGR8888; }

ScreencopyStream::ScreencopyStream(WaylandDisplay& display) : display_(display) {
  if (!display_.screencopy())
    throw std::runtime_error("the Wayland compositor at " + display_.path() +
                             " does not offer screen capture to clients (wlr-screencopy): it is not a wlroots "
                             "compositor; GNOME and KDE are reached through the desktop portal");
}

ScreencopyStream::~ScreencopyStream() { drop_frame(); }

void ScreencopyStream::drop_frame() {
  if (frame_) zwlr_screencopy_frame_v1_destroy(frame_);
  frame_ = nullptr;
}

void ScreencopyStream::request(bool after_damage) {
  if (state_ == State::kWaiting) {
    if (!after_damage_ || after_damage) return;
    drop_frame();  // waiting for a change, but the picture is wanted now
  }
  static constexpr zwlr_screencopy_frame_v1_listener listener = {
      .buffer = &ScreencopyStream::on_buffer,
      .flags = &ScreencopyStream::on_flags,
      .ready = &ScreencopyStream::on_ready,
      .failed = &ScreencopyStream::on_failed,
      .damage = &ScreencopyStream::on_damage,
      .linux_dmabuf = &ScreencopyStream::on_dmabuf,
      .buffer_done = &ScreencopyStream::on_buffer_done,
  };
  after_damage_ = after_damage && display_.screencopy_version() >= 2;
  offered_ = false;
  copy_asked_ = false;
  y_invert_ = false;
  damage_.clear();
  failure_.clear();
  frame_ = zwlr_screencopy_manager_v1_capture_output(display_.screencopy(), 0, display_.output());
  zwlr_screencopy_frame_v1_add_listener(frame_, &listener, this);
  state_ = State::kWaiting;
}

void ScreencopyStream::consume() {
  if (state_ == State::kReady || state_ == State::kFailed) state_ = State::kIdle;
}

void ScreencopyStream::fail(std::string why) {
  drop_frame();
  failure_ = std::move(why);
  state_ = State::kFailed;
}

void ScreencopyStream::on_buffer(void* data, zwlr_screencopy_frame_v1*, uint32_t format, uint32_t width,
                                 uint32_t height, uint32_t stride) {
  auto* self = static_cast<ScreencopyStream*>(data);
  if (self->offered_ || !readable_format(format)) return;
  self->offered_ = true;
  self->offered_format_ = format;
  self->offered_size_ = Size{int(width), int(height)};
  self->offered_stride_ = int(stride);
  // Before version 3 the compositor says no more: copy now.
  if (self->display_.screencopy_version() < 3) self->copy();
}

void ScreencopyStream::on_buffer_done(void* data, zwlr_screencopy_frame_v1*) {
  static_cast<ScreencopyStream*>(data)->copy();
}

void ScreencopyStream::on_dmabuf(void*, zwlr_screencopy_frame_v1*, uint32_t, uint32_t, uint32_t) {
  // GPU buffers are not read: the shared-memory picture is enough for
  // software encoding, and it is what every wlroots compositor offers.
}

void ScreencopyStream::copy() {
  if (!offered_) {
    fail("the compositor offers no shared-memory picture in a format voxl reads (32-bit RGB)");
    return;
  }
  if (!picture_ || !picture_->fits(offered_format_, offered_size_, offered_stride_)) {
    std::string why;
    size_changed_ = size_changed_ || !picture_ || picture_->size() != offered_size_;
    picture_ = ShmPicture::make(display_.shm(), offered_format_, offered_size_, offered_stride_, why);
    if (!picture_) {
      fail(why);
      return;
    }
  }
  if (after_damage_) zwlr_screencopy_frame_v1_copy_with_damage(frame_, picture_->buffer());
  else zwlr_screencopy_frame_v1_copy(frame_, picture_->buffer());
  copy_asked_ = true;
}

void ScreencopyStream::on_flags(void* data, zwlr_screencopy_frame_v1*, uint32_t flags) {
  static_cast<ScreencopyStream*>(data)->y_invert_ = (flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT) != 0;
}

void ScreencopyStream::on_damage(void* data, zwlr_screencopy_frame_v1*, uint32_t x, uint32_t y, uint32_t width,
                                 uint32_t height) {
  auto* self = static_cast<ScreencopyStream*>(data);
  // Bounded: a compositor that sends many boxes gets them merged into one.
  const Rect r{int(x), int(y), int(width), int(height)};
  if (self->damage_.size() < 64) self->damage_.push_back(r);
  else self->damage_.back() = self->damage_.back().bounding(r);
}

void ScreencopyStream::on_ready(void* data, zwlr_screencopy_frame_v1*, uint32_t, uint32_t, uint32_t) {
  auto* self = static_cast<ScreencopyStream*>(data);
  self->drop_frame();
  const Rect whole = Rect::from_size(self->picture_->size());
  if (!self->after_damage_ || self->size_changed_ || self->damage_.empty()) self->damage_ = {whole};
  // Boxes are in the picture's own rows: turned over with it.
  for (Rect& r : self->damage_) {
    r = r.intersect(whole);
    if (self->y_invert_) r.y = whole.height - r.y - r.height;
  }
  self->size_changed_ = false;
  self->state_ = State::kReady;
}

void ScreencopyStream::on_failed(void* data, zwlr_screencopy_frame_v1*) {
  static_cast<ScreencopyStream*>(data)->fail("the compositor could not copy the output");
}

}  // namespace voxl::platform::wayland
