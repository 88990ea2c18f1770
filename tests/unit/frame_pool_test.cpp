#include "capture/frame_pool.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace voxl::capture {
namespace VOXL_TEST_FILE {

constexpr Size kSize{100, 50};

BlockMap blocks(Size frame, std::initializer_list<Rect> rects) {
  BlockMap m(frame);
  for (const Rect& r : rects) m.add(r);
  return m;
}

BlockMap all_blocks(Size frame) {
  BlockMap m(frame);
  m.add_all();
  return m;
}

FramePool::Lease must_acquire(FramePool& pool, Size size) {
  auto lease = pool.acquire(size);
  EXPECT_TRUE(lease.has_value());
  if (!lease) throw std::runtime_error("acquire failed");
  return std::move(*lease);
}

TEST(AlignedStride, PadsRowsToSixtyFourBytes) {
  EXPECT_EQ(aligned_stride(1), 64);
  EXPECT_EQ(aligned_stride(16), 64);
  EXPECT_EQ(aligned_stride(17), 128);
  EXPECT_EQ(aligned_stride(32), 128);
  EXPECT_EQ(aligned_stride(1920), 7680);
  EXPECT_EQ(aligned_stride(1917), 7680);
  EXPECT_EQ(aligned_stride(1279), 5120);
  for (int w = 1; w < 300; ++w) {
    const int s = aligned_stride(w);
    EXPECT_EQ(s % 64, 0) << w;
    EXPECT_GE(s, w * 4) << w;
    EXPECT_LT(s - w * 4, 64) << w;
  }
}

TEST(AlignedStride, NonPositiveWidthGivesZero) {
  EXPECT_EQ(aligned_stride(0), 0);
  EXPECT_EQ(aligned_stride(-1), 0);
  EXPECT_EQ(aligned_stride(INT_MIN), 0);
}

TEST(AlignedStride, OverflowingWidthGivesZero) {
  // The widest row whose padded stride still fits in an int.
  const int widest = (INT_MAX - 63) / 4;
  EXPECT_GT(aligned_stride(widest), 0);
  EXPECT_EQ(aligned_stride(widest) % 64, 0);
  EXPECT_EQ(aligned_stride(widest + 1), 0);
  EXPECT_EQ(aligned_stride(INT_MAX / 4 + 1), 0);
  EXPECT_EQ(aligned_stride(INT_MAX), 0);
}

TEST(BufferBytes, MultipliesStrideByHeight) {
  EXPECT_EQ(buffer_bytes(64, 1), 64u);
  EXPECT_EQ(buffer_bytes(7680, 1080), size_t{7680} * 1080);
  // Large inputs are computed without int overflow.
  EXPECT_EQ(buffer_bytes(INT_MAX, INT_MAX), size_t{INT_MAX} * size_t{INT_MAX});
}

TEST(BufferBytes, RejectsNonPositiveInput) {
  EXPECT_FALSE(buffer_bytes(0, 10));
  EXPECT_FALSE(buffer_bytes(64, 0));
  EXPECT_FALSE(buffer_bytes(-64, 10));
  EXPECT_FALSE(buffer_bytes(64, -10));
  EXPECT_FALSE(buffer_bytes(aligned_stride(INT_MAX), 10));  // an overflowed stride
}

TEST(FramePool, ZeroCapacityIsRejected) {
  EXPECT_THROW(FramePool pool(0), std::invalid_argument);
}

TEST(FramePool, AcquiresUpToCapacityThenReportsExhaustion) {
  FramePool pool(3);
  EXPECT_EQ(pool.capacity(), 3u);
  EXPECT_EQ(pool.in_use(), 0u);
  std::vector<FramePool::Lease> held;
  for (int i = 0; i < 3; ++i) {
    auto lease = pool.acquire(kSize);
    ASSERT_TRUE(lease.has_value()) << i;
    held.push_back(std::move(*lease));
    EXPECT_EQ(pool.in_use(), size_t(i + 1));
  }
  EXPECT_FALSE(pool.acquire(kSize).has_value());
  EXPECT_FALSE(pool.acquire(Size{10, 10}).has_value());
  EXPECT_EQ(pool.in_use(), 3u);
  EXPECT_EQ(pool.capacity(), 3u);

  // Every lease is a distinct buffer.
  EXPECT_NE(held[0].frame->data(), held[1].frame->data());
  EXPECT_NE(held[0].frame->data(), held[2].frame->data());
  EXPECT_NE(held[1].frame->data(), held[2].frame->data());
}

TEST(FramePool, EmptyOrImpossibleSizeIsNotAcquired) {
  FramePool pool(1);
  EXPECT_FALSE(pool.acquire(Size{0, 10}).has_value());
  EXPECT_FALSE(pool.acquire(Size{10, -1}).has_value());
  EXPECT_FALSE(pool.acquire(Size{INT_MAX, 1}).has_value());  // stride overflows
  // Failed attempts leave the buffer free.
  EXPECT_EQ(pool.in_use(), 0u);
  EXPECT_TRUE(pool.acquire(kSize).has_value());
}

TEST(FramePool, LeaseDescribesAnAlignedBufferOfTheRequestedSize) {
  FramePool pool(1);
  auto lease = must_acquire(pool, Size{1917, 3});
  const Frame& f = *lease.frame;
  EXPECT_EQ(f.size(), (Size{1917, 3}));
  EXPECT_EQ(f.stride(), aligned_stride(1917));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f.data()) % 64, 0u);
  // The whole buffer is writable.
  std::memset(lease.frame->data(), 0xab, size_t(f.stride()) * 3);
  EXPECT_EQ(f.pixel(1916, 2), 0xabababu);
}

