#include "encode/color_converter.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "encode/i420_image.h"

namespace voxl::encode {
namespace VOXL_TEST_FILE {

constexpr uint32_t kWhite = 0x00FFFFFF;
constexpr uint32_t kBlack = 0x00000000;
constexpr uint32_t kRed = 0x00FF0000;

// BT.601 limited range, as libyuv computes it.
struct Yuv {
  int y, u, v;
};
constexpr Yuv kWhiteYuv{235, 128, 128};
constexpr Yuv kBlackYuv{16, 128, 128};
constexpr Yuv kRedYuv{81, 90, 240};
constexpr int kTolerance = 2;

// A BGRX picture in its own buffer, rows padded like a real capture's.
class TestPicture {
 public:
  explicit TestPicture(Size size) : size_(size), stride_(size.width * capture::kBytesPerPixel + 32) {
    pixels_.resize(size_t(stride_) * size_t(size.height));
  }
  void set(int x, int y, uint32_t xrgb) {
    std::memcpy(pixels_.data() + ptrdiff_t(y) * stride_ + ptrdiff_t(x) * capture::kBytesPerPixel, &xrgb, 4);
  }
  void fill(uint32_t xrgb) { fill(Rect::from_size(size_), xrgb); }
  void fill(const Rect& r, uint32_t xrgb) {
    for (int y = r.y; y < r.bottom(); ++y)
      for (int x = r.x; x < r.right(); ++x) set(x, y, xrgb);
  }
  capture::Frame frame() { return capture::Frame(pixels_.data(), size_, stride_); }
  Size size() const { return size_; }

