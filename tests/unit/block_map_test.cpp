#include "base/block_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

namespace voxl {
namespace VOXL_TEST_FILE {

constexpr int kB = BlockMap::kBlock;
constexpr Size kOddFrame{1917, 1083};

std::vector<std::pair<int, int>> marked_blocks(const BlockMap& m) {
  std::vector<std::pair<int, int>> out;
  for (int row = 0; row < m.rows(); ++row)
    for (int col = 0; col < m.columns(); ++col)
      if (m.test(col, row)) out.emplace_back(col, row);
  return out;
}

bool overlap(const Rect& a, const Rect& b) { return !a.intersect(b).empty(); }

// Checks every promise to_rects() makes about its output for `m`.
void expect_rects_describe_map(const BlockMap& m) {
  SCOPED_TRACE(::testing::Message() << "frame " << m.frame_size().width << "x"
                                  << m.frame_size().height << ", " << m.count() << " blocks");
  const std::vector<Rect> rects = m.to_rects();
  const Rect frame = Rect::from_size(m.frame_size());

  // Re-adding the rectangles marks exactly the same blocks.
  BlockMap again(m.frame_size());
  for (const Rect& r : rects) again.add(r);
  EXPECT_EQ(again, m);

  int64_t rect_area = 0;
  for (size_t i = 0; i < rects.size(); ++i) {
    const Rect& r = rects[i];
    EXPECT_FALSE(r.empty()) << to_string(r);
    EXPECT_TRUE(frame.contains(r)) << to_string(r) << " leaves the frame";
    // Starts on a block boundary; ends on one or on the frame edge.
    EXPECT_EQ(r.x % kB, 0) << to_string(r);
    EXPECT_EQ(r.y % kB, 0) << to_string(r);
    EXPECT_TRUE(r.width % kB == 0 || r.right() == frame.right()) << to_string(r);
    EXPECT_TRUE(r.height % kB == 0 || r.bottom() == frame.bottom()) << to_string(r);
    rect_area += r.area();
    for (size_t j = i + 1; j < rects.size(); ++j) {
      EXPECT_FALSE(overlap(r, rects[j])) << to_string(r) << " overlaps " << to_string(rects[j]);
      // A rectangle directly above another with the same columns should have been merged.
      const Rect& o = rects[j];
      const bool stacked = r.x == o.x && r.width == o.width &&
                           (r.bottom() == o.y || o.bottom() == r.y);
      EXPECT_FALSE(stacked) << to_string(r) << " and " << to_string(o) << " were not merged";
    }
    // Runs are maximal: the blocks just left and right of each rectangle are clear.
    const int c0 = r.x / kB, c1 = (r.right() - 1) / kB;
    for (int row = r.y / kB; row <= (r.bottom() - 1) / kB; ++row) {
      if (c0 > 0) {
        EXPECT_FALSE(m.test(c0 - 1, row)) << to_string(r) << " could extend left";
      }
      if (c1 + 1 < m.columns()) {
        EXPECT_FALSE(m.test(c1 + 1, row)) << to_string(r) << " could extend right";
      }
    }
  }

  // Together the rectangles cover exactly the marked blocks' pixels.
  int64_t block_area = 0;
  for (auto [col, row] : marked_blocks(m))
    block_area += Rect{col * kB, row * kB, kB, kB}.intersect(frame).area();
  EXPECT_EQ(rect_area, block_area);
}

TEST(BlockMap, DimensionsRoundUpToWholeBlocks) {
  const BlockMap m(kOddFrame);
  EXPECT_EQ(m.frame_size(), kOddFrame);
  EXPECT_EQ(m.columns(), 120);  // 119 full blocks plus 13 pixels
  EXPECT_EQ(m.rows(), 68);      // 67 full blocks plus 11 pixels
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.count(), 0);