TEST(FramePool, DroppingTheFrameRefReleasesTheBuffer) {
  FramePool pool(1);
  auto lease = must_acquire(pool, kSize);
  EXPECT_FALSE(pool.acquire(kSize).has_value());
  FrameRef copy = lease.frame;  // a second reference keeps it held
  lease.frame.reset();
  EXPECT_EQ(pool.in_use(), 1u);
  EXPECT_FALSE(pool.acquire(kSize).has_value());
  copy.reset();
  EXPECT_EQ(pool.in_use(), 0u);
  EXPECT_TRUE(pool.acquire(kSize).has_value());
}

TEST(FramePool, FrameRefMayBeReleasedOnAnotherThread) {
  FramePool pool(2);
  auto a = must_acquire(pool, kSize);
  auto b = must_acquire(pool, kSize);
  EXPECT_EQ(pool.in_use(), 2u);
  std::thread t([f = std::move(a.frame), g = std::move(b.frame)]() mutable {
    f.reset();
    g.reset();
  });
  t.join();
  EXPECT_EQ(pool.in_use(), 0u);
  auto c = pool.acquire(kSize);
  auto d = pool.acquire(kSize);
  EXPECT_TRUE(c.has_value());
  EXPECT_TRUE(d.has_value());
}

TEST(FramePool, BuffersOutliveThePool) {
  FrameRef frame;
  {
    FramePool pool(1);
    frame = must_acquire(pool, kSize).frame;
  }
  std::memset(frame->data(), 0x11, size_t(frame->stride()) * size_t(kSize.height));
  EXPECT_EQ(frame->pixel(99, 49), 0x111111u);
  frame.reset();
}

TEST(FramePool, FirstLeaseHasNoSourceAndEverythingStale) {
  FramePool pool(2);
  auto lease = must_acquire(pool, kSize);
  EXPECT_EQ(lease.source, nullptr);
  EXPECT_EQ(lease.stale.frame_size(), kSize);
  EXPECT_EQ(lease.stale, all_blocks(kSize));
}

TEST(FramePool, NextLeaseCopiesFromThePublishedFrame) {
  FramePool pool(2);
  auto a = must_acquire(pool, kSize);
  std::memset(a.frame->data(), 0x42, size_t(a.frame->stride()) * size_t(kSize.height));
  pool.publish(*a.frame, all_blocks(kSize));
  const uint8_t* a_pixels = a.frame->data();
  const int a_stride = a.frame->stride();
  a.frame.reset();

  auto b = must_acquire(pool, kSize);
  EXPECT_NE(b.frame->data(), a_pixels);
  // b never held a picture, so all of it must be copied from a.
  EXPECT_EQ(b.stale, all_blocks(kSize));
  EXPECT_EQ(b.source, a_pixels);
  EXPECT_EQ(b.source_stride, a_stride);
  ASSERT_NE(b.source, nullptr);
  EXPECT_EQ(b.source[0], 0x42);
}