 private:
  Size size_;
  int stride_;
  std::vector<uint8_t> pixels_;
};

void convert_all(ColorConverter& c, TestPicture& pic, I420Image& out) {
  const Rect all = Rect::from_size(pic.size());
  c.convert(pic.frame(), std::span<const Rect>(&all, 1), out);
}

int y_at(const I420Image& img, int x, int y) { return img.y()[ptrdiff_t(y) * img.stride_y() + x]; }
int u_at(const I420Image& img, int cx, int cy) { return img.u()[ptrdiff_t(cy) * img.stride_uv() + cx]; }
int v_at(const I420Image& img, int cx, int cy) { return img.v()[ptrdiff_t(cy) * img.stride_uv() + cx]; }

// Every sample whose pixel lies in `r` (or outside it, with `inside` false)
// has the expected colour.
void expect_colour(const I420Image& img, const Rect& r, Yuv want, bool inside = true) {
  const Size s = img.size();
  int bad = 0;
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x) {
      const bool in = x >= r.x && x < r.right() && y >= r.y && y < r.bottom();
      if (in != inside) continue;
      if (std::abs(y_at(img, x, y) - want.y) > kTolerance && bad++ < 5)
        ADD_FAILURE() << "Y at " << x << "," << y << " is " << y_at(img, x, y) << ", want " << want.y;
      if (x % 2 || y % 2) continue;
      const int u = u_at(img, x / 2, y / 2), v = v_at(img, x / 2, y / 2);
      if ((std::abs(u - want.u) > kTolerance || std::abs(v - want.v) > kTolerance) && bad++ < 5)
        ADD_FAILURE() << "UV at " << x << "," << y << " is " << u << "," << v << ", want " << want.u << ","
                      << want.v;
    }
  EXPECT_EQ(bad, 0) << "samples off in " << to_string(r) << (inside ? "" : " (outside)");
}

TEST(I420Image, StartsBlackAndWantsAnEvenSize) {
  const I420Image img({64, 32});
  EXPECT_EQ(img.size(), (Size{64, 32}));
  EXPECT_GE(img.stride_y(), 64);
  EXPECT_GE(img.stride_uv(), 32);
  expect_colour(img, Rect::from_size(img.size()), kBlackYuv);
  EXPECT_THROW(I420Image({63, 32}), std::invalid_argument);
  EXPECT_THROW(I420Image({64, 31}), std::invalid_argument);
  EXPECT_THROW(I420Image({0, 0}), std::invalid_argument);
}

TEST(EncodableSize, RoundsDownToEven) {
  EXPECT_EQ(encodable_size({1920, 1080}), (Size{1920, 1080}));
  EXPECT_EQ(encodable_size({1917, 1083}), (Size{1916, 1082}));
  EXPECT_EQ(encodable_size({33, 19}), (Size{32, 18}));
  EXPECT_EQ(encodable_size({1, 1}), (Size{0, 0}));
}

TEST(ColorConverter, ConvertsSolidColoursToLimitedRangeBt601) {
  ColorConverter c(1);
  const Size size{64, 48};
  TestPicture pic(size);
  I420Image out(size);
  const std::pair<uint32_t, Yuv> cases[] = {{kWhite, kWhiteYuv}, {kBlack, kBlackYuv}, {kRed, kRedYuv}};
  for (const auto& [xrgb, want] : cases) {
    SCOPED_TRACE(::testing::Message() << std::hex << xrgb);
    pic.fill(xrgb);
    convert_all(c, pic, out);
    expect_colour(out, Rect::from_size(size), want);
  }
}

TEST(ColorConverter, XByteIsIgnored) {
  ColorConverter c(1);
  TestPicture pic({16, 16});
  I420Image out({16, 16});
  pic.fill(0xFFFF0000);  // red with the unused byte set
  convert_all(c, pic, out);
  expect_colour(out, Rect::from_size({16, 16}), kRedYuv);
}

TEST(ColorConverter, OnlyTheGivenRectChanges) {
  ColorConverter c(1);
  const Size size{96, 64};
  TestPicture pic(size);
  I420Image out(size);
  pic.fill(kRed);
  convert_all(c, pic, out);

  pic.fill(kWhite);  // the whole picture changes, but only this part is converted
  const Rect damaged{10, 6, 20, 8};
  c.convert(pic.frame(), std::span<const Rect>(&damaged, 1), out);
  expect_colour(out, damaged, kWhiteYuv);
  expect_colour(out, damaged, kRedYuv, /*inside=*/false);
}

TEST(ColorConverter, SeveralRectsAreAllConverted) {
  ColorConverter c(1);
  const Size size{128, 96};
  TestPicture pic(size);
  I420Image out(size);
  pic.fill(kWhite);
  const std::vector<Rect> rects{{0, 0, 16, 16}, {64, 32, 32, 40}, {112, 80, 16, 16}};
  c.convert(pic.frame(), rects, out);
  for (const Rect& r : rects) expect_colour(out, r, kWhiteYuv);
  EXPECT_EQ(y_at(out, 40, 20), kBlackYuv.y) << "untouched area keeps the initial black";
}

TEST(ColorConverter, UnalignedRectIsWidenedToWholeChromaBlocks) {
  ColorConverter c(1);
  const Size size{32, 32};
  TestPicture pic(size);
  I420Image out(size);
  pic.fill(kRed);
  const Rect raw{11, 7, 5, 3};  // covers x 11..15, y 7..9
  c.convert(pic.frame(), std::span<const Rect>(&raw, 1), out);
  const Rect widened{10, 6, 6, 4};  // x 10..15, y 6..9
  expect_colour(out, widened, kRedYuv);
  expect_colour(out, widened, kBlackYuv, /*inside=*/false);
}

TEST(ColorConverter, RectsOutsideTheImageAreClippedOrIgnored) {
  ColorConverter c(1);
  const Size size{32, 32};
  TestPicture pic(size);
  I420Image out(size);
  pic.fill(kWhite);
  const std::vector<Rect> rects{{40, 40, 8, 8}, {0, 0, 0, 0}};
  c.convert(pic.frame(), rects, out);
  expect_colour(out, Rect::from_size(size), kBlackYuv);
}

TEST(ColorConverter, OddFrameLeavesOutTheLastColumnAndRow) {
  ColorConverter c(2);
  const Size frame_size{33, 19};
  TestPicture pic(frame_size);
  pic.fill(kWhite);
  pic.fill({32, 0, 1, 19}, kRed);  // the odd column
  pic.fill({0, 18, 33, 1}, kRed);  // the odd row
  I420Image out(encodable_size(frame_size));
  ASSERT_EQ(out.size(), (Size{32, 18}));
  convert_all(c, pic, out);
  expect_colour(out, Rect::from_size(out.size()), kWhiteYuv);
}

TEST(ColorConverter, RectTouchingTheOddEdgeStaysInsideTheImage) {
  ColorConverter c(1);
  const Size frame_size{33, 19};
  TestPicture pic(frame_size);
  pic.fill(kWhite);
  I420Image out(encodable_size(frame_size));
  const Rect edge{30, 16, 3, 3};  // reaches the frame's right and bottom edges
  c.convert(pic.frame(), std::span<const Rect>(&edge, 1), out);
  expect_colour(out, {30, 16, 2, 2}, kWhiteYuv);
  expect_colour(out, {30, 16, 2, 2}, kBlackYuv, /*inside=*/false);
}

void fill_noise(TestPicture& pic, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int y = 0; y < pic.size().height; ++y)
    for (int x = 0; x < pic.size().width; ++x) pic.set(x, y, uint32_t(rng()) & 0x00FFFFFF);
}

