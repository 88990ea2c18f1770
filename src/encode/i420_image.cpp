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

I420Image::I420Image(Size size) : size_(size) {
  if (size.empty() || size.width % 2 || size.height % 2)
    throw std::invalid_argument("I420Image needs a non-empty even size");
  stride_y_ = align64(size.width);
  stride_uv_ = align64(size.width / 2);
  // Black: Y 16, U and V 128 (limited range, as x264 expects by default).
  y_.reset(alloc_plane(stride_y_, size.height, 16));
  u_.reset(alloc_plane(stride_uv_, size.height / 2, 128));
  v_.reset(alloc_plane(stride_uv_, size.height / 2, 128));
}

Size encodable_size(Size s) { return {s.width & ~1, s.height & ~1}; }

}  // namespace voxl::encode