  const BlockMap exact(Size{64, 32});
  EXPECT_EQ(exact.columns(), 4);
  EXPECT_EQ(exact.rows(), 2);
}

TEST(BlockMap, AddSinglePixelMarksOneBlock) {
  BlockMap m(Size{100, 100});
  m.add(Rect{20, 35, 1, 1});
  EXPECT_EQ(m.count(), 1);
  EXPECT_TRUE(m.test(1, 2));
  EXPECT_FALSE(m.empty());
}

TEST(BlockMap, AddUnalignedRectMarksEveryTouchedBlock) {
  BlockMap m(Size{100, 100});
  m.add(Rect{15, 15, 2, 2});  // straddles the corner of four blocks
  EXPECT_EQ(m.count(), 4);
  EXPECT_TRUE(m.test(0, 0));
  EXPECT_TRUE(m.test(1, 0));
  EXPECT_TRUE(m.test(0, 1));
  EXPECT_TRUE(m.test(1, 1));
}

TEST(BlockMap, AddAlignedRectMarksOnlyItsBlocks) {
  BlockMap m(Size{100, 100});
  m.add(Rect{16, 16, 16, 16});
  EXPECT_EQ(m.count(), 1);
  EXPECT_TRUE(m.test(1, 1));

  BlockMap wide(Size{100, 100});
  wide.add(Rect{16, 0, 32, 16});
  EXPECT_EQ(wide.count(), 2);
  EXPECT_TRUE(wide.test(1, 0));
  EXPECT_TRUE(wide.test(2, 0));
}

TEST(BlockMap, AddOddSizedRect) {
  BlockMap m(Size{100, 100});
  m.add(Rect{3, 5, 17, 29});  // x 3..19 -> columns 0-1, y 5..33 -> rows 0-2
  EXPECT_EQ(m.count(), 6);
  for (int row = 0; row <= 2; ++row)
    for (int col = 0; col <= 1; ++col) EXPECT_TRUE(m.test(col, row)) << col << "," << row;
  EXPECT_FALSE(m.test(2, 0));
  EXPECT_FALSE(m.test(0, 3));
}

TEST(BlockMap, AddIgnoresThePartOutsideTheFrame) {
  BlockMap m(kOddFrame);
  m.add(Rect{-10, -10, 20, 20});
  EXPECT_EQ(m.count(), 1);
  EXPECT_TRUE(m.test(0, 0));

  m.clear();
  m.add(Rect{1910, 1080, 100, 100});  // only the bottom-right corner block is inside
  EXPECT_EQ(m.count(), 1);
  EXPECT_TRUE(m.test(119, 67));

  m.clear();
  m.add(Rect{-5000, 100, 10000, 1});  // a full-width line
  EXPECT_EQ(m.count(), m.columns());
}

TEST(BlockMap, AddOutsideOrEmptyRectMarksNothing) {
  BlockMap m(kOddFrame);
  m.add(Rect{1917, 0, 10, 10});
  m.add(Rect{0, 1083, 10, 10});
  m.add(Rect{-20, -20, 20, 20});
  m.add(Rect{50, 50, 0, 10});
  m.add(Rect{50, 50, 10, -1});
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.count(), 0);
}

TEST(BlockMap, EmptyFrameHasNoBlocks) {
  for (Size s : {Size{0, 0}, Size{0, 100}, Size{100, 0}, Size{-5, 10}}) {
    BlockMap m(s);
    EXPECT_EQ(m.columns(), 0);
    EXPECT_EQ(m.rows(), 0);
    m.add(Rect{0, 0, 100, 100});
    m.add_all();
    EXPECT_TRUE(m.empty());
    EXPECT_EQ(m.count(), 0);
    EXPECT_TRUE(m.to_rects().empty());
  }
  BlockMap def;
  EXPECT_TRUE(def.empty());
  def.add(Rect{0, 0, 10, 10});
  EXPECT_EQ(def.count(), 0);
}

TEST(BlockMap, AddAllAndClear) {
  BlockMap m(kOddFrame);
  m.add_all();
  EXPECT_EQ(m.count(), 120 * 68);
  EXPECT_FALSE(m.empty());
  m.clear();
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m, BlockMap(kOddFrame));
}

TEST(BlockMap, AddingTheSameBlockTwiceCountsOnce) {
  BlockMap m(Size{64, 64});
  m.add(Rect{0, 0, 4, 4});
  m.add(Rect{8, 8, 4, 4});
  EXPECT_EQ(m.count(), 1);
}