bool same_pixels(const I420Image& a, const I420Image& b) {
  const Size s = a.size();
  for (int y = 0; y < s.height; ++y) {
    if (std::memcmp(a.y() + ptrdiff_t(y) * a.stride_y(), b.y() + ptrdiff_t(y) * b.stride_y(), size_t(s.width)))
      return false;
    if (y % 2) continue;
    const ptrdiff_t ua = ptrdiff_t(y / 2) * a.stride_uv(), ub = ptrdiff_t(y / 2) * b.stride_uv();
    if (std::memcmp(a.u() + ua, b.u() + ub, size_t(s.width / 2)) ||
        std::memcmp(a.v() + ua, b.v() + ub, size_t(s.width / 2)))
      return false;
  }
  return true;
}

TEST(ColorConverter, FourThreadsGiveTheSameBytesAsOne) {
  const Size size{640, 482};
  TestPicture pic(size);
  ColorConverter one(1), four(4);
  I420Image a(size), b(size);

  fill_noise(pic, 1);
  convert_all(one, pic, a);
  convert_all(four, pic, b);
  EXPECT_TRUE(same_pixels(a, b)) << "whole frame";

  // Again with the same converters (their workers are reused) and several
  // damaged rects, some taller than one band of work.
  fill_noise(pic, 2);
  const std::vector<Rect> rects{{0, 0, 640, 130}, {100, 200, 300, 200}, {600, 420, 40, 62}, {2, 410, 10, 10}};
  one.convert(pic.frame(), rects, a);
  four.convert(pic.frame(), rects, b);
  EXPECT_TRUE(same_pixels(a, b)) << "damaged rects";
}

TEST(ColorConverter, ManyConversionsOnOneConverterStayConsistent) {
  const Size size{256, 256};
  TestPicture pic(size);
  ColorConverter four(4), one(1);
  I420Image a(size), b(size);
  for (uint32_t round = 0; round < 20; ++round) {
    fill_noise(pic, 100 + round);
    const Rect r{int(round % 4) * 32, int(round % 3) * 64, 128, 192};
    four.convert(pic.frame(), std::span<const Rect>(&r, 1), a);
    one.convert(pic.frame(), std::span<const Rect>(&r, 1), b);
    ASSERT_TRUE(same_pixels(a, b)) << "round " << round;
  }
}

// How many of `bands` cover each pixel of an image of `size`, row by row.
std::vector<int> cover_counts(const std::vector<Rect>& bands, Size size) {
  std::vector<int> n(size_t(size.width) * size_t(size.height), 0);
  for (const Rect& b : bands)
    for (int y = b.y; y < b.bottom(); ++y)
      for (int x = b.x; x < b.right(); ++x) ++n[size_t(y) * size_t(size.width) + size_t(x)];
  return n;
}

// The bands for `rects` write every pixel of the rects (widened to whole
// 2x2 chroma blocks, clipped to the image) exactly once, and nothing else:
// no two threads ever write the same bytes.
void expect_each_pixel_once(const std::vector<Rect>& rects, Size size) {
  const std::vector<Rect> bands = ColorConverter::bands(rects, size);
  const std::vector<int> got = cover_counts(bands, size);
  std::vector<Rect> widened;
  for (const Rect& r : rects) {
    const int x0 = r.x & ~1, y0 = r.y & ~1;
    widened.push_back(Rect{x0, y0, (r.right() - x0 + 1) & ~1, (r.bottom() - y0 + 1) & ~1});
  }
  const std::vector<int> want = cover_counts([&] {
    std::vector<Rect> clipped;
    for (const Rect& w : widened) clipped.push_back(w.intersect(Rect::from_size(size)));
    return clipped;
  }(), size);
  int twice = 0, missed = 0, extra = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    twice += got[i] > 1;
    missed += want[i] > 0 && got[i] == 0;
    extra += want[i] == 0 && got[i] > 0;
  }
  EXPECT_EQ(twice, 0) << "pixels handed out more than once, in " << bands.size() << " bands";
  EXPECT_EQ(missed, 0) << "damaged pixels not handed out";
  EXPECT_EQ(extra, 0) << "undamaged pixels handed out";
  for (const Rect& b : bands) {
    EXPECT_EQ(b.x % 2, 0) << to_string(b);
    EXPECT_EQ(b.y % 2, 0) << to_string(b);
    EXPECT_EQ(b.width % 2, 0) << to_string(b);
    EXPECT_EQ(b.height % 2, 0) << to_string(b);
  }
}

