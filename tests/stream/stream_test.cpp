// The stream end to end: shapes drawn on a private Xvfb must come out of a
// real voxl process, decoded, in the right colours; a still screen costs
// nothing; viewers share one stream and a stalled one harms nobody.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr uint32_t kBackground = 0x204060;
constexpr uint32_t kRed = 0xff0000;
constexpr uint32_t kGreen = 0x00ff00;
constexpr uint32_t kBlue = 0x0000ff;
constexpr Rect kRect{100, 100, 200, 150};
constexpr Rect kOtherRect{340, 220, 200, 150};
constexpr int kOutsideX = 600;  // above and right of both rectangles
constexpr int kOutsideY = 40;

int centre_x(const Rect& r) { return r.x + r.width / 2; }
int centre_y(const Rect& r) { return r.y + r.height / 2; }

std::string describe(const StreamClient& c, int x, int y) {
  const auto p = c.pixel(x, y);
  return "(" + std::to_string(x) + "," + std::to_string(y) + ") is " + (p ? colour_name(*p) : "undecoded") +
         "; client: " + c.status();
}

class StreamTest : public VoxlFixture {
 protected:
  void SetUp() override { start_display(kBackground); }

  // Reads until the newest picture shows `rgb` at the centre of `r` and the
  // background outside every rectangle.
  ::testing::AssertionResult shows(StreamClient& c, uint32_t rgb, const Rect& r = kRect) {
    const bool ok = c.wait_until([&] {
      const auto inside = c.pixel(centre_x(r), centre_y(r));
      const auto outside = c.pixel(kOutsideX, kOutsideY);
      return inside && outside && near_colour(*inside, rgb) && near_colour(*outside, kBackground);
    });
    if (ok) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "waiting for " << colour_name(rgb) << " at "
                                         << describe(c, centre_x(r), centre_y(r)) << "; outside "
                                         << describe(c, kOutsideX, kOutsideY);
  }
};

TEST_F(StreamTest, DecodedFrameShowsDrawnRectangle) {
  fill(kRect, kRed);
  start_voxl();
  StreamClient client(client_options());
  ASSERT_TRUE(shows(client, kRed));

  // The protocol around it: hello first, the stream's format before any
  // frame (input and cursor messages may come between), then a key frame
  // of the screen's size.
  const auto& texts = client.texts();
  ASSERT_GE(texts.size(), 2u);
  EXPECT_EQ(texts[0].value("type", ""), "hello");
  EXPECT_EQ(texts[0].value("version", 0), stream::kProtocolVersion);
  const auto video = std::find_if(texts.begin(), texts.end(), [](const auto& t) { return t.value("type", "") == "video"; });
  ASSERT_NE(video, texts.end());
  EXPECT_EQ(video->value("width", 0), kScreen.width);
  EXPECT_EQ(video->value("height", 0), kScreen.height);
  ASSERT_FALSE(client.frames().empty());
  EXPECT_TRUE(client.frames().front().key);
  EXPECT_EQ(client.frames().front().width, kScreen.width);
  EXPECT_EQ(client.frames().front().height, kScreen.height);
  EXPECT_EQ(client.picture()->width, kScreen.width);
  EXPECT_EQ(client.decode_errors(), 0) << client.status();
}

TEST_F(StreamTest, ChangeOnScreenArrives) {
  fill(kRect, kRed);
  start_voxl();
  StreamClient client(client_options());
  ASSERT_TRUE(shows(client, kRed));
  const uint32_t red_frame = client.picture_frame_id();

  fill(kRect, kGreen);
  ASSERT_TRUE(shows(client, kGreen));
  EXPECT_GT(client.picture_frame_id(), red_frame);
  EXPECT_EQ(client.decode_errors(), 0) << client.status();
}

TEST_F(StreamTest, StillScreenSendsNoFrames) {
  // Sharpening a still screen (paintover) would be a legitimate frame;
  // its delay is set far beyond the window below.
  start_voxl({"--paintover-delay-ms=10000"});
  StreamClient client(client_options());
  // The first picture comes before the drawing, so that the drawing is one
  // damage event and therefore exactly one frame.
  ASSERT_TRUE(shows(client, kBackground));
  fill(kRect, kBlue);
  ASSERT_TRUE(shows(client, kBlue));

  // Nothing changes on the screen any more, so nothing may arrive. The
  // window only bounds the wait for an event that must not happen.
  const size_t frames_before = client.frames().size();
  const auto got = client.read_one(std::chrono::milliseconds(1500));
  EXPECT_EQ(got, StreamClient::Got::kTimeout) << "a message arrived for a still screen: " << client.status();
  EXPECT_EQ(client.frames().size(), frames_before);
}

