#include "encode/i420_image.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace voxl::encode {

namespace {

int align64(int v) { return (v + 63) & ~63; }

// The aligned operator new: the Windows C runtime has no std::aligned_alloc.
constexpr std::align_val_t kPlaneAlignment{64};

uint8_t* alloc_plane(int stride, int rows, uint8_t fill) {
  const size_t bytes = size_t(stride) * size_t(rows);
  auto* p = static_cast<uint8_t*>(::operator new(bytes, kPlaneAlignment));
  std::memset(p, fill, bytes);
  return p;
}

}  // namespace

void I420Image::Free::operator()(uint8_t* p) const { ::operator delete(p, kPlaneAlignment); }

I420Image::I420Image(Size size, ChromaFormat chroma, ColourRange range)
    : size_(size), chroma_(chroma), range_(range) {
  if (size.empty() || (chroma == ChromaFormat::k420 && (size.width % 2 || size.height % 2)))
    throw std::invalid_argument("I420Image needs a non-empty size, even for 4:2:0");
  const int step = chroma_step();
  stride_y_ = align64(size.width);
  stride_uv_ = align64(size.width / step);
  // Black: Y 16 in limited range, 0 in full; U and V 128.
  y_.reset(alloc_plane(stride_y_, size.height, range == ColourRange::kLimited ? 16 : 0));
  u_.reset(alloc_plane(stride_uv_, size.height / step, 128));
  v_.reset(alloc_plane(stride_uv_, size.height / step, 128));
}

PictureView I420Image::view() const { return band(0, size_.height); }

PictureView I420Image::band(int top, int height) const {
  if (top < 0 || height <= 0 || top + height > size_.height || top % 2 || height % 2)
    throw std::invalid_argument("I420Image::band: rows outside the picture, or odd");
  const int chroma_top = top / chroma_step();
  PictureView v;
  v.size = {size_.width, height};
  v.chroma = chroma_;
  v.range = range_;
  v.y = y_.get() + size_t(top) * size_t(stride_y_);
  v.u = u_.get() + size_t(chroma_top) * size_t(stride_uv_);
  v.v = v_.get() + size_t(chroma_top) * size_t(stride_uv_);
  v.stride_y = stride_y_;
  v.stride_uv = stride_uv_;
  return v;
}

Size encodable_size(Size s) { return {s.width & ~1, s.height & ~1}; }

}  // namespace voxl::encode
