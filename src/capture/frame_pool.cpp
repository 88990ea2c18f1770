#include "capture/frame_pool.h"

#include <limits>
#include <mutex>
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

struct Slot {
  std::unique_ptr<FrameBuffer> buffer;
  // Who made `buffer` (null: the heap); held so that its address cannot be
  // reused by another allocator while compared against.
  std::shared_ptr<FrameBufferAllocator> made_by;
  bool in_use = false;
  bool filled = false;  // holds a complete picture of its size
  uint64_t published = 0;  // publish counter when it last became the newest; 0 = never
  BlockMap stale;

  const uint8_t* pixels() const { return buffer ? buffer->data() : nullptr; }
  Size size() const { return buffer ? buffer->size() : Size{}; }
};

}  // namespace

struct FramePool::State {
  std::mutex mu;  // guards `in_use` against releases from other threads
  std::vector<Slot> slots;
  uint64_t publish_count = 0;
  int newest = -1;
  bool allocation_failed = false;  // capturing thread only
};

FramePool::FramePool(size_t capacity) : state_(std::make_shared<State>()) {
  if (capacity == 0) throw std::invalid_argument("FramePool capacity must be at least 1");
  state_->slots.resize(capacity);
}

FramePool::~FramePool() = default;

std::optional<FramePool::Lease> FramePool::acquire(
    Size size, const std::shared_ptr<FrameBufferAllocator>& allocator) {
  State& s = *state_;
  s.allocation_failed = false;
  if (size.empty()) return std::nullopt;
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

  if (!slot.buffer || slot.size() != size || slot.made_by != allocator) {
    // The old buffer goes first: never hold two of one slot.
    slot.buffer.reset();
    slot.made_by.reset();
    slot.filled = false;
    slot.buffer = allocator ? allocator->allocate(size) : make_heap_frame_buffer(size);
    if (!slot.buffer || slot.buffer->size() != size) {
      slot.buffer.reset();
      s.allocation_failed = true;
      std::lock_guard relock(s.mu);
      slot.in_use = false;
      return std::nullopt;
    }
    slot.made_by = allocator;
    slot.stale = BlockMap(size);
  }

  Lease lease;
  auto state = state_;
  Slot* raw = &slot;  // slots never move: the vector is sized once
  lease.frame = FrameRef(new Frame(*slot.buffer), [state, raw](Frame* f) {
    delete f;
    std::lock_guard release(state->mu);
    raw->in_use = false;
  });
  const Slot* newest = s.newest >= 0 ? &s.slots[size_t(s.newest)] : nullptr;
  if (newest && newest->filled && newest->size() == size) {
    lease.source = newest->pixels();
    lease.source_stride = newest->buffer->stride();
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
    if (slot.pixels() == frame.data()) {
      slot.filled = true;
      slot.stale.clear();
      slot.published = ++s.publish_count;
      s.newest = i;
    } else if (slot.size() == frame.size() && slot.filled) {
      slot.stale.unite(changed);
    }
  }
}

void FramePool::discard(const Frame& frame) {
  State& s = *state_;
  for (int i = 0; i < int(s.slots.size()); ++i) {
    Slot& slot = s.slots[size_t(i)];
    if (slot.pixels() != frame.data()) continue;
    slot.filled = false;
    if (s.newest == i) s.newest = -1;
  }
}

bool FramePool::allocation_failed() const { return state_->allocation_failed; }

size_t FramePool::capacity() const { return state_->slots.size(); }

size_t FramePool::in_use() const {
  std::lock_guard lock(state_->mu);
  size_t n = 0;
  for (const Slot& slot : state_->slots) n += slot.in_use ? 1 : 0;
  return n;
}

}  // namespace voxl::capture
