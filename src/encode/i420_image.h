// A planar YUV picture in aligned buffers: what x264 encodes. 4:2:0 (the
// picture in motion, Constrained Baseline) or 4:4:4 (full-resolution
// chroma for a still screen, High 4:4:4 Predictive), in limited or full
// range. It persists between frames, so only the damaged parts are
// converted again. Owned by the video thread.
#pragma once

#include <cstdint>
#include <memory>

#include "base/geometry.h"

namespace voxl::encode {

enum class ChromaFormat { k420, k444 };

// How the 8-bit code values span the signal: "limited" (studio swing, Y
// 16-235, chroma 16-240) or "full" (0-255, like JPEG). Said in the VUI.
enum class ColourRange { kLimited, kFull };

// A read-only window onto an I420Image's planes: the whole picture, or a
// horizontal band of it (what one stripe's encoder codes). Valid while the
// image lives and keeps its size.
struct PictureView {
  Size size;
  ChromaFormat chroma = ChromaFormat::k420;
  ColourRange range = ColourRange::kLimited;
  const uint8_t* y = nullptr;
  const uint8_t* u = nullptr;
  const uint8_t* v = nullptr;
  int stride_y = 0;
  int stride_uv = 0;
};

class I420Image {
 public:
  I420Image() = default;
  // 4:2:0 needs an even size in both directions.
  explicit I420Image(Size size, ChromaFormat chroma = ChromaFormat::k420,
                     ColourRange range = ColourRange::kLimited);

  Size size() const { return size_; }
  ChromaFormat chroma() const { return chroma_; }
  ColourRange range() const { return range_; }
  uint8_t* y() { return y_.get(); }
  uint8_t* u() { return u_.get(); }
  uint8_t* v() { return v_.get(); }
  const uint8_t* y() const { return y_.get(); }
  const uint8_t* u() const { return u_.get(); }
  const uint8_t* v() const { return v_.get(); }
  int stride_y() const { return stride_y_; }
  int stride_uv() const { return stride_uv_; }
  // Chroma samples per luma sample in each direction: 2 for 4:2:0, 1 for 4:4:4.
  int chroma_step() const { return chroma_ == ChromaFormat::k420 ? 2 : 1; }

  PictureView view() const;
  // Rows [top, top + height) across the whole width; `top` and `height`
  // even (4:2:0 chroma rows are shared by two luma rows) and inside the
  // picture, or std::invalid_argument.
  PictureView band(int top, int height) const;

 private:
  struct Free {
    void operator()(uint8_t* p) const;
  };
  Size size_;
  ChromaFormat chroma_ = ChromaFormat::k420;
  ColourRange range_ = ColourRange::kLimited;
  int stride_y_ = 0;
  int stride_uv_ = 0;
  std::unique_ptr<uint8_t, Free> y_, u_, v_;
};

// x264 needs even sizes for 4:2:0; an odd last column or row is left out.
// (The 4:4:4 picture uses the same size, so the two paths switch without a
// change of picture size.)
Size encodable_size(Size s);

}  // namespace voxl::encode
