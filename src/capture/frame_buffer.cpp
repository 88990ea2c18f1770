#include "capture/frame_buffer.h"

#include <new>

#include "capture/frame_pool.h"

namespace voxl::capture {

namespace {

// 64-byte aligned pixels through the aligned operator new (the Windows C
// runtime has no std::aligned_alloc).
constexpr std::align_val_t kPixelAlignment{64};

class HeapFrameBuffer final : public FrameBuffer {
 public:
  HeapFrameBuffer(uint8_t* data, Size size, int stride) : FrameBuffer(data, size, stride) {}
  ~HeapFrameBuffer() override { ::operator delete(data(), kPixelAlignment); }
};

}  // namespace

std::unique_ptr<FrameBuffer> make_heap_frame_buffer(Size size) {
  const int stride = aligned_stride(size.width);
  const auto bytes = buffer_bytes(stride, size.height);
  if (!bytes) return nullptr;
  auto* p = static_cast<uint8_t*>(::operator new(*bytes, kPixelAlignment, std::nothrow));
  if (!p) return nullptr;
  return std::make_unique<HeapFrameBuffer>(p, size, stride);
}

}  // namespace voxl::capture
