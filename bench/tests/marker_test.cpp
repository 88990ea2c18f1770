#include "marker/marker.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <vector>

namespace voxl::bench {
namespace {

// A picture with the marker drawn into it, as a luma plane.
struct Canvas {
  int w, h;
  std::vector<int> luma;
  Canvas(int w_, int h_, int fill) : w(w_), h(h_), luma(size_t(w_ * h_), fill) {}
  void draw(uint32_t counter, int cell, int dark = 16, int light = 235) {
    for (const auto& c : marker_cells(counter, cell))
      for (int y = c.y; y < c.y + c.size; ++y)
        for (int x = c.x; x < c.x + c.size; ++x) luma[size_t(y * w + x)] = c.light ? light : dark;
  }
  std::function<int(int, int)> reader() const {
    return [this](int x, int y) { return luma[size_t(y * w + x)]; };
  }
};

TEST(Marker, RoundTripsCountersAtEveryCellSize) {
  for (int cell : {4, 8, 16, 32}) {
    Canvas c(marker_width(cell), marker_height(cell), 128);
    for (uint32_t counter : {0u, 1u, 2u, 255u, 256u, 65535u, 1234567u, 0xffffffu}) {
      c.draw(counter, cell);
      EXPECT_EQ(read_marker(c.reader(), cell), counter) << "cell " << cell;
    }
  }
}

TEST(Marker, KeepsTheLow24BitsOfTheCounter) {
  Canvas c(marker_width(), marker_height(), 0);
  c.draw(0x1000005, kDefaultMarkerCell);
  EXPECT_EQ(read_marker(c.reader()), 5u);
}

TEST(Marker, SurvivesBlurredEdgesAndNoise) {
  Canvas c(marker_width(), marker_height(), 0);
  c.draw(424242, kDefaultMarkerCell, 40, 200);
  std::mt19937 rng(7);
  // Smear a 3-pixel border of every cell, and add noise everywhere.
  for (int y = 0; y < c.h; ++y)
    for (int x = 0; x < c.w; ++x) {
      int& v = c.luma[size_t(y * c.w + x)];
      if (x % 16 < 3 || x % 16 > 12 || y % 16 < 3 || y % 16 > 12) v = 128;
      v = std::clamp(v + int(rng() % 31) - 15, 0, 255);
    }
  EXPECT_EQ(read_marker(c.reader()), 424242u);
}

TEST(Marker, RejectsContentThatIsNotAMarker) {
  Canvas grey(marker_width(), marker_height(), 128);
  EXPECT_FALSE(read_marker(grey.reader()));
  // A marker with one cell flipped fails its checksum.
  Canvas c(marker_width(), marker_height(), 0);
  c.draw(777, kDefaultMarkerCell);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) c.luma[size_t(y * c.w + x)] ^= 0xff ^ 0x0;
  EXPECT_FALSE(read_marker(c.reader()));
  // Random black and white cells almost never pass: at most a few in a thousand.
  std::mt19937 rng(1);
  int accepted = 0;
  for (int i = 0; i < 1000; ++i) {
    Canvas r(marker_width(), marker_height(), 0);
    r.draw(rng() & 0xffffff, kDefaultMarkerCell);
    for (int y = 16; y < 32; ++y)  // scramble the checksum row's cells
      for (int x = 0; x < r.w; ++x) r.luma[size_t(y * r.w + x)] = ((x / 16 + int(rng() % 2)) % 2) ? 235 : 16;
    accepted += read_marker(r.reader()).has_value();
  }
  EXPECT_LT(accepted, 20);
}

TEST(DrawLog, ReadsCountersAndTheirFirstDrawTime) {
  const std::string path = ::testing::TempDir() + "voxl_draw_log_test.txt";
  {
    std::ofstream out(path);
    out << "1 1000\n2 2000\nnot a line\n3 3000\n2 9999\n";
  }
  const DrawLog log = read_draw_log(path);
  std::remove(path.c_str());
  EXPECT_EQ(log.draw_time(1), 1000);
  EXPECT_EQ(log.draw_time(2), 2000);
  EXPECT_EQ(log.draw_time(3), 3000);
  EXPECT_FALSE(log.draw_time(4));
}

}  // namespace
}  // namespace voxl::bench
