#include "base/region.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <random>
#include <vector>

#include "base/block_map.h"

namespace voxl {

namespace VOXL_TEST_FILE {

std::string text(const Region& r) {
  std::string s = "{";
  for (const Rect& x : r.rects()) s += " " + to_string(x);
  return s + " }";
}

// What a region should hold, pixel by pixel, over a small plane that
// starts at -20,-20.
class Mask {
 public:
  static constexpr int kOrigin = -20, kSide = 240;
  void add(const Rect& r) {
    const Rect c = r.intersect({kOrigin, kOrigin, kSide, kSide});
    for (int y = c.y; y < c.bottom(); ++y)
      std::fill_n(bits_.begin() + ptrdiff_t(index(c.x, y)), c.width, uint8_t{1});
  }
  bool test(int x, int y) const { return bits_[index(x, y)] != 0; }
  int64_t count() const { return std::count(bits_.begin(), bits_.end(), uint8_t{1}); }
  friend bool operator==(const Mask&, const Mask&) = default;

 private:
  static size_t index(int x, int y) { return size_t(y - kOrigin) * kSide + size_t(x - kOrigin); }
  std::vector<uint8_t> bits_ = std::vector<uint8_t>(size_t(kSide) * kSide, 0);
};

// Every promise rects() makes: disjoint, in bands from the top, no two
// rects of a band touching, and together exactly the pixels of `want`.
void expect_holds(const Region& region, const Mask& want) {
  const std::vector<Rect>& rects = region.rects();
  for (size_t i = 0; i < rects.size(); ++i) {
    EXPECT_FALSE(rects[i].empty()) << to_string(rects[i]);
    for (size_t j = i + 1; j < rects.size(); ++j) {
      EXPECT_TRUE(rects[i].intersect(rects[j]).empty()) << to_string(rects[i]) << " and " << to_string(rects[j]);
      const bool same_band = rects[i].y == rects[j].y;
      EXPECT_TRUE(same_band ? rects[i].height == rects[j].height && rects[i].right() < rects[j].x
                            : rects[i].bottom() <= rects[j].y)
          << to_string(rects[i]) << " before " << to_string(rects[j]);
    }
  }
  EXPECT_EQ(region.area(), want.count());
  Mask got;
  for (const Rect& r : rects) got.add(r);
  if (got == want) return;
  int wrong = 0;
  for (int y = Mask::kOrigin; y < Mask::kOrigin + Mask::kSide; ++y)
    for (int x = Mask::kOrigin; x < Mask::kOrigin + Mask::kSide; ++x)
      if (got.test(x, y) != want.test(x, y) && wrong++ < 5)
        ADD_FAILURE() << "pixel " << x << "," << y << (want.test(x, y) ? " missing" : " extra");
}

TEST(Region, StartsEmptyAndIgnoresEmptyRects) {
  Region r;
  EXPECT_TRUE(r.empty());
  r.add(Rect{5, 5, 0, 10});
  r.add(Rect{5, 5, 10, -1});
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.area(), 0);
  EXPECT_EQ(r.bounds(), Rect{});
  EXPECT_EQ(r, Region());
}

TEST(Region, OverlappingRectsBecomeDisjointBands) {
  const std::vector<Rect> rects{{0, 0, 10, 10}, {5, 5, 10, 10}};
  const Region r(rects);
  EXPECT_EQ(r.rects(), (std::vector<Rect>{{0, 0, 10, 5}, {0, 5, 15, 5}, {5, 10, 10, 5}}));
  EXPECT_EQ(r.area(), 175);
  EXPECT_EQ(r.bounds(), (Rect{0, 0, 15, 15}));
}

TEST(Region, TheSameRectTwiceIsOneRect) {
  const std::vector<Rect> rects{{3, 4, 50, 60}, {3, 4, 50, 60}, {10, 10, 5, 5}};
  EXPECT_EQ(Region(rects).rects(), (std::vector<Rect>{{3, 4, 50, 60}}));
}

TEST(Region, TouchingRectsMerge) {
  const std::vector<Rect> side_by_side{{0, 0, 10, 10}, {10, 0, 10, 10}};
  EXPECT_EQ(Region(side_by_side).rects(), (std::vector<Rect>{{0, 0, 20, 10}}));
  const std::vector<Rect> stacked{{0, 10, 10, 5}, {0, 0, 10, 10}};
  EXPECT_EQ(Region(stacked).rects(), (std::vector<Rect>{{0, 0, 10, 15}}));
}

TEST(Region, AHoleStaysAHole) {
  // A frame of four rects around 10,10 20x20.
  const std::vector<Rect> ring{{0, 0, 40, 10}, {0, 30, 40, 10}, {0, 10, 10, 20}, {30, 10, 10, 20}};
  const Region r(ring);
  EXPECT_EQ(r.rects(), (std::vector<Rect>{{0, 0, 40, 10}, {0, 10, 10, 20}, {30, 10, 10, 20}, {0, 30, 40, 10}}));
  EXPECT_FALSE(r.contains({20, 20}));
  EXPECT_TRUE(r.contains({5, 20}));
  EXPECT_EQ(r.area(), 40 * 40 - 20 * 20);
}

TEST(Region, RandomRectsAreHeldExactlyWhateverTheOrder) {
  std::mt19937 rng(35);  // fixed seed: the same sets every run
  for (int round = 0; round < 200; ++round) {
    std::vector<Rect> rects(size_t(1 + rng() % 16));
    for (Rect& r : rects) r = {int(rng() % 170) - 20, int(rng() % 170) - 20, int(rng() % 60), int(rng() % 60)};
    SCOPED_TRACE(::testing::Message() << "round " << round << ", " << rects.size() << " rects");
    Mask want;
    for (const Rect& r : rects) want.add(r);
    const Region all_at_once(rects);
    expect_holds(all_at_once, want);
    // One at a time, in another order: the same rectangles.
    std::shuffle(rects.begin(), rects.end(), rng);
    Region one_by_one;
    for (const Rect& r : rects) one_by_one.add(r);
    EXPECT_TRUE(one_by_one == all_at_once) << text(one_by_one) << " one by one, " << text(all_at_once) << " at once";
    if (HasFailure()) return;
  }
}

TEST(Region, RegionsUnite) {
  Region a(Rect{0, 0, 10, 10});
  const Region b(Rect{5, 0, 10, 10});
  a.add(b);
  EXPECT_EQ(a, Region(Rect{0, 0, 15, 10}));
}

TEST(Region, ClipKeepsThePartInside) {
  const std::vector<Rect> rects{{-10, -10, 30, 30}, {50, 50, 10, 10}, {15, 0, 10, 100}};
  Region r(rects);
  r.clip({0, 0, 20, 20});
  EXPECT_EQ(r.rects(), (std::vector<Rect>{{0, 0, 20, 20}}));
  r.clip({100, 100, 5, 5});
  EXPECT_TRUE(r.empty());
}

TEST(Region, AlignedOutGrowsEveryRectToTheGrid) {
  const std::vector<Rect> rects{{1, 1, 1, 1}, {3, 0, 4, 3}, {-3, 9, 2, 2}};
  const Region r = Region(rects).aligned_out(2);
  // 0,0 2x2 and 2,0 6x4 meet; -4,8 4x4 stands alone.
  EXPECT_EQ(r.rects(), (std::vector<Rect>{{0, 0, 8, 2}, {2, 2, 6, 2}, {-4, 8, 4, 4}}));
  for (const Rect& x : r.rects()) EXPECT_EQ(x, x.aligned_out(2)) << to_string(x);
}

TEST(Region, BlockCoverIsTheBlockMapOfTheRegion) {
  std::mt19937 rng(16);
  const Size frame{150, 100};  // not a whole number of blocks
  for (int round = 0; round < 50; ++round) {
    std::vector<Rect> rects(size_t(1 + rng() % 8));
    for (Rect& r : rects) r = {int(rng() % 160) - 5, int(rng() % 110) - 5, int(1 + rng() % 40), int(1 + rng() % 40)};
    const Region damage(rects);
    BlockMap blocks(frame);
    blocks.add(damage);
    // The blocks of the damage on the frame: clipped first (a rect just
    // off the frame touches no block of it), then grown, then clipped again.
    Region on_frame = damage;
    on_frame.clip(Rect::from_size(frame));
    Region cover = on_frame.aligned_out(kBlockSize);
    cover.clip(Rect::from_size(frame));
    EXPECT_TRUE(blocks.region() == cover) << "round " << round << ": " << text(blocks.region()) << " from blocks, "
                                          << text(cover) << " from the region";
    BlockMap again(frame);
    for (const Rect& r : rects) again.add(r);
    EXPECT_EQ(again, blocks) << "round " << round;
  }
}

}  // namespace
}  // namespace voxl
