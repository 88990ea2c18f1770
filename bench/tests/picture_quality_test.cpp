// The benchmark's expected pictures and PSNR: pure logic.
#include <gtest/gtest.h>

#include <vector>

#include "expected_picture.h"
#include "picture_quality.h"
#include "scene_picture.h"
#include "texture_picture.h"

namespace voxl::bench {
namespace {

constexpr int kW = 160, kH = 96;

std::vector<uint32_t> frame(const std::string& workload, uint32_t counter) {
  auto model = make_expected_picture(workload, kW, kH);
  std::vector<uint32_t> px(size_t(kW) * kH);
  model->render(counter, px.data());
  return px;
}

std::vector<uint8_t> rgbx(const std::vector<uint32_t>& px) {
  std::vector<uint8_t> out;
  for (uint32_t p : px) out.insert(out.end(), {uint8_t(p >> 16), uint8_t(p >> 8), uint8_t(p), 0});
  return out;
}

TEST(ExpectedPicture, OnlyPredictableWorkloads) {
  EXPECT_NE(make_expected_picture("texture", kW, kH), nullptr);
  EXPECT_NE(make_expected_picture("animation", kW, kH), nullptr);
  EXPECT_NE(make_expected_picture("fullscreen", kW, kH), nullptr);
  EXPECT_EQ(make_expected_picture("scroll", kW, kH), nullptr);
  EXPECT_EQ(make_expected_picture("idle", kW, kH), nullptr);
}

TEST(ExpectedPicture, AFrameDependsOnlyOnItsCounter) {
  for (const char* w : {"texture", "animation", "fullscreen"}) {
    auto model = make_expected_picture(w, kW, kH);
    std::vector<uint32_t> a(size_t(kW) * kH), b(a.size()), c(a.size());
    model->render(40, a.data());
    model->render(7, b.data());  // backwards, then forwards again
    model->render(40, c.data());
    EXPECT_EQ(a, c) << w;
    EXPECT_NE(a, b) << w;
    EXPECT_EQ(a, frame(w, 40)) << w;  // a fresh model agrees
  }
}

TEST(ExpectedPicture, TextureScrollsUp) {
  TexturePicture t(kW, kH);
  EXPECT_EQ(TexturePicture::kScrollPerFrame, 3);
  std::vector<uint32_t> f(size_t(kW) * kH);
  t.render(5, f.data(), kW);
  for (uint32_t p : f) EXPECT_EQ(p >> 24, 0u);
}

TEST(Psnr, IdenticalPicturesScoreTheMaximum) {
  const auto px = frame("texture", 3);
  const auto bytes = rgbx(px);
  PictureView v;
  v.width = kW;
  v.height = kH;
  v.rgbx = bytes.data();
  const PsnrSample s = measure_psnr(v, px.data(), 32, 8);
  EXPECT_EQ(s.luma_db, kMaxPsnrDb);
  EXPECT_EQ(s.rgb_db, kMaxPsnrDb);
}

TEST(Psnr, TheMarkerCellsAreLeftOut) {
  auto px = frame("animation", 3);
  auto bytes = rgbx(px);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 32; ++x) bytes[(size_t(y) * kW + size_t(x)) * 4] ^= 0xff;
  PictureView v;
  v.width = kW;
  v.height = kH;
  v.rgbx = bytes.data();
  EXPECT_EQ(measure_psnr(v, px.data(), 32, 8).rgb_db, kMaxPsnrDb);
  EXPECT_LT(measure_psnr(v, px.data(), 16, 8).rgb_db, 40);
}

TEST(Psnr, GreyYuvAgainstItsRgb) {
  // Mid grey in BT.601 limited range: Y 126 is (126 - 16) * 255 / 219 = 128.1.
  std::vector<uint32_t> expected(size_t(kW) * kH, 0x808080);
  std::vector<uint8_t> y(size_t(kW) * kH, 126), u(size_t(kW / 2) * (kH / 2), 128), v = u;
  PictureView p;
  p.width = kW;
  p.height = kH;
  p.y = y.data();
  p.u = u.data();
  p.v = v.data();
  p.chroma_width = kW / 2;
  p.chroma_height = kH / 2;
  const PsnrSample s = measure_psnr(p, expected.data(), 0, 0);
  // 0.08 off in luma: 70 dB; RGB rounds 1.164 * 110 = 128.04 to 128.
  EXPECT_NEAR(s.luma_db, 70.0, 0.5);
  EXPECT_EQ(s.rgb_db, kMaxPsnrDb);
  // Y 127 is 129.25: 1.25 off everywhere, 20 log10(255 / 1.25) = 46.2 dB.
  std::fill(y.begin(), y.end(), 127);
  EXPECT_NEAR(measure_psnr(p, expected.data(), 0, 0).luma_db, 46.2, 0.1);
}

}  // namespace
}  // namespace voxl::bench