TEST(FramePool, StaleBlocksAreWhatChangedSinceTheBufferWasLastPublished) {
  FramePool pool(3);
  const BlockMap x = blocks(kSize, {Rect{0, 0, 10, 10}});
  const BlockMap y = blocks(kSize, {Rect{40, 20, 30, 5}});
  const BlockMap z = blocks(kSize, {Rect{90, 40, 10, 10}, Rect{0, 0, 1, 1}});

  // Fill all three buffers: a, then b (changing x), then c (changing y).
  auto a = must_acquire(pool, kSize);
  auto b = must_acquire(pool, kSize);
  auto c = must_acquire(pool, kSize);
  const uint8_t* pa = a.frame->data();
  const uint8_t* pb = b.frame->data();
  const uint8_t* pc = c.frame->data();
  pool.publish(*a.frame, all_blocks(kSize));
  pool.publish(*b.frame, x);
  pool.publish(*c.frame, y);
  a.frame.reset();
  b.frame.reset();
  c.frame.reset();

  // a missed both later updates.
  {
    auto lease = must_acquire(pool, kSize);
    ASSERT_EQ(lease.frame->data(), pa);
    EXPECT_EQ(lease.source, pc);
    BlockMap expected = x;
    expected.unite(y);
    EXPECT_EQ(lease.stale, expected);
    // Released without publishing: nothing changes for a.
  }
  auto a2 = must_acquire(pool, kSize);
  ASSERT_EQ(a2.frame->data(), pa);
  pool.publish(*a2.frame, z);

  // b missed c's and a's updates, c only a's.
  auto b2 = must_acquire(pool, kSize);
  ASSERT_EQ(b2.frame->data(), pb);
  EXPECT_EQ(b2.source, pa);
  BlockMap expected_b = y;
  expected_b.unite(z);
  EXPECT_EQ(b2.stale, expected_b);

  auto c2 = must_acquire(pool, kSize);
  ASSERT_EQ(c2.frame->data(), pc);
  EXPECT_EQ(c2.source, pa);
  EXPECT_EQ(c2.stale, z);
}

TEST(FramePool, ReacquiringTheNewestBufferHasNothingStale) {
  FramePool pool(1);
  auto a = must_acquire(pool, kSize);
  const uint8_t* pa = a.frame->data();
  pool.publish(*a.frame, all_blocks(kSize));
  a.frame.reset();
  auto again = must_acquire(pool, kSize);
  EXPECT_EQ(again.frame->data(), pa);
  EXPECT_EQ(again.source, pa);
  EXPECT_TRUE(again.stale.empty());
  EXPECT_EQ(again.stale.frame_size(), kSize);
}

TEST(FramePool, PrefersTheLeastRecentlyPublishedFreeBuffer) {
  FramePool pool(3);
  auto a = must_acquire(pool, kSize);
  auto b = must_acquire(pool, kSize);
  auto c = must_acquire(pool, kSize);
  const uint8_t* pa = a.frame->data();
  const uint8_t* pb = b.frame->data();
  const uint8_t* pc = c.frame->data();
  pool.publish(*b.frame, all_blocks(kSize));
  pool.publish(*c.frame, all_blocks(kSize));
  pool.publish(*a.frame, all_blocks(kSize));
  a.frame.reset();
  b.frame.reset();
  c.frame.reset();

  auto first = must_acquire(pool, kSize);
  auto second = must_acquire(pool, kSize);
  auto third = must_acquire(pool, kSize);
  EXPECT_EQ(first.frame->data(), pb);
  EXPECT_EQ(second.frame->data(), pc);
  EXPECT_EQ(third.frame->data(), pa);
}

TEST(FramePool, NeverPublishedBuffersArePreferredOverPublishedOnes) {
  FramePool pool(2);
  auto a = must_acquire(pool, kSize);
  const uint8_t* pa = a.frame->data();
  pool.publish(*a.frame, all_blocks(kSize));
  a.frame.reset();
  auto next = must_acquire(pool, kSize);
  EXPECT_NE(next.frame->data(), pa);
}

