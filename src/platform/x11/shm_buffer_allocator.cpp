#include "platform/x11/shm_buffer_allocator.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

#include "capture/frame.h"
#include "capture/frame_pool.h"
#include "platform/x11/pixel_source.h"
#include "platform/x11/xcb_util.h"

namespace voxl::platform::x11 {

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kMinStaging = 64 * 1024;

size_t round_up_to_page(size_t n) { return (n + kPage - 1) / kPage * kPage; }

// Detaches `segs` and waits for the server: after this it writes none of them.
void detach_all(xcb_connection_t* c, const std::vector<xcb_shm_seg_t>& segs) {
  std::vector<xcb_void_cookie_t> cookies;
  cookies.reserve(segs.size());
  for (xcb_shm_seg_t s : segs) cookies.push_back(xcb_shm_detach_checked(c, s));
  // An error (another client detached it, the connection broke) changes
  // nothing for us: the server holds the segment no longer either way.
  for (xcb_void_cookie_t k : cookies) XcbPtr<xcb_generic_error_t> ignored(xcb_request_check(c, k));
}

}  // namespace

// What the allocator and its buffers share: which segments are attached on
// the server and which of them wait for the connection's thread to detach
// them. Both lists are bounded by the buffers alive (the pool's capacity).
struct ShmFrameBuffer::Registry {
  std::mutex mu;
  bool open = true;  // false once the allocator closed or went away
  std::vector<xcb_shm_seg_t> attached;
  std::vector<xcb_shm_seg_t> to_detach;
};

ShmFrameBuffer::ShmFrameBuffer(std::unique_ptr<ShmMemory> memory, Size size, xcb_shm_seg_t seg,
                               size_t staging_offset, std::shared_ptr<Registry> registry)
    : FrameBuffer(memory->data(), size, size.width * capture::kBytesPerPixel),
      memory_(std::move(memory)),
      seg_(seg),
      staging_offset_(staging_offset),
      registry_(std::move(registry)) {}

ShmFrameBuffer::~ShmFrameBuffer() {
  {
    std::lock_guard lock(registry_->mu);
    auto& a = registry_->attached;
    const auto it = std::find(a.begin(), a.end(), seg_);
    if (registry_->open && it != a.end()) {
      a.erase(it);
      registry_->to_detach.push_back(seg_);
    }
  }
  // The server never writes into our mapping: only into its own, and only
  // when asked by a ShmGetImage of the connection's thread, none of which
  // can be in flight for a buffer nobody holds. So unmapping before the
  // server detaches is safe; the memory goes when both have let go.
  memory_.reset();
}

bool ShmFrameBuffer::made_by(const ShmBufferAllocator& allocator) const {
  return registry_ == allocator.registry_;
}

ShmBufferAllocator::ShmBufferAllocator(xcb_connection_t* c, ShmKind kind)
    : c_(c), kind_(kind), registry_(std::make_shared<ShmFrameBuffer::Registry>()) {
  registry_->open = true;
}

ShmBufferAllocator::~ShmBufferAllocator() {
  std::lock_guard lock(registry_->mu);
  registry_->open = false;
}

size_t ShmBufferAllocator::staging_bytes_for(size_t picture_bytes, size_t row_bytes) {
  return round_up_to_page(std::max({kMinStaging, picture_bytes / 4, row_bytes}));
}

std::unique_ptr<capture::FrameBuffer> ShmBufferAllocator::allocate(Size size) {
  collect();  // a replaced buffer's segment goes before the new one comes
  {
    std::lock_guard lock(registry_->mu);
    if (!registry_->open) {
      last_error_ = "the shared-memory allocator is closed";
      return nullptr;
    }
  }
  const auto picture = capture::buffer_bytes(size.width * capture::kBytesPerPixel, size.height);
  if (!picture || size.width > (1 << 16) || size.height > (1 << 16)) {
    last_error_ = "capture size " + size_text(size) + " is invalid";
    return nullptr;
  }
  const size_t staging_offset = round_up_to_page(*picture);
  const size_t bytes =
      staging_offset + staging_bytes_for(*picture, size_t(size.width) * capture::kBytesPerPixel);
  if (bytes > UINT32_MAX) {  // ShmGetImage's offsets are 32-bit
    last_error_ = "capture size " + size_text(size) + " is too large for a segment";
    return nullptr;
  }
  auto memory = ShmMemory::create(bytes, kind_, *picture, last_error_);
  if (!memory) return nullptr;
  const xcb_shm_seg_t seg = xcb_generate_id(c_);
  last_error_ = attach_shm(c_, seg, *memory);
  if (!last_error_.empty()) return nullptr;
  {
    std::lock_guard lock(registry_->mu);
    registry_->attached.push_back(seg);
  }
  return std::make_unique<ShmFrameBuffer>(std::move(memory), size, seg, staging_offset, registry_);
}

void ShmBufferAllocator::collect() {
  std::vector<xcb_shm_seg_t> segs;
  {
    std::lock_guard lock(registry_->mu);
    if (registry_->to_detach.empty()) return;
    segs.swap(registry_->to_detach);
  }
  detach_all(c_, segs);
}

void ShmBufferAllocator::close() {
  std::vector<xcb_shm_seg_t> segs;
  {
    std::lock_guard lock(registry_->mu);
    if (!registry_->open) return;
    registry_->open = false;
    segs.swap(registry_->to_detach);
    segs.insert(segs.end(), registry_->attached.begin(), registry_->attached.end());
    registry_->attached.clear();
  }
  detach_all(c_, segs);
}

size_t ShmBufferAllocator::attached_segments() const {
  std::lock_guard lock(registry_->mu);
  return registry_->attached.size() + registry_->to_detach.size();
}

}  // namespace voxl::platform::x11
