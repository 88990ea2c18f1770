// The band layout of --stripes (encode/stripe_layout.h) for every picture
// height a desktop may have, and which bands a change touches.
#include "encode/stripe_layout.h"

#include <gtest/gtest.h>

namespace voxl::encode {
namespace VOXL_TEST_FILE {

TEST(StripeLayout, EveryHeightAndCountGivesContiguousMacroblockBands) {
  for (int height = 2; height <= 4320; height += 2) {
    for (int stripes = 0; stripes <= kMaxStripes + 2; ++stripes) {
      const Size size{1280, height};
      const auto bands = stripe_bands(size, stripes);
      ASSERT_FALSE(bands.empty()) << height << " " << stripes;
      ASSERT_LE(int(bands.size()), std::max(1, std::min(stripes, kMaxStripes)));
      int y = 0;
      for (size_t i = 0; i < bands.size(); ++i) {
        const Rect& b = bands[i];
        ASSERT_EQ(b.x, 0);
        ASSERT_EQ(b.width, 1280);
        ASSERT_EQ(b.y, y) << "contiguous, top to bottom";
        ASSERT_GT(b.height, 0);
        ASSERT_EQ(b.height % 2, 0) << "an even height, as H.264 4:2:0 needs";
        if (i + 1 < bands.size()) {
          ASSERT_EQ(b.height % kMacroblock, 0) << height << " " << stripes << " band " << i;
          ASSERT_GE(b.height, kMinBandRows * kMacroblock);
        }
        y += b.height;
      }
      ASSERT_EQ(y, height) << "the bands cover the picture";
    }
  }
}

TEST(StripeLayout, BandsAreAsEvenAsMacroblocksAllow) {
  const auto bands = stripe_bands({1920, 1080}, 4);
  ASSERT_EQ(bands.size(), 4u);
  // 1080 = 67 rows of 16 and 8 pixels: 17, 17, 17 rows, then 16 rows + 8.
  EXPECT_EQ(bands[0], (Rect{0, 0, 1920, 272}));
  EXPECT_EQ(bands[1], (Rect{0, 272, 1920, 272}));
  EXPECT_EQ(bands[2], (Rect{0, 544, 1920, 272}));
  EXPECT_EQ(bands[3], (Rect{0, 816, 1920, 264}));
  const auto two = stripe_bands({1920, 1080}, 2);
  EXPECT_EQ(two[0], (Rect{0, 0, 1920, 544}));
  EXPECT_EQ(two[1], (Rect{0, 544, 1920, 536}));
}

TEST(StripeLayout, ShortPicturesGetFewerBands) {
  EXPECT_EQ(stripe_bands({640, 64}, 4).size(), 2u);   // 4 rows: two bands of 2
  EXPECT_EQ(stripe_bands({640, 48}, 4).size(), 1u);   // 3 rows: one band
  EXPECT_EQ(stripe_bands({640, 10}, 8).size(), 1u);
  EXPECT_TRUE(stripe_bands({0, 480}, 2).empty());
}

TEST(StripeLayout, DamageTouchesOnlyTheBandsItCrosses) {
  const auto bands = stripe_bands({1920, 1080}, 4);
  EXPECT_EQ(damaged_bands(bands, {{10, 10, 100, 100}}), (std::vector<int>{0}));
  EXPECT_EQ(damaged_bands(bands, {{0, 270, 50, 4}}), (std::vector<int>{0, 1})) << "across a boundary";
  EXPECT_EQ(damaged_bands(bands, {{0, 272, 50, 1}}), (std::vector<int>{1})) << "a band's first row";
  EXPECT_EQ(damaged_bands(bands, {{0, 0, 5, 5}, {0, 1000, 5, 5}}), (std::vector<int>{0, 3}));
  EXPECT_TRUE(damaged_bands(bands, {}).empty());
  EXPECT_TRUE(damaged_bands(bands, {{0, 10, 0, 10}}).empty()) << "an empty rect is no change";
  EXPECT_EQ(damaged_bands(bands, {Rect{0, 0, 1920, 1080}}).size(), 4u);
}

TEST(StripeKbps, TheCodedBandsShareTheWholeCeilingByDemand) {
  // The first band has been taking three times the second's bytes.
  const auto k = stripe_kbps(10000, {3000, 1000, 500}, {true, true, false});
  EXPECT_EQ(k[2], 0) << "a band that does not code gets no share";
  EXPECT_GT(k[0], 2 * k[1]);
  EXPECT_NEAR(k[0] + k[1], 10000, 2) << "together, what one encoder of the picture would have";
}

TEST(StripeKbps, WithoutHistoryTheBandsSplitEvenly) {
  const auto k = stripe_kbps(9000, {0, 0, 0}, {true, true, true});
  EXPECT_EQ(k, (std::vector<int>{3000, 3000, 3000}));
}

TEST(StripeKbps, AQuietBandThatStartsMovingIsNotStarved) {
  // A band that took nothing so far still gets the floor (a quarter of the
  // mean demand): a tenth of the ceiling beside one that took everything.
  const auto k = stripe_kbps(10000, {4000, 0}, {true, true});
  EXPECT_EQ(k[1], 1000);
  EXPECT_GT(k[0], k[1]);
}

TEST(StripeKbps, EveryCodedBandGetsAtLeastTheMinimum) {
  const auto k = stripe_kbps(100, {1, 1, 1, 1}, {true, true, true, true});
  for (int v : k) EXPECT_EQ(v, kMinStripeKbps);
  EXPECT_EQ(stripe_kbps(5000, {1, 2}, {false, false}), (std::vector<int>{0, 0}));
}

}  // namespace
}  // namespace voxl::encode