TEST(ColorConverter, DamageAndWhatARungOwedAreHandedOutOnce) {
  // A rung's frame converts this capture's damage and what it owed from
  // earlier captures: the two overlap.
  const std::vector<Rect> rects{{0, 0, 200, 100}, {100, 50, 200, 150}};
  expect_each_pixel_once(rects, {320, 240});
}

TEST(ColorConverter, TheSameRectTwiceIsHandedOutOnce) {
  const std::vector<Rect> rects{{16, 16, 64, 130}, {16, 16, 64, 130}};
  expect_each_pixel_once(rects, {128, 160});
  EXPECT_EQ(ColorConverter::bands(rects, {128, 160}).size(), ColorConverter::bands({&rects[0], 1}, {128, 160}).size());
}

TEST(ColorConverter, RectsThatMeetOnceWidenedAreHandedOutOnce) {
  // Disjoint as reported, but both widen over x 2..3 (the 2x2 chroma block
  // they share).
  const std::vector<Rect> rects{{0, 0, 3, 4}, {3, 0, 4, 4}, {1, 3, 6, 2}};
  expect_each_pixel_once(rects, {16, 16});
}

TEST(ColorConverter, RandomDamageIsHandedOutOnce) {
  std::mt19937 rng(35);
  const Size size{200, 150};
  for (int round = 0; round < 200; ++round) {
    std::vector<Rect> rects(size_t(1 + rng() % 12));
    for (Rect& r : rects)
      r = {int(rng() % 220) - 10, int(rng() % 170) - 10, int(1 + rng() % 90), int(1 + rng() % 90)};
    SCOPED_TRACE(::testing::Message() << "round " << round);
    expect_each_pixel_once(rects, size);
    if (HasFailure()) return;
  }
}

TEST(ColorConverter, OverlappingRectsOnFourThreadsGiveTheSameBytesAsOne) {
  const Size size{320, 240};
  TestPicture pic(size);
  fill_noise(pic, 7);
  ColorConverter one(1), four(4);
  I420Image a(size), b(size);
  const std::vector<Rect> rects{{0, 0, 200, 100}, {101, 51, 199, 150}, {0, 0, 200, 100}, {3, 90, 5, 140}};
  one.convert(pic.frame(), rects, a);
  four.convert(pic.frame(), rects, b);
  EXPECT_TRUE(same_pixels(a, b));
}

std::system_error refused() {
  return std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again), "thread refused");
}

TEST(ColorConverter, AThreadRefusedAfterOthersStartedFailsTheConstructorCleanly) {
  int started = 0;
  auto spawn = [&](std::function<void()> body) {
    if (started == 2) throw refused();
    ++started;
    return std::thread(std::move(body));
  };
  // The two started workers are stopped and joined; the error reaches the
  // caller (without the join, std::thread's destructor would terminate).
  EXPECT_THROW(ColorConverter(4, spawn), std::system_error);
  EXPECT_EQ(started, 2);
}

TEST(ColorConverter, TheFirstThreadRefusedFailsTheConstructor) {
  auto spawn = [](std::function<void()>) -> std::thread { throw refused(); };
  EXPECT_THROW(ColorConverter(2, spawn), std::system_error);
}

TEST(ColorConverter, WorkersComeFromTheSpawnFunction) {
  int spawned = 0;
  auto spawn = [&](std::function<void()> body) {
    ++spawned;
    return std::thread(std::move(body));
  };
  const Size size{256, 256};
  TestPicture pic(size);
  fill_noise(pic, 3);
  ColorConverter three(3, spawn), one(1, spawn);
  EXPECT_EQ(spawned, 2) << "N threads: the caller and N-1 workers";
  I420Image a(size), b(size);
  convert_all(three, pic, a);
  convert_all(one, pic, b);
  EXPECT_TRUE(same_pixels(a, b));
}

}  // namespace
}  // namespace voxl::encode
