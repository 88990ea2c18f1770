// A planar YUV 4:2:0 picture in aligned buffers: what x264 encodes. It
// persists between frames, so only the damaged parts are converted again.
// Owned by the video thread.
#pragma once

#include <cstdint>
#include <memory>

#include "base/geometry.h"

namespace voxl::encode {

class I420Image {
 public:
  I420Image() = default;
  explicit I420Image(Size size);  // size must be even in both directions

  Size size() const { return size_; }
  uint8_t* y() { return y_.get(); }
  uint8_t* u() { return u_.get(); }
  uint8_t* v() { return v_.get(); }
  const uint8_t* y() const { return y_.get(); }
  const uint8_t* u() const { return u_.get(); }
  const uint8_t* v() const { return v_.get(); }
  int stride_y() const { return stride_y_; }
  int stride_uv() const { return stride_uv_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const;
  };
  Size size_;
  int stride_y_ = 0;
  int stride_uv_ = 0;
  std::unique_ptr<uint8_t, Free> y_, u_, v_;
};

// x264 needs even sizes for 4:2:0; an odd last column or row is left out.
Size encodable_size(Size s);

}  // namespace voxl::encode