TEST(FramePool, SizeChangeReallocatesWithoutASource) {
  FramePool pool(2);
  auto a = must_acquire(pool, kSize);
  pool.publish(*a.frame, all_blocks(kSize));
  a.frame.reset();

  const Size smaller{32, 20};
  auto b = must_acquire(pool, smaller);
  EXPECT_EQ(b.frame->size(), smaller);
  EXPECT_EQ(b.frame->stride(), aligned_stride(32));
  EXPECT_EQ(b.source, nullptr);
  EXPECT_EQ(b.stale, all_blocks(smaller));
  pool.publish(*b.frame, all_blocks(smaller));
  b.frame.reset();

  // The other buffer still has the old size, but the newest picture does not.
  auto c = must_acquire(pool, kSize);
  EXPECT_EQ(c.frame->size(), kSize);
  EXPECT_EQ(c.source, nullptr);
  EXPECT_EQ(c.stale, all_blocks(kSize));
}

TEST(FramePool, ResizingTheOnlyBufferForgetsItsPicture) {
  FramePool pool(1);
  auto a = must_acquire(pool, kSize);
  pool.publish(*a.frame, all_blocks(kSize));
  a.frame.reset();

  auto b = must_acquire(pool, Size{kSize.width + 1, kSize.height});
  EXPECT_EQ(b.source, nullptr);
  b.frame.reset();  // released without publishing

  auto c = must_acquire(pool, kSize);
  EXPECT_EQ(c.source, nullptr);
  EXPECT_EQ(c.stale, all_blocks(kSize));
}

TEST(FramePool, PublishOfOneSizeDoesNotTouchBuffersOfAnother) {
  FramePool pool(2);
  const Size other{40, 40};
  auto a = must_acquire(pool, kSize);
  auto b = must_acquire(pool, other);
  pool.publish(*a.frame, all_blocks(kSize));
  pool.publish(*b.frame, all_blocks(other));  // must not try to merge maps of different sizes
  pool.publish(*a.frame, blocks(kSize, {Rect{0, 0, 5, 5}}));
  a.frame.reset();
  b.frame.reset();
  auto b2 = must_acquire(pool, other);  // b is the least recently published
  EXPECT_EQ(b2.source, nullptr);        // the newest picture has another size
}

TEST(FramePool, DiscardedNewestBufferIsNotUsedAsASource) {
  FramePool pool(2);
  auto a = must_acquire(pool, kSize);
  const uint8_t* pa = a.frame->data();
  pool.publish(*a.frame, all_blocks(kSize));
  pool.discard(*a.frame);
  a.frame.reset();

  auto b = must_acquire(pool, kSize);
  EXPECT_NE(b.frame->data(), pa);
  EXPECT_EQ(b.source, nullptr);
  EXPECT_EQ(b.stale, all_blocks(kSize));
  pool.publish(*b.frame, all_blocks(kSize));
  b.frame.reset();

  // a must be filled again completely, and not from its own old pixels.
  auto a2 = must_acquire(pool, kSize);
  ASSERT_EQ(a2.frame->data(), pa);
  EXPECT_NE(a2.source, pa);
  EXPECT_EQ(a2.stale, all_blocks(kSize));
}

TEST(FramePool, DiscardedBufferMustBeRefilledCompletely) {
  FramePool pool(2);
  auto a = must_acquire(pool, kSize);
  const uint8_t* pa = a.frame->data();
  pool.publish(*a.frame, all_blocks(kSize));
  a.frame.reset();
  auto b = must_acquire(pool, kSize);
  pool.publish(*b.frame, blocks(kSize, {Rect{0, 0, 1, 1}}));
  b.frame.reset();

  // a is behind by one block; it is leased, partly written, and discarded.
  auto a2 = must_acquire(pool, kSize);
  ASSERT_EQ(a2.frame->data(), pa);
  EXPECT_EQ(a2.stale, blocks(kSize, {Rect{0, 0, 1, 1}}));
  pool.discard(*a2.frame);
  a2.frame.reset();

  auto a3 = must_acquire(pool, kSize);
  ASSERT_EQ(a3.frame->data(), pa);
  EXPECT_NE(a3.source, pa);
  EXPECT_EQ(a3.stale, all_blocks(kSize));
}

}  // namespace
}  // namespace voxl::capture

