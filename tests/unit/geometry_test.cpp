#include "base/geometry.h"

#include <gtest/gtest.h>

namespace voxl {
namespace VOXL_TEST_FILE {

TEST(RectIntersect, OverlappingRectsGiveTheCommonPart) {
  const Rect a{0, 0, 100, 50};
  const Rect b{60, 20, 100, 100};
  EXPECT_EQ(a.intersect(b), (Rect{60, 20, 40, 30}));
  EXPECT_EQ(b.intersect(a), (Rect{60, 20, 40, 30}));
}

TEST(RectIntersect, ContainedRectIsReturnedUnchanged) {
  const Rect outer{-10, -10, 200, 200};
  const Rect inner{5, 7, 11, 13};
  EXPECT_EQ(outer.intersect(inner), inner);
  EXPECT_EQ(inner.intersect(outer), inner);
}

TEST(RectIntersect, DisjointRectsGiveAllZeroRect) {
  EXPECT_EQ((Rect{0, 0, 10, 10}.intersect(Rect{20, 20, 5, 5})), Rect{});
  EXPECT_EQ((Rect{0, 0, 10, 10}.intersect(Rect{0, 30, 10, 10})), Rect{});
}

TEST(RectIntersect, EdgeTouchingRectsDoNotOverlap) {
  EXPECT_EQ((Rect{0, 0, 10, 10}.intersect(Rect{10, 0, 10, 10})), Rect{});
  EXPECT_EQ((Rect{0, 0, 10, 10}.intersect(Rect{0, 10, 10, 10})), Rect{});
  EXPECT_TRUE((Rect{0, 0, 10, 10}.intersect(Rect{10, 10, 1, 1})).empty());
}

TEST(RectIntersect, EmptyOperandGivesEmptyResult) {
  EXPECT_TRUE((Rect{0, 0, 10, 10}.intersect(Rect{5, 5, 0, 3})).empty());
  EXPECT_TRUE((Rect{0, 0, 10, 10}.intersect(Rect{5, 5, 3, -2})).empty());
}

TEST(RectIntersect, WorksWithNegativeCoordinates) {
  EXPECT_EQ((Rect{-20, -20, 30, 30}.intersect(Rect{-5, -15, 100, 4})), (Rect{-5, -15, 15, 4}));
}

TEST(RectContains, ContainsItselfAndInnerRects) {
  const Rect r{10, 20, 30, 40};
  EXPECT_TRUE(r.contains(r));
  EXPECT_TRUE(r.contains(Rect{10, 20, 1, 1}));
  EXPECT_TRUE(r.contains(Rect{39, 59, 1, 1}));
  EXPECT_TRUE(r.contains(Rect{15, 25, 10, 10}));
}

TEST(RectContains, RejectsRectsCrossingAnyEdge) {
  const Rect r{10, 20, 30, 40};
  EXPECT_FALSE(r.contains(Rect{9, 20, 5, 5}));
  EXPECT_FALSE(r.contains(Rect{10, 19, 5, 5}));
  EXPECT_FALSE(r.contains(Rect{36, 20, 5, 5}));
  EXPECT_FALSE(r.contains(Rect{10, 56, 5, 5}));
  EXPECT_FALSE(r.contains(Rect{0, 0, 100, 100}));
}

TEST(RectTranslated, MovesOriginAndKeepsSize) {
  const Rect r{1, 2, 3, 4};
  EXPECT_EQ(r.translated(10, -20), (Rect{11, -18, 3, 4}));
  EXPECT_EQ(r.translated(0, 0), r);
  EXPECT_EQ(r.translated(-1, -2).translated(1, 2), r);
}

TEST(RectBounding, HoldsBothRects) {
  EXPECT_EQ((Rect{0, 0, 10, 10}.bounding(Rect{20, 5, 5, 20})), (Rect{0, 0, 25, 25}));
  EXPECT_EQ((Rect{-5, -5, 2, 2}.bounding(Rect{3, 3, 2, 2})), (Rect{-5, -5, 10, 10}));
  EXPECT_EQ((Rect{0, 0, 10, 10}.bounding(Rect{2, 2, 3, 3})), (Rect{0, 0, 10, 10}));
}

TEST(RectBounding, AnEmptyOperandAddsNothing) {
  // Not even its position: a box grown from nothing is the first rect.
  EXPECT_EQ((Rect{}.bounding(Rect{50, 60, 5, 5})), (Rect{50, 60, 5, 5}));
  EXPECT_EQ((Rect{50, 60, 5, 5}.bounding(Rect{0, 0, 0, 0})), (Rect{50, 60, 5, 5}));
  EXPECT_EQ((Rect{50, 60, 5, 5}.bounding(Rect{0, 0, 3, -1})), (Rect{50, 60, 5, 5}));
  EXPECT_TRUE((Rect{1, 1, 0, 0}.bounding(Rect{9, 9, 0, 4})).empty());
}

TEST(RectAlignedOut, GrowsOutwardToTheGrid) {
  EXPECT_EQ((Rect{11, 7, 5, 3}.aligned_out(2)), (Rect{10, 6, 6, 4}));
  EXPECT_EQ((Rect{10, 6, 6, 4}.aligned_out(2)), (Rect{10, 6, 6, 4}));
  EXPECT_EQ((Rect{17, 1, 1, 15}.aligned_out(16)), (Rect{16, 0, 16, 16}));
  EXPECT_EQ((Rect{15, 16, 2, 1}.aligned_out(16)), (Rect{0, 16, 32, 16}));
}

TEST(RectAlignedOut, FloorsNegativeCoordinates) {
  EXPECT_EQ((Rect{-3, -1, 2, 2}.aligned_out(2)), (Rect{-4, -2, 4, 4}));
  EXPECT_EQ((Rect{-17, -16, 2, 1}.aligned_out(16)), (Rect{-32, -16, 32, 16}));
}

TEST(RectAlignedOut, EmptyStaysEmpty) { EXPECT_EQ((Rect{3, 3, 0, 5}.aligned_out(16)), Rect{}); }

TEST(RectBasics, EdgesAreaAndEmptiness) {
  const Rect r{3, 4, 5, 6};
  EXPECT_EQ(r.right(), 8);
  EXPECT_EQ(r.bottom(), 10);
  EXPECT_EQ(r.area(), 30);
  EXPECT_EQ(r.size(), (Size{5, 6}));
  EXPECT_FALSE(r.empty());
  EXPECT_TRUE((Rect{0, 0, 0, 5}).empty());
  EXPECT_TRUE((Rect{0, 0, 5, -1}).empty());
  EXPECT_EQ((Rect{0, 0, -5, 5}).area(), 0);
  EXPECT_EQ(Rect::from_size(Size{7, 9}), (Rect{0, 0, 7, 9}));
}

TEST(RectBasics, AreaDoesNotOverflowForLargeRects) {
  EXPECT_EQ((Rect{0, 0, 100000, 100000}).area(), int64_t{10000000000});
  EXPECT_EQ((Size{100000, 100000}).area(), int64_t{10000000000});
}

TEST(RectToString, UsesGeometryNotation) {
  EXPECT_EQ(to_string(Rect{10, 20, 640, 480}), "640x480+10+20");
  EXPECT_EQ(to_string(Rect{-3, -4, 1, 2}), "1x2+-3+-4");
}

TEST(ParseRect, AcceptsWellFormedInput) {
  EXPECT_EQ(parse_rect("1,2,3,4"), (Rect{1, 2, 3, 4}));
  EXPECT_EQ(parse_rect("0,0,1920,1080"), (Rect{0, 0, 1920, 1080}));
}

TEST(ParseRect, AcceptsNegativeOrigin) {
  EXPECT_EQ(parse_rect("-10,-20,30,40"), (Rect{-10, -20, 30, 40}));
}

TEST(ParseRect, RejectsZeroOrNegativeSize) {
  EXPECT_FALSE(parse_rect("0,0,0,10"));
  EXPECT_FALSE(parse_rect("0,0,10,0"));
  EXPECT_FALSE(parse_rect("0,0,-10,10"));
  EXPECT_FALSE(parse_rect("0,0,10,-10"));
}

TEST(ParseRect, RejectsJunk) {
  EXPECT_FALSE(parse_rect(""));
  EXPECT_FALSE(parse_rect("abc"));
  EXPECT_FALSE(parse_rect("a,b,c,d"));
  EXPECT_FALSE(parse_rect("1;2;3;4"));
  EXPECT_FALSE(parse_rect("1, 2, 3, 4"));
  EXPECT_FALSE(parse_rect(" 1,2,3,4"));
  EXPECT_FALSE(parse_rect("1,2,3x,4"));
  EXPECT_FALSE(parse_rect("99999999999,0,1,1"));
}

TEST(ParseRect, RejectsTrailingCharacters) {
  EXPECT_FALSE(parse_rect("1,2,3,4,"));
  EXPECT_FALSE(parse_rect("1,2,3,4,5"));
  EXPECT_FALSE(parse_rect("1,2,3,4 "));
  EXPECT_FALSE(parse_rect("1,2,3,4x"));
}

TEST(ParseRect, RejectsMissingFields) {
  EXPECT_FALSE(parse_rect("1,2,3"));
  EXPECT_FALSE(parse_rect("1,2,3,"));
  EXPECT_FALSE(parse_rect(",2,3,4"));
  EXPECT_FALSE(parse_rect("1,,3,4"));
  EXPECT_FALSE(parse_rect("1"));
}

}  // namespace
}  // namespace voxl
