// What a capturer's frame says changed (capture/pending_damage.h): a new
// size is wholly pending, rectangles are clipped and kept as reported while
// few, past the limit the frame gets the blocks' rectangles, and handing
// over starts again with nothing pending.
#include <gtest/gtest.h>

#include "capture/frame.h"
#include "capture/pending_damage.h"

namespace voxl::capture {
namespace VOXL_TEST_FILE {

TEST(PendingDamage, ANewSizeIsWhollyPendingAndHandingOverEmptiesIt) {
  PendingDamage d;
  d.reset({640, 360});
  EXPECT_FALSE(d.empty());
  EXPECT_EQ(d.blocks().count(), d.blocks().columns() * d.blocks().rows());
  Frame f(nullptr, {}, 0);
  d.hand_to(f);
  EXPECT_TRUE(d.empty());
  ASSERT_EQ(f.damage_rects.size(), 1u);
  EXPECT_EQ(f.damage_rects[0], (Rect{0, 0, 640, 360}));
}

TEST(PendingDamage, RectanglesAreClippedAndKeptAsReported) {
  PendingDamage d;
  d.reset({100, 100});
  Frame whole(nullptr, {}, 0);
  d.hand_to(whole);
  d.add({90, 90, 50, 50});
  d.add({-10, 200, 5, 5});  // outside: nothing
  Frame f(nullptr, {}, 0);
  d.hand_to(f);
  ASSERT_EQ(f.damage_rects.size(), 1u);
  EXPECT_EQ(f.damage_rects[0], (Rect{90, 90, 10, 10}));
  EXPECT_FALSE(f.damage_blocks.empty());
}

TEST(PendingDamage, ABoxSeenThroughARegionIsItsPartInsideFromTheRegionsCorner) {
  PendingDamage d;
  d.reset({80, 60});
  Frame whole(nullptr, {}, 0);
  d.hand_to(whole);
  const Rect region{100, 50, 80, 60};
  d.add_seen_through({90, 40, 30, 30}, region);  // across the region's corner
  d.add_seen_through({0, 0, 50, 50}, region);    // outside: nothing
  Frame f(nullptr, {}, 0);
  d.hand_to(f);
  ASSERT_EQ(f.damage_rects.size(), 1u);
  EXPECT_EQ(f.damage_rects[0], (Rect{0, 0, 20, 20}));
  d.add_seen_through({0, 0, 50, 50}, region);
  EXPECT_TRUE(d.empty());
}

TEST(PendingDamage, TooManyRectanglesBecomeTheBlocksOwn) {
  PendingDamage d;
  d.reset({1024, 1024});
  Frame whole(nullptr, {}, 0);
  d.hand_to(whole);
  for (int i = 0; i < int(PendingDamage::kMaxRects) + 5; ++i) d.add({i * 8, i * 8, 2, 2});
  Frame f(nullptr, {}, 0);
  d.hand_to(f);
  EXPECT_EQ(f.damage_rects, f.damage_blocks.to_rects());
  EXPECT_LT(f.damage_rects.size(), PendingDamage::kMaxRects + 5);
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::capture