// Reads until nothing arrives for 1.5 s (a picture's paintover burst
// included); bounded so a stream that never settles fails.
bool settles(StreamClient& client) {
  for (int i = 0; i < 200; ++i)
    if (client.read_one(std::chrono::milliseconds(1500)) == StreamClient::Got::kTimeout) return true;
  return false;
}

TEST_F(StreamTest, AStillScreenIsSharpenedByABoundedPaintoverBurst) {
  start_voxl({"--paintover-delay-ms=100", "--paintover-burst=3", "--paintover-crf=10"});
  StreamClient client(client_options());
  ASSERT_TRUE(shows(client, kBackground));
  ASSERT_TRUE(settles(client)) << client.status();
  const size_t before = client.frames().size();
  fill(kRect, kGreen);  // one request: one damage event, one frame
  ASSERT_TRUE(shows(client, kGreen));
  ASSERT_TRUE(settles(client)) << client.status();
  // The change, then up to three frames of the same picture (fewer only if
  // the viewer could not take them), none of them a key frame.
  const auto& frames = client.frames();
  ASSERT_GE(frames.size(), before + 1);
  const size_t extra = frames.size() - before - 1;
  EXPECT_GE(extra, 1u) << client.status();
  EXPECT_LE(extra, 3u) << client.status();
  for (size_t i = before; i < frames.size(); ++i) EXPECT_FALSE(frames[i].key);
  EXPECT_EQ(client.decode_errors(), 0) << client.status();
}

// Tiles of 4x32 pixels in colours from a hash: solid areas a coder takes
// cheaply at a fine quantiser, but far too many edges for 2 KB a frame.
uint32_t tile_at(int x, int y) { return (uint32_t(x / 4) * 2654435761u ^ uint32_t(y / 32) * 40503u) & 0x9f9f9fu; }

// Luma PSNR of the newest picture inside `r` against tile_at.
double tiles_psnr(const StreamClient& c, const Rect& r) {
  double se = 0;
  const auto luma = [](uint32_t p) { return 0.299 * (p >> 16) + 0.587 * ((p >> 8) & 0xff) + 0.114 * (p & 0xff); };
  for (int y = r.y; y < r.bottom(); ++y)
    for (int x = r.x; x < r.right(); ++x) {
      const double d = luma(c.pixel(x, y).value_or(0)) - luma(tile_at(x, y));
      se += d * d;
    }
  const double mse = se / (double(r.width) * double(r.height));
  return mse > 0 ? 10 * std::log10(255.0 * 255.0 / mse) : 100;
}

// On a slow link, motion leaves a blurred picture: one frame interval of the
// link (here 2 KB at 1000 kbit/s) cannot code much. Once the screen is still
// the paintover may take the bits the link could have carried during the
// stillness (banked by the burst's first frame, spent by its second), not an
// interval's a frame: it used to end nearly as blurred as the change left it.
TEST_F(StreamTest, APaintoverSpendsTheLinkBudgetOfTheStillness) {
  start_voxl({"--max-kbps=1000", "--paintover-delay-ms=200", "--paintover-burst=3", "--paintover-crf=10"});
  StreamClient client(client_options());
  ASSERT_TRUE(shows(client, kBackground));
  ASSERT_TRUE(settles(client)) << client.status();
  constexpr Rect kDetail{64, 64, 480, 320};
  const size_t before = client.frames().size();
  painter_->paint(kDetail, tile_at);
  ASSERT_TRUE(client.wait_until([&] { return client.frames().size() > before; })) << client.status();
  const double blurred = tiles_psnr(client, kDetail);
  const uint64_t bytes_before_burst = client.video_bytes();
  ASSERT_TRUE(settles(client)) << client.status();
  const uint64_t burst_bytes = client.video_bytes() - bytes_before_burst;
  const double sharpened = tiles_psnr(client, kDetail);
  constexpr uint64_t kInterval = 1000 * 1000 / 8 / 60;  // bytes a frame interval carries
  EXPECT_GT(burst_bytes, 4 * kInterval) << "the burst after the change took " << burst_bytes << " bytes";
  EXPECT_LT(burst_bytes, 16 * kInterval) << "the burst after the change took " << burst_bytes << " bytes";
  // Measured: 16 dB after the change, 43 dB after the burst (21 dB when
  // each paintover frame had one interval's bits).
  EXPECT_GT(sharpened, std::max(35.0, blurred + 10)) << "the change showed at " << blurred
                                                      << " dB, the still picture at " << sharpened << " dB after "
                                                      << burst_bytes << " bytes";
  EXPECT_EQ(client.decode_errors(), 0) << client.status();
}

