#include "stream/video/ladder_rung.h"

#include <gtest/gtest.h>

#include <vector>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

TEST(LadderRung, TakesWhatItOwedWithTheNextDamage) {
  LadderRung r(30, 60);
  EXPECT_FALSE(r.owes());
  const std::vector<Rect> first{{0, 0, 10, 10}}, second{{20, 20, 4, 4}}, now{{50, 50, 2, 2}};
  r.owe(first);
  r.owe(second);
  EXPECT_TRUE(r.owes());
  std::vector<Rect> out;
  r.take(now, out);
  EXPECT_EQ(out, (std::vector<Rect>{{50, 50, 2, 2}, {0, 0, 10, 10}, {20, 20, 4, 4}}));
  EXPECT_FALSE(r.owes());
  r.take({}, out);
  EXPECT_TRUE(out.empty());
}

TEST(LadderRung, ManySkippedRectanglesBecomeTheirBoundingBox) {
  LadderRung r(30, 60);
  for (int i = 0; i < int(LadderRung::kMaxPending) + 1; ++i) {
    const Rect one{i * 2, 100 - i, 1, 1};
    r.owe(std::span<const Rect>(&one, 1));
  }
  std::vector<Rect> out;
  r.take({}, out);
  ASSERT_EQ(out.size(), 1u) << "bounded";
  EXPECT_EQ(out[0], (Rect{0, 100 - int(LadderRung::kMaxPending), int(LadderRung::kMaxPending) * 2 + 1,
                          int(LadderRung::kMaxPending) + 1}));
}

TEST(LadderRung, ItsSlotFollowsItsOwnFrameRate) {
  LadderRung r(30, 60);
  const LadderRung::Clock::time_point t{std::chrono::hours(1)};
  EXPECT_TRUE(r.slot(t, 30)) << "never coded: any capture";
  r.last_coded = t;
  EXPECT_FALSE(r.slot(t + 16ms, 30)) << "a 60 fps capture between two 30 fps frames";
  EXPECT_TRUE(r.slot(t + 33ms, 30));
  EXPECT_TRUE(r.slot(t + 13ms, 60)) << "three quarters of an interval is enough: captures jitter";
  r.owe(std::vector<Rect>{{0, 0, 1, 1}});
  r.drop();
  EXPECT_FALSE(r.owes());
  EXPECT_FALSE(r.encoder);
  EXPECT_TRUE(r.slot(t + 1ms, 30));
}

}  // namespace
}  // namespace voxl::stream
