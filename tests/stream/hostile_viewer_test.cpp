// A viewer that sends what no page would: wrong field types (each of which
// used to end voxl), deep and oversized JSON, junk binary frames, a flood of
// key frame requests. voxl must keep serving another viewer, and a fresh
// viewer must still get in afterwards.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr uint32_t kBackground = 0x204060;
constexpr uint32_t kRed = 0xff0000;
constexpr uint32_t kGreen = 0x00ff00;
constexpr Rect kRect{100, 100, 200, 150};

class HostileViewerTest : public VoxlFixture {
 protected:
  void SetUp() override { start_display(kBackground); }
};

// (Invalid UTF-8 in a text frame is not among them: the WebSocket layer
// fails that connection itself, as RFC 6455 asks; the unit tests cover the
// dispatch's handling of it.)
std::vector<std::string> hostile_messages() {
  std::vector<std::string> m = {
      R"({"type":"ping","t":"x"})",
      R"({"type":"stats","enabled":1})",
      R"({"type":"ack","id":"1","decode_ms":[],"hold_ms":{}})",
      R"({"type":"ack","id":-5})",
      R"({"type":"keyframe","reason":{"a":1}})",
      R"({"type":"key","code":1,"key":null,"down":"yes","mods":1e300})",
      R"({"type":"move","x":"1","y":1e400})",
      R"({"type":"scroll","dx":"a","dy":[],"unit":5})",
      R"({"type":"clipboard","mime":1,"text":2})",
      R"({"type":5})",
      R"([])",
      "not json at all",
      std::string(100000, '['),
      R"({"type":"ping","t":1,"pad":")" + std::string(64 * 1024, 'a') + "\"}",
  };
  for (int i = 0; i < 50; ++i) m.push_back(R"({"type":"keyframe","reason":"flood"})");
  return m;
}

TEST_F(HostileViewerTest, MalformedMessagesEndNeitherVoxlNorTheOtherViewers) {
  start_voxl();
  StreamClient good(client_options());
  ASSERT_TRUE(good.wait_until([&] { return good.picture().has_value(); })) << good.status();

  StreamClient bad(client_options());
  for (auto& text : hostile_messages()) bad.send_text(std::move(text));
  bad.send_binary({0xff, 0x00});
  bad.send_binary(std::vector<uint8_t>(16, 3));
  // The hostile messages go out while it reads; a pong to a well-formed
  // ping sent after all of them says they were all handled.
  bad.send_text(R"({"type":"ping","t":7})");
  ASSERT_TRUE(bad.wait_until([&] {
    for (const auto& t : bad.texts())
      if (t.value("type", "") == "pong") return true;
    return false;
  })) << bad.status();

  fill(kRect, kRed);
  ASSERT_TRUE(good.wait_for_colour(kRect.x + 10, kRect.y + 10, kRed)) << good.status();
  ASSERT_TRUE(voxl_->running());

  StreamClient fresh(client_options());
  fill(kRect, kGreen);
  ASSERT_TRUE(fresh.wait_for_colour(kRect.x + 10, kRect.y + 10, kGreen)) << fresh.status();
  ASSERT_TRUE(good.wait_for_colour(kRect.x + 10, kRect.y + 10, kGreen)) << good.status();
}

}  // namespace
}  // namespace voxl::testing
