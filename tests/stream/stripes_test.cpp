// --stripes through the real binary: the picture comes as N streams, one
// per band, which the test client decodes apart and composes; a rectangle
// across a band boundary shows whole and in place, a change inside one band
// sends frames of that band only, and recordings are refused clearly.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "encode/stripe_layout.h"
#include "http_client.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr uint32_t kBackground = 0x204060;
constexpr uint32_t kOrange = 0xff8000;
constexpr uint32_t kGreen = 0x00c040;
constexpr int kOutsideX = 620;  // right of every rectangle drawn here
constexpr int kOutsideY = 20;

class StripesTest : public VoxlFixture, public ::testing::WithParamInterface<int> {
 protected:
  void SetUp() override { start_display(kBackground); }

  std::vector<Rect> bands() const { return encode::stripe_bands(kScreen, GetParam()); }

  // Reads until the composed picture shows `rgb` at every point and the
  // background at kOutside.
  ::testing::AssertionResult shows(StreamClient& c, uint32_t rgb, std::vector<std::pair<int, int>> points) {
    const bool ok = c.wait_until([&] {
      const auto outside = c.pixel(kOutsideX, kOutsideY);
      if (!outside || !near_colour(*outside, kBackground)) return false;
      for (auto [x, y] : points) {
        const auto p = c.pixel(x, y);
        if (!p || !near_colour(*p, rgb)) return false;
      }
      return true;
    });
    if (ok) return ::testing::AssertionSuccess();
    auto failure = ::testing::AssertionFailure() << "waiting for " << colour_name(rgb) << ":";
    for (auto [x, y] : points) {
      const auto p = c.pixel(x, y);
      failure << " (" << x << "," << y << ") " << (p ? colour_name(*p) : "undecoded");
    }
    return failure << "; client: " << c.status();
  }
};

TEST_P(StripesTest, EveryBandDecodesAndARectangleAcrossABoundaryIsWhole) {
  const auto b = bands();
  ASSERT_EQ(int(b.size()), GetParam());
  const int boundary = b[1].y;
  const Rect across{200, boundary - 30, 160, 60};
  fill(across, kOrange);
  start_voxl({"--stripes=" + std::to_string(GetParam())});
  StreamClient client(client_options());
  // Both sides of the boundary, its edges, and the middle.
  ASSERT_TRUE(shows(client, kOrange,
                    {{280, boundary - 1}, {280, boundary}, {202, boundary - 28}, {357, boundary + 28}, {280, boundary - 15}}));
  // Every band's key frame comes, not only those of the bands looked at.
  ASSERT_TRUE(client.wait_until([&] {
    std::set<int> keys;
    for (size_t i = 0; i < client.frames().size(); ++i)
      if (client.frames()[i].key) keys.insert(client.frame_stripes()[i].stripe);
    return int(keys.size()) == GetParam();
  })) << client.status();
  EXPECT_TRUE(near_colour(*client.pixel(10, kScreen.height - 2), kBackground)) << client.status();
  // Just outside the rectangle, above and below: the background.
  EXPECT_TRUE(near_colour(*client.pixel(280, boundary - 33), kBackground)) << client.status();
  EXPECT_TRUE(near_colour(*client.pixel(280, boundary + 32), kBackground)) << client.status();
  EXPECT_EQ(client.decode_errors(), 0) << client.status();

  // The hello says the stripes; each stream is announced with its band
  // before its first key frame, which comes for every one.
  ASSERT_FALSE(client.texts().empty());
  EXPECT_EQ(client.texts().front().value("stripes", 0), GetParam());
  std::set<int> announced;
  for (const auto& t : client.texts()) {
    if (t.value("type", "") != "video") continue;
    const int s = t.value("stripe", -1);
    ASSERT_GE(s, 0) << t.dump();
    ASSERT_LT(s, GetParam());
    EXPECT_EQ(t.value("stripes", 0), GetParam());
    EXPECT_EQ(t.value("band_y", -1), b[size_t(s)].y);
    EXPECT_EQ(t.value("band_height", -1), b[size_t(s)].height);
    EXPECT_EQ(t.value("width", 0), kScreen.width);
    EXPECT_EQ(t.value("height", 0), kScreen.height);
    announced.insert(s);
  }
  EXPECT_EQ(int(announced.size()), GetParam());
  std::set<int> keyed;
  for (size_t i = 0; i < client.frames().size(); ++i) {
    const auto& s = client.frame_stripes()[i];
    EXPECT_EQ(s.stripes, GetParam());
    EXPECT_EQ(s.band_y, b[s.stripe].y);
    EXPECT_EQ(s.band_height, b[s.stripe].height);
    EXPECT_EQ(client.frames()[i].width, kScreen.width) << "the header keeps the whole picture's size";
    if (client.frames()[i].key) keyed.insert(s.stripe);
    else EXPECT_TRUE(keyed.contains(s.stripe)) << "stripe " << int(s.stripe) << " sent a delta before its key frame";
  }
  EXPECT_EQ(int(keyed.size()), GetParam());
  // The frames of one capture come together, and the last one says so (the
  // newest frame's capture may have more to come: not judged).
  for (size_t i = 0; i + 1 < client.frames().size(); ++i) {
    const bool next_is_same_capture = client.frames()[i + 1].capture_us == client.frames()[i].capture_us;
    EXPECT_EQ(client.frame_stripes()[i].last, !next_is_same_capture) << "frame " << client.frames()[i].frame_id;
  }
}

TEST_P(StripesTest, AChangeInsideOneBandSendsThatBandOnly) {
  // No paintover within the test's window: a paintover would code the
  // changed band again, which is right but not what is counted here.
  start_voxl({"--stripes=" + std::to_string(GetParam()), "--paintover-delay-ms=10000"});
  StreamClient client(client_options());
  ASSERT_TRUE(shows(client, kBackground, {{10, 10}, {10, kScreen.height - 10}}));
  const auto b = bands();
  const Rect& last = b.back();
  const Rect inside{50, last.y + 10, 120, last.height - 20};
  const size_t before = client.frames().size();
  fill(inside, kGreen);
  ASSERT_TRUE(shows(client, kGreen, {{60, last.y + 12}, {160, last.y + last.height - 12}}));
  ASSERT_GT(client.frames().size(), before);
  for (size_t i = before; i < client.frames().size(); ++i) {
    EXPECT_EQ(int(client.frame_stripes()[i].stripe), GetParam() - 1) << "frame " << client.frames()[i].frame_id;
    EXPECT_FALSE(client.frames()[i].key);
  }
  EXPECT_EQ(client.decode_errors(), 0) << client.status();
}

TEST_P(StripesTest, RecordingsAreRefusedWithAReason) {
  start_voxl({"--stripes=" + std::to_string(GetParam())});
  const HttpAnswer a = http_request(voxl_->port(), {"GET", "/record?seconds=1", {}});
  EXPECT_EQ(a.status, 409) << a.body;
  EXPECT_NE(a.body.find("--stripes 1"), std::string::npos) << a.body;
}

INSTANTIATE_TEST_SUITE_P(Stripes, StripesTest, ::testing::Values(2, 4),
                         [](const auto& p) { return "Stripes" + std::to_string(p.param); });

}  // namespace
}  // namespace voxl::testing