TEST_F(StreamTest, CoalescingKeepsTheStreamExact) {
  start_voxl({"--coalesce-us=20000"});
  StreamClient client(client_options());
  ASSERT_TRUE(shows(client, kBackground));
  fill(kRect, kRed);
  ASSERT_TRUE(shows(client, kRed, kRect));
  fill(kOtherRect, kGreen);
  fill(kRect, kBlue);
  ASSERT_TRUE(shows(client, kBlue, kRect));
  ASSERT_TRUE(shows(client, kGreen, kOtherRect));
}

TEST_F(StreamTest, TwoViewersGetTheSameStream) {
  start_voxl();
  StreamClient first(client_options());
  ASSERT_TRUE(first.wait_until([&] { return first.picture().has_value(); })) << first.status();
  StreamClient second(client_options());
  ASSERT_TRUE(second.wait_until([&] { return second.picture().has_value(); })) << second.status();

  fill(kRect, kRed);
  ASSERT_TRUE(shows(first, kRed));
  ASSERT_TRUE(shows(second, kRed));
  // The same encode reached both: the change is the same frame.
  EXPECT_EQ(first.picture_frame_id(), second.picture_frame_id());

  // The second viewer starts on the key frame its joining asked for; from
  // there on both saw the same frames, up to the one with the change.
  ASSERT_FALSE(second.frames().empty());
  EXPECT_TRUE(second.frames().front().key);
  const uint32_t from = second.frames().front().frame_id;
  const uint32_t to = second.picture_frame_id();
  auto ids_between = [&](const StreamClient& c) {
    std::vector<uint32_t> ids;
    for (const auto& h : c.frames())
      if (h.frame_id >= from && h.frame_id <= to) ids.push_back(h.frame_id);
    return ids;
  };
  const std::vector<uint32_t> ids = ids_between(first);
  EXPECT_EQ(ids, ids_between(second));
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(first.decode_errors(), 0) << first.status();
  EXPECT_EQ(second.decode_errors(), 0) << second.status();
}

TEST_F(StreamTest, StalledViewerDoesNotStopTheOther) {
  // Debug logging says when a viewer's queue overflowed. A fixed, high
  // bitrate keeps the frames big whatever the healthy viewer's link
  // estimate says, so the stalled socket fills within a few dozen.
  start_voxl({"--log-level=debug", "--min-kbps=100000", "--max-kbps=100000"});
  ClientOptions stalled_options = client_options();
  stalled_options.receive_buffer = 4096;  // the kernel fills this one fast
  StreamClient stalled(stalled_options);  // connects, then is never read
  ASSERT_TRUE(voxl_->wait_for_log("viewer 1 connected", std::chrono::seconds(30))) << voxl_->log();

  StreamClient healthy(client_options());
  ASSERT_TRUE(shows(healthy, kBackground, kRect));
  const long rss_before = voxl_->rss_kib();
  ASSERT_GT(rss_before, 0);

  // Every other change covers most of the screen with noise: frames large
  // enough that the stalled viewer's socket and then its queue fill within
  // the first few dozen changes.
  constexpr Rect kBand{0, 60, kScreen.width, kScreen.height - 60};
  constexpr int kChanges = 100;
  for (int i = 0; i < kChanges; ++i) {
    const bool odd = i % 2 != 0;
    const Rect& now = odd ? kOtherRect : kRect;
    const uint32_t colour = (i / 2) % 2 ? kBlue : kRed;
    if (odd)
      painter_->paint_pattern(kBand);
    else
      fill(kBand, kBackground);
    fill(now, colour);
    ASSERT_TRUE(shows(healthy, colour, now)) << "change " << i;
  }
  const long rss_after = voxl_->rss_kib();
  EXPECT_LT(rss_after - rss_before, 64 * 1024) << "VmRSS grew from " << rss_before << " to " << rss_after
                                               << " KiB";
  EXPECT_EQ(healthy.decode_errors(), 0) << healthy.status();
  EXPECT_FALSE(healthy.closed()) << healthy.status();
  // The scenario really happened: the server gave up on the stalled
  // viewer's backlog (and asked for a key frame) at least once.
  EXPECT_TRUE(voxl_->wait_for_log("viewer 1 fell behind", std::chrono::seconds(30)));
}

}  // namespace
}  // namespace voxl::testing
