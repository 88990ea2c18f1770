// The X server going away is not the end: voxl keeps serving, and once a
// server is back on the same display the video pipeline rebuilds its
// capturer and the viewers see the new screen (from a key frame), without
// reconnecting.
#include <gtest/gtest.h>

#include <algorithm>

#include "voxl_fixture.h"

namespace voxl::testing {
namespace {

constexpr uint32_t kBefore = 0x2040a0;
constexpr uint32_t kAfter = 0xc03020;

class DisplayRestartTest : public VoxlFixture {
 protected:
  static bool centre_is(StreamClient& c, uint32_t rgb) {
    const auto p = c.pixel(kScreen.width / 2, kScreen.height / 2);
    return p && near_colour(*p, rgb);
  }
};

TEST_F(DisplayRestartTest, CaptureComesBackWhenTheServerDoes) {
  start_display(kBefore);
  start_voxl();
  StreamClient client(client_options());
  ASSERT_TRUE(client.wait_until([&] { return centre_is(client, kBefore); })) << client.status();

  // The server dies under voxl.
  const int number = display_->number();
  painter_.reset();
  display_.reset();
  ASSERT_TRUE(voxl_->wait_for_log("video capture lost", std::chrono::seconds(60))) << voxl_->log();

  // Another one on the same display, painted another colour.
  platform::x11::VirtualDisplayOptions o;
  o.size = kScreen;
  o.number = number;
  display_.emplace(o);
  painter_.emplace(display_->name());
  fill(Rect::from_size(kScreen), kAfter);

  ASSERT_TRUE(voxl_->wait_for_log("video capture is back", std::chrono::seconds(60))) << voxl_->log();
  const size_t keys_before = std::count_if(client.frames().begin(), client.frames().end(),
                                           [](const stream::VideoHeader& h) { return h.key; });
  EXPECT_TRUE(client.wait_until([&] { return centre_is(client, kAfter); }, std::chrono::seconds(60)))
      << client.status();
  const size_t keys_after = std::count_if(client.frames().begin(), client.frames().end(),
                                          [](const stream::VideoHeader& h) { return h.key; });
  EXPECT_GT(keys_after, keys_before) << "the new screen should start with a key frame";
}

}  // namespace
}  // namespace voxl::testing
