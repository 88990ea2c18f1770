// Plain GetImage: every pixel travels through the X connection. Works on any
// server (remote, TCP, no MIT-SHM, any pixel format); the fallback for the
// others.
#pragma once

#include "platform/x11/pixel_format.h"
#include "platform/x11/pixel_source.h"

namespace voxl::platform::x11 {

class GetImageSource final : public PixelSource {
 public:
  GetImageSource(xcb_connection_t* c, PixelFormat fmt, int scanline_pad)
      : c_(c), fmt_(fmt), scanline_pad_(scanline_pad) {}
  SourceKind kind() const override { return SourceKind::kGetImage; }
  std::string describe() const override { return "GetImage"; }
  std::string prepare(Size) override { return {}; }
  std::string grab(xcb_drawable_t drawable, Rect origin, std::span<const Rect> rects,
                   capture::Frame& frame) override;

 private:
  xcb_connection_t* c_;
  PixelFormat fmt_;
  int scanline_pad_;
};

}  // namespace voxl::platform::x11