namespace voxl::capture {
namespace VOXL_TEST_FILE {

// Buffers over a vector, counting what it made and what is still alive.
class CountingAllocator final : public FrameBufferAllocator {
 public:
  struct Counts {
    int made = 0;
    int alive = 0;
  };
  class Buffer final : public FrameBuffer {
   public:
    Buffer(std::vector<uint8_t> px, Size s, std::shared_ptr<Counts> c)
        : FrameBuffer(px.data(), s, s.width * kBytesPerPixel), px_(std::move(px)), counts_(std::move(c)) {}
    ~Buffer() override { --counts_->alive; }

   private:
    std::vector<uint8_t> px_;
    std::shared_ptr<Counts> counts_;
  };
  std::unique_ptr<FrameBuffer> allocate(Size s) override {
    ++counts->made;
    ++counts->alive;
    return std::make_unique<Buffer>(std::vector<uint8_t>(size_t(s.area()) * kBytesPerPixel), s, counts);
  }
  std::shared_ptr<Counts> counts = std::make_shared<Counts>();
};

TEST(FramePoolAllocator, BuffersComeFromTheGivenAllocatorWithItsStride) {
  FramePool pool(2);
  auto alloc = std::make_shared<CountingAllocator>();
  auto lease = pool.acquire({100, 50}, alloc);
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->frame->stride(), 400);
  ASSERT_NE(lease->frame->buffer(), nullptr);
  EXPECT_NE(dynamic_cast<const CountingAllocator::Buffer*>(lease->frame->buffer()), nullptr);
  EXPECT_EQ(alloc->counts->made, 1);
}

TEST(FramePoolAllocator, HeapBuffersByDefault) {
  FramePool pool(1);
  auto lease = pool.acquire({100, 50});
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->frame->stride(), aligned_stride(100));
  EXPECT_NE(lease->frame->buffer(), nullptr);
}

TEST(FramePoolAllocator, AnotherAllocatorReplacesTheBufferAndItsPicture) {
  FramePool pool(1);
  auto a = std::make_shared<CountingAllocator>();
  auto b = std::make_shared<CountingAllocator>();
  {
    auto lease = pool.acquire({100, 50}, a);
    ASSERT_TRUE(lease);
    pool.publish(*lease->frame, BlockMap({100, 50}));
  }
  {
    auto lease = pool.acquire({100, 50}, a);  // same allocator: reused
    ASSERT_TRUE(lease);
    EXPECT_EQ(a->counts->made, 1);
    pool.publish(*lease->frame, BlockMap({100, 50}));
  }
  auto lease = pool.acquire({100, 50}, b);
  ASSERT_TRUE(lease);
  EXPECT_EQ(a->counts->alive, 0) << "the old buffer went before the new one came";
  EXPECT_EQ(b->counts->made, 1);
  EXPECT_EQ(lease->source, nullptr) << "a new buffer holds no picture";
  lease.reset();
  auto heap = pool.acquire({100, 50});
  ASSERT_TRUE(heap);
  EXPECT_EQ(b->counts->alive, 0);
}

TEST(FramePoolAllocator, FailedAllocationLeavesTheBufferFree) {
  class Failing final : public FrameBufferAllocator {
   public:
    std::unique_ptr<FrameBuffer> allocate(Size) override { return nullptr; }
  };
  FramePool pool(1);
  EXPECT_FALSE(pool.acquire({100, 50}, std::make_shared<Failing>()));
  EXPECT_TRUE(pool.allocation_failed());
  EXPECT_EQ(pool.in_use(), 0u);
  auto lease = pool.acquire({100, 50});
  EXPECT_TRUE(lease);
  EXPECT_FALSE(pool.allocation_failed());
  EXPECT_FALSE(pool.acquire({100, 50})) << "all held";
  EXPECT_FALSE(pool.allocation_failed());
}

TEST(FramePoolAllocator, BuffersOfAnAllocatorOutliveItsOwner) {
  std::shared_ptr<CountingAllocator::Counts> counts;
  FrameRef held;
  {
    FramePool pool(1);
    auto alloc = std::make_shared<CountingAllocator>();
    counts = alloc->counts;
    held = pool.acquire({100, 50}, alloc)->frame;
  }
  EXPECT_EQ(counts->alive, 1);
  std::thread([f = std::move(held)]() mutable { f.reset(); }).join();
  EXPECT_EQ(counts->alive, 0);
}

}  // namespace
}  // namespace voxl::capture
