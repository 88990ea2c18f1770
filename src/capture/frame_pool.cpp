#include "capture/frame_pool.h"

#include <cstdlib>
#include <limits>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

namespace voxl::capture {

int aligned_stride(int width) {
  if (width <= 0 || width > (std::numeric_limits<int>::max() - 63) / kBytesPerPixel) return 0;
  return (width * kBytesPerPixel + 63) & ~63;
}

std::optional<size_t> buffer_bytes(int stride, int height) {
  if (stride <= 0 || height <= 0) return std::nullopt;
  if (size_t(stride) > std::numeric_limits<size_t>::max() / size_t(height)) return std::nullopt;
  return size_t(stride) * size_t(height);
}

namespace {

// Buffers are aligned to cache lines through the aligned operator new, which
// every platform has (std::aligned_alloc is missing from Windows' C runtime).
constexpr std::align_val_t kBufferAlign{64};

struct AlignedFree {
  void operator()(uint8_t* p) const { ::operator delete(p, kBufferAlign); }
};

struct Slot {
  std::unique_ptr<uint8_t, AlignedFree> pixels;
  Size size;
  int stride = 0;
  bool in_use = false;
  bool filled = false;  // holds a complete picture of `size`
  uint64_t published = 0;  // publish counter when it last became the newest; 0 = never
  BlockMap stale;
};

}  // namespace

struct FramePool::State {
  std::mutex mu;  // guards `in_use` against releases from other threads
  std::vector<Slot> slots;
  uint64_t publish_count = 0;
  int newest = -1;
};

FramePool::FramePool(size_t capacity) : state_(std::make_shared<State>()) {
  if (capacity == 0) throw std::invalid_argument("FramePool capacity must be at least 1");
  state_->slots.resize(capacity);
}

FramePool::~FramePool() = default;

std::optional<FramePool::Lease> FramePool::acquire(Size size) {
  if (size.empty()) return std::nullopt;
  State& s = *state_;
  std::unique_lock lock(s.mu);
  // Prefer the least recently published free buffer, so the newest picture
  // stays readable as the copy source.
  int pick = -1;
  for (int i = 0; i < int(s.slots.size()); ++i) {
    const Slot& slot = s.slots[size_t(i)];
    if (slot.in_use) continue;
    if (pick < 0 || slot.published < s.slots[size_t(pick)].published) pick = i;
  }
  if (pick < 0) return std::nullopt;
  Slot& slot = s.slots[size_t(pick)];
  slot.in_use = true;
  lock.unlock();

  if (slot.size != size || !slot.pixels) {
    const int stride = aligned_stride(size.width);
    const auto bytes = buffer_bytes(stride, size.height);
    if (!bytes) {
      std::lock_guard relock(s.mu);
      slot.in_use = false;
      return std::nullopt;
    }
    slot.pixels.reset(static_cast<uint8_t*>(::operator new(*bytes, kBufferAlign, std::nothrow)));
    if (!slot.pixels) {
      std::lock_guard relock(s.mu);
      slot.in_use = false;
      return std::nullopt;
    }
    slot.size = size;
    slot.stride = stride;
    slot.filled = false;
    slot.stale = BlockMap(size);
  }

  Lease lease;
  auto state = state_;
  Slot* raw = &slot;  // slots never move: the vector is sized once
  lease.frame = FrameRef(new Frame(slot.pixels.get(), size, slot.stride), [state, raw](Frame* f) {
    delete f;
    std::lock_guard release(state->mu);
    raw->in_use = false;
  });
  const Slot* newest = s.newest >= 0 ? &s.slots[size_t(s.newest)] : nullptr;
  if (newest && newest->filled && newest->size == size) {
    lease.source = newest->pixels.get();
    lease.source_stride = newest->stride;
    if (slot.filled) {
      lease.stale = slot.stale;
    } else {
      lease.stale = BlockMap(size);
      lease.stale.add_all();
    }
  } else {
    lease.stale = BlockMap(size);
    lease.stale.add_all();
  }
  return lease;
}

void FramePool::publish(const Frame& frame, const BlockMap& changed) {
  State& s = *state_;
  for (int i = 0; i < int(s.slots.size()); ++i) {
    Slot& slot = s.slots[size_t(i)];
    if (slot.pixels.get() == frame.data()) {
      slot.filled = true;
      slot.stale.clear();
      slot.published = ++s.publish_count;
      s.newest = i;
    } else if (slot.size == frame.size() && slot.filled) {
      slot.stale.unite(changed);
    }
  }
}

void FramePool::discard(const Frame& frame) {
  State& s = *state_;
  for (int i = 0; i < int(s.slots.size()); ++i) {
    Slot& slot = s.slots[size_t(i)];
    if (slot.pixels.get() != frame.data()) continue;
    slot.filled = false;
    if (s.newest == i) s.newest = -1;
  }
}

size_t FramePool::capacity() const { return state_->slots.size(); }

size_t FramePool::in_use() const {
  std::lock_guard lock(state_->mu);
  size_t n = 0;
  for (const Slot& slot : state_->slots) n += slot.in_use ? 1 : 0;
  return n;
}

}  // namespace voxl::capture