TEST(BlockMap, UniteIsBlockwiseOr) {
  BlockMap a(Size{64, 64}), b(Size{64, 64});
  a.add(Rect{0, 0, 32, 16});  // (0,0) (1,0)
  b.add(Rect{16, 0, 32, 16});  // (1,0) (2,0)
  b.add(Rect{0, 48, 1, 1});  // (0,3)
  a.unite(b);
  EXPECT_EQ(a.count(), 4);
  EXPECT_TRUE(a.test(0, 0));
  EXPECT_TRUE(a.test(1, 0));
  EXPECT_TRUE(a.test(2, 0));
  EXPECT_TRUE(a.test(0, 3));
  EXPECT_EQ(b.count(), 3);  // the argument is unchanged
}

TEST(BlockMap, SubtractRemovesOnlyTheOthersBlocks) {
  BlockMap a(Size{64, 64}), b(Size{64, 64});
  a.add(Rect{0, 0, 48, 16});  // (0,0) (1,0) (2,0)
  b.add(Rect{16, 0, 16, 32});  // (1,0) (1,1)
  a.subtract(b);
  EXPECT_EQ(a.count(), 2);
  EXPECT_TRUE(a.test(0, 0));
  EXPECT_FALSE(a.test(1, 0));
  EXPECT_TRUE(a.test(2, 0));
  EXPECT_FALSE(a.test(1, 1));  // subtracting an unmarked block leaves it unmarked

  a.subtract(a);
  EXPECT_TRUE(a.empty());
}

TEST(BlockMap, UniteThenSubtractRoundTrips) {
  BlockMap a(kOddFrame), b(kOddFrame);
  a.add(Rect{100, 100, 300, 200});
  b.add(Rect{1000, 900, 500, 183});
  BlockMap c = a;
  c.unite(b);
  EXPECT_EQ(c.count(), a.count() + b.count());
  c.subtract(b);
  EXPECT_EQ(c, a);
}

TEST(BlockMap, MismatchedSizesThrowLogicError) {
  BlockMap a(Size{64, 64});
  const BlockMap b(Size{64, 65});
  const BlockMap c(Size{65, 64});
  EXPECT_THROW(a.unite(b), std::logic_error);
  EXPECT_THROW(a.subtract(b), std::logic_error);
  EXPECT_THROW(a.unite(c), std::logic_error);
  EXPECT_THROW(a.subtract(c), std::logic_error);
  // Same block grid but different pixel sizes still count as a mismatch.
  EXPECT_THROW(a.unite(BlockMap(Size{63, 64})), std::logic_error);
}

TEST(BlockMapToRects, EmptyMapHasNoRects) {
  EXPECT_TRUE(BlockMap(kOddFrame).to_rects().empty());
}

TEST(BlockMapToRects, FullMapIsOneRectClippedToTheFrame) {
  BlockMap m(kOddFrame);
  m.add_all();
  const auto rects = m.to_rects();
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_EQ(rects[0], (Rect{0, 0, 1917, 1083}));
}

TEST(BlockMapToRects, CornerBlockIsClippedToTheFrame) {
  BlockMap m(kOddFrame);
  m.add(Rect{1916, 1082, 1, 1});
  const auto rects = m.to_rects();
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_EQ(rects[0], (Rect{1904, 1072, 13, 11}));
}

TEST(BlockMapToRects, RowsWithTheSameRunAreMergedVertically) {
  BlockMap m(Size{128, 128});
  m.add(Rect{16, 0, 32, 16});
  m.add(Rect{16, 16, 32, 16});
  m.add(Rect{20, 40, 20, 8});  // row 2, columns 1-2 again
  const auto rects = m.to_rects();
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_EQ(rects[0], (Rect{16, 0, 32, 48}));
}

TEST(BlockMapToRects, DifferentRunsAreNotMerged) {
  BlockMap m(Size{128, 128});
  m.add(Rect{0, 0, 32, 16});   // row 0: columns 0-1
  m.add(Rect{0, 16, 48, 16});  // row 1: columns 0-2
  m.add(Rect{0, 32, 32, 16});  // row 2: columns 0-1 (not adjacent to row 0's run)
  auto rects = m.to_rects();
  std::sort(rects.begin(), rects.end(),
            [](const Rect& a, const Rect& b) { return a.y < b.y; });
  ASSERT_EQ(rects.size(), 3u);
  EXPECT_EQ(rects[0], (Rect{0, 0, 32, 16}));
  EXPECT_EQ(rects[1], (Rect{0, 16, 48, 16}));
  EXPECT_EQ(rects[2], (Rect{0, 32, 32, 16}));
  expect_rects_describe_map(m);
}

