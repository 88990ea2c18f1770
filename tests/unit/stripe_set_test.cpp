#include "encode/stripe_set.h"

#include <gtest/gtest.h>

#include <spdlog/sinks/null_sink.h>

#include <cstring>
#include <vector>

#include "encode/stripe_layout.h"

namespace voxl::encode {
namespace VOXL_TEST_FILE {

constexpr Size kSize{320, 240};  // 15 macroblock rows: three bands of 80 rows
constexpr int64_t kFrameUs = 16'667;

Logger null_logger() {
  return std::make_shared<spdlog::logger>("stripes-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// A ramp, with a block of another level at `block` (empty: none).
void paint(I420Image& img, Rect block, int level) {
  for (int y = 0; y < kSize.height; ++y)
    for (int x = 0; x < kSize.width; ++x) {
      const bool in = x >= block.x && x < block.x + block.width && y >= block.y && y < block.y + block.height;
      img.y()[ptrdiff_t(y) * img.stride_y() + x] = uint8_t(in ? level : 40 + x / 3 + y / 3);
    }
  for (int y = 0; y < kSize.height / 2; ++y) {
    std::memset(img.u() + ptrdiff_t(y) * img.stride_uv(), 128, size_t(kSize.width / 2));
    std::memset(img.v() + ptrdiff_t(y) * img.stride_uv(), 128, size_t(kSize.width / 2));
  }
}

std::vector<int> stripes_of(const std::vector<CodedPart>& parts) {
  std::vector<int> out;
  for (const auto& p : parts) out.push_back(p.stripe);
  return out;
}

class StripeSetTest : public ::testing::Test {
 protected:
  StripeSetTest() : set(kSize, 3, EncoderSettings{}, null_logger()), image(kSize) { paint(image, {}, 0); }

  bool encode(std::vector<Rect> damage, bool force_key = false) {
    const std::vector<Rect> d = std::move(damage);
    return set.encode(image, ++frame * kFrameUs, force_key, d, parts);
  }

  StripeSet set;
  I420Image image;
  std::vector<CodedPart> parts;
  int64_t frame = 0;
};

TEST_F(StripeSetTest, TheFirstFrameIsAKeyFrameOfEveryBand) {
  ASSERT_EQ(set.streams(), 3);
  EXPECT_EQ(set.threads(), 3) << "each band codes on its own thread";
  ASSERT_TRUE(encode({Rect{0, 0, 8, 8}}));
  ASSERT_EQ(stripes_of(parts), (std::vector<int>{0, 1, 2}));
  const auto bands = stripe_bands(kSize, 3);
  for (size_t i = 0; i < parts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(parts[i].key);
    EXPECT_EQ(parts[i].band, bands[i]);
    EXPECT_FALSE(parts[i].data.empty());
  }
}

TEST_F(StripeSetTest, AChangeCodesOnlyTheBandsItTouches) {
  ASSERT_TRUE(encode({Rect::from_size(kSize)}));
  paint(image, {10, 90, 20, 10}, 200);
  ASSERT_TRUE(encode({Rect{10, 90, 20, 10}}));
  ASSERT_EQ(stripes_of(parts), std::vector<int>{1});
  EXPECT_FALSE(parts[0].key);
  EXPECT_EQ(parts[0].band, (Rect{0, 80, 320, 80}));

  EXPECT_DOUBLE_EQ(set.rate_factor(), parts[0].rate_factor) << "one band coded: its rate factor";
  // Across the boundary between the first two bands.
  paint(image, {40, 70, 20, 20}, 90);
  ASSERT_TRUE(encode({Rect{40, 70, 20, 20}}));
  EXPECT_EQ(stripes_of(parts), (std::vector<int>{0, 1}));
  // Two bands of one size: the picture's rate factor is their mean.
  EXPECT_NEAR(set.rate_factor(), (parts[0].rate_factor + parts[1].rate_factor) / 2, 1e-9);
}

TEST_F(StripeSetTest, AForcedKeyFrameRestartsEveryBand) {
  ASSERT_TRUE(encode({Rect::from_size(kSize)}));
  ASSERT_TRUE(encode({Rect{0, 200, 4, 4}}, true));
  ASSERT_EQ(stripes_of(parts), (std::vector<int>{0, 1, 2}));
  for (const auto& p : parts) EXPECT_TRUE(p.key);
}

TEST_F(StripeSetTest, APaintoverSharpensOnlyTheBandsThatAreNotSharpYet) {
  ASSERT_TRUE(encode({Rect::from_size(kSize)}));
  set.set_crf(12);
  // The key frame was coded at 24: every band is sharpened, until each
  // comes out small (then a paintover codes nothing).
  ASSERT_TRUE(encode({}));
  EXPECT_EQ(stripes_of(parts), (std::vector<int>{0, 1, 2}));
  int rounds = 0;
  while (encode({}) && ++rounds < 10) {
  }
  ASSERT_LT(rounds, 10) << "the bands never settled";

  set.set_crf(24);
  paint(image, {100, 180, 30, 30}, 220);
  ASSERT_TRUE(encode({Rect{100, 180, 30, 30}}));
  ASSERT_EQ(stripes_of(parts), std::vector<int>{2});
  set.set_crf(12);
  ASSERT_TRUE(encode({}));
  EXPECT_EQ(stripes_of(parts), std::vector<int>{2}) << "only the changed band needs sharpening";
}

TEST_F(StripeSetTest, ThreadsChangeWithoutAKeyFrame) {
  ASSERT_TRUE(encode({Rect::from_size(kSize)}));
  EXPECT_TRUE(set.set_threads(1));
  EXPECT_EQ(set.threads(), 1);
  paint(image, {0, 0, 320, 240}, 120);
  ASSERT_TRUE(encode({Rect::from_size(kSize)}));
  ASSERT_EQ(parts.size(), 3u) << "one thread codes the bands in turn";
  for (const auto& p : parts) EXPECT_FALSE(p.key);
  EXPECT_TRUE(set.set_threads(99));
  EXPECT_EQ(set.threads(), 3) << "at most one thread per band";
}

// A worker thread may first run only once encode() has begun: it must then
// find the whole frame's jobs or none, and each band is coded exactly once
// (a band coded twice at once overran its output under ASan).
TEST(StripeSet, AFreshSetCodesEachBandOnceWhileItsWorkersStart) {
  I420Image image(kSize);
  paint(image, {}, 0);
  for (int round = 0; round < 40; ++round) {
    StripeSet set(kSize, 3, EncoderSettings{}, null_logger());
    std::vector<CodedPart> parts;
    const std::vector<Rect> damage{Rect::from_size(kSize)};
    ASSERT_TRUE(set.encode(image, kFrameUs, false, damage, parts)) << "round " << round;
    ASSERT_EQ(stripes_of(parts), (std::vector<int>{0, 1, 2})) << "round " << round;
    for (const auto& p : parts) {
      EXPECT_TRUE(p.key) << "round " << round;
      ASSERT_GE(p.data.size(), 4u);
      EXPECT_EQ(p.data[0] | p.data[1], 0) << "each band's output starts with a start code, round " << round;
    }
  }
}

TEST(StripeSet, AShortPictureGetsFewerBands) {
  StripeSet set({320, 64}, 4, EncoderSettings{}, null_logger());
  EXPECT_EQ(set.streams(), 2) << "two bands of two macroblock rows";
}

TEST(StripeSet, RefusesAPictureOfAnotherSize) {
  StripeSet set(kSize, 2, EncoderSettings{}, null_logger());
  I420Image other({160, 120});
  std::vector<CodedPart> parts;
  const std::vector<Rect> damage{Rect{0, 0, 8, 8}};
  EXPECT_FALSE(set.encode(other, 1, true, damage, parts));
  EXPECT_TRUE(parts.empty());
}

}  // namespace
}  // namespace voxl::encode
