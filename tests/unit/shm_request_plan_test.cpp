#include "platform/x11/shm_request_plan.h"

#include <gtest/gtest.h>

#include <vector>

#include "base/block_map.h"

namespace voxl::platform::x11 {
namespace VOXL_TEST_FILE {

constexpr Size kFrame{1920, 1080};

std::vector<ShmRequest> plan(std::initializer_list<Rect> rects, Size frame = kFrame) {
  const std::vector<Rect> v(rects);
  return plan_shm_requests(v, frame);
}

// Every pixel of `rects` is covered by exactly one request.
void expect_exact_cover(const std::vector<ShmRequest>& reqs, std::initializer_list<Rect> rects,
                        Size frame = kFrame) {
  std::vector<int> hits(size_t(frame.area()), 0);
  for (const ShmRequest& q : reqs)
    for (int y = q.rect.y; y < q.rect.bottom(); ++y)
      for (int x = q.rect.x; x < q.rect.right(); ++x) ++hits[size_t(y) * size_t(frame.width) + size_t(x)];
  for (const Rect& r : rects)
    for (int y = r.y; y < r.bottom(); ++y)
      for (int x = r.x; x < r.right(); ++x)
        ASSERT_EQ(hits[size_t(y) * size_t(frame.width) + size_t(x)], 1) << x << "," << y;
  for (int h : hits) ASSERT_LE(h, 1);
}

TEST(ShmRequestPlan, WideRectangleBecomesItsFullWidthBand) {
  const auto reqs = plan({{100, 32, 1200, 64}});
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_TRUE(reqs[0].in_place);
  EXPECT_EQ(reqs[0].rect, (Rect{0, 32, 1920, 64}));
}

TEST(ShmRequestPlan, HalfTheWidthIsWideEnough) {
  EXPECT_TRUE(plan({{0, 0, 960, 16}})[0].in_place);
  EXPECT_FALSE(plan({{0, 0, 944, 16}})[0].in_place);
}

TEST(ShmRequestPlan, NarrowRectangleIsStagedAsItIs) {
  const auto reqs = plan({{896, 512, 64, 64}});
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_FALSE(reqs[0].in_place);
  EXPECT_EQ(reqs[0].rect, (Rect{896, 512, 64, 64}));
}

TEST(ShmRequestPlan, TouchingAndOverlappingBandsMerge) {
  const auto reqs = plan({{0, 0, 1920, 16}, {16, 16, 1500, 32}, {0, 100, 1920, 16}});
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].rect, (Rect{0, 0, 1920, 48}));
  EXPECT_EQ(reqs[1].rect, (Rect{0, 100, 1920, 16}));
}

TEST(ShmRequestPlan, NarrowRectanglesLoseTheRowsABandBrings) {
  const std::initializer_list<Rect> rects = {{0, 64, 1920, 32}, {100, 32, 64, 96}, {500, 64, 16, 16}};
  const auto reqs = plan(rects);
  // The band, then the column above and below it; the box inside it is gone.
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].rect, (Rect{0, 64, 1920, 32}));
  EXPECT_EQ(reqs[1].rect, (Rect{100, 32, 64, 32}));
  EXPECT_FALSE(reqs[1].in_place);
  EXPECT_EQ(reqs[2].rect, (Rect{100, 96, 64, 32}));
  expect_exact_cover(reqs, rects);
}

TEST(ShmRequestPlan, BlockMapDamageIsCoveredExactlyOnce) {
  const Size frame{333, 191};
  BlockMap m(frame);
  m.add({0, 0, 333, 20});
  m.add({17, 40, 40, 100});
  m.add({300, 150, 33, 41});
  m.add({100, 60, 200, 40});
  const std::vector<Rect> rects = m.to_rects();
  const auto reqs = plan_shm_requests(rects, frame);
  std::vector<int> hits(size_t(frame.area()), 0);
  for (const ShmRequest& q : reqs) {
    ASSERT_TRUE(Rect::from_size(frame).contains(q.rect)) << to_string(q.rect);
    if (q.in_place) {
      EXPECT_EQ(q.rect.width, frame.width);
    }
    for (int y = q.rect.y; y < q.rect.bottom(); ++y)
      for (int x = q.rect.x; x < q.rect.right(); ++x) ++hits[size_t(y) * size_t(frame.width) + size_t(x)];
  }
  for (const Rect& r : rects)
    for (int y = r.y; y < r.bottom(); ++y)
      for (int x = r.x; x < r.right(); ++x) ASSERT_GE(hits[size_t(y) * size_t(frame.width) + size_t(x)], 1);
  for (int h : hits) ASSERT_LE(h, 1);
}

TEST(ShmRequestPlan, NothingOutsideTheFrame) {
  EXPECT_TRUE(plan({}).empty());
  EXPECT_TRUE(plan({{2000, 0, 10, 10}}).empty());
  const auto reqs = plan({{1900, 1070, 64, 64}});
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].rect, (Rect{1900, 1070, 20, 10}));
}

}  // namespace
}  // namespace voxl::platform::x11