TEST(BlockMapToRects, SeparateRunsInARowGiveSeparateRects) {
  BlockMap m(Size{128, 64});
  m.add(Rect{0, 0, 16, 32});
  m.add(Rect{64, 0, 32, 32});
  auto rects = m.to_rects();
  std::sort(rects.begin(), rects.end(),
            [](const Rect& a, const Rect& b) { return a.x < b.x; });
  ASSERT_EQ(rects.size(), 2u);
  EXPECT_EQ(rects[0], (Rect{0, 0, 16, 32}));
  EXPECT_EQ(rects[1], (Rect{64, 0, 32, 32}));
}

TEST(BlockMapToRects, CheckerboardOnOddFrame) {
  BlockMap m(kOddFrame);
  for (int row = 0; row < m.rows(); ++row)
    for (int col = (row % 2); col < m.columns(); col += 2)
      m.add(Rect{col * kB, row * kB, 1, 1});
  EXPECT_EQ(m.count(), 120 * 68 / 2);
  EXPECT_EQ(m.to_rects().size(), size_t(m.count()));
  expect_rects_describe_map(m);
}

TEST(BlockMapToRects, RandomDamageOnOddFramesIsCoveredExactly) {
  std::mt19937 rng(12345);  // fixed seed: the same maps every run
  for (Size frame : {kOddFrame, Size{1, 1}, Size{17, 33}, Size{1920, 1080}, Size{15, 300}}) {
    for (int round = 0; round < 12; ++round) {
      BlockMap m(frame);
      std::uniform_int_distribution<int> nrects(1, 40);
      std::uniform_int_distribution<int> xd(-50, frame.width + 50), yd(-50, frame.height + 50);
      std::uniform_int_distribution<int> wd(1, std::max(1, frame.width / 3));
      std::uniform_int_distribution<int> hd(1, std::max(1, frame.height / 3));
      const int n = nrects(rng);
      for (int i = 0; i < n; ++i) m.add(Rect{xd(rng), yd(rng), wd(rng), hd(rng)});
      expect_rects_describe_map(m);
    }
  }
}

TEST(BlockMapToRects, ShapesWithHolesAreCoveredExactly) {
  BlockMap m(kOddFrame);
  m.add(Rect{0, 0, 1917, 1083});
  BlockMap hole(kOddFrame);
  hole.add(Rect{500, 300, 400, 200});
  hole.add(Rect{1904, 0, 13, 1083});  // the clipped last column
  m.subtract(hole);
  expect_rects_describe_map(m);
  EXPECT_FALSE(m.test(119, 0));
  EXPECT_TRUE(m.test(118, 67));
}

TEST(BlockMapRegion, TheBlockSizeIsTheRegionsOne) { EXPECT_EQ(BlockMap::kBlock, kBlockSize); }

TEST(BlockMapRegion, ARegionMarksTheBlocksItsRectsTouch) {
  const std::vector<Rect> rects{{0, 0, 1, 1}, {40, 40, 30, 2}, {1900, 1070, 100, 100}};
  BlockMap by_region(kOddFrame), by_rects(kOddFrame);
  by_region.add(Region(rects));
  for (const Rect& r : rects) by_rects.add(r);
  EXPECT_EQ(by_region, by_rects);
}

TEST(BlockMapRegion, TheRegionIsTheMarkedBlocksClippedToTheFrame) {
  BlockMap m(kOddFrame);
  m.add(Rect{1910, 0, 7, 1});
  m.add(Rect{0, 0, 20, 20});
  const std::vector<Rect> want{{0, 0, 32, 32}, {1904, 0, 13, 16}};
  EXPECT_EQ(m.region(), Region(want));
  EXPECT_EQ(m.region().area(), int64_t{32 * 32 + 13 * 16});
  EXPECT_TRUE(BlockMap(kOddFrame).region().empty());
}

}  // namespace
}  // namespace voxl
