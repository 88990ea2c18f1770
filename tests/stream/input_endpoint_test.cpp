// POST /input on the real binary against a private Xvfb: an X client that
// records its key and button events receives the typed Unicode text, the
// click where it was aimed and the key combo; the seq it answers is what
// /wait?change&since= understands; bad bodies, methods and credentials.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "event_recorder.h"
#include "endpoint_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;

constexpr Rect kArea{40, 30, 400, 300};

class InputEndpointTest : public EndpointFixture {
 protected:
  void start(const std::vector<std::string>& args = {}) {
    EndpointFixture::start(args);
    recorder_.emplace(display_->name(), kArea);
  }

  HttpAnswer post(const std::string& body, Headers headers = {}) {
    return call("POST", "/input", body, std::move(headers));
  }

  uint64_t post_ok(const std::string& body) {
    const HttpAnswer a = post(body);
    EXPECT_EQ(a.status, 200) << a.body;
    const json j = body_json(a);
    EXPECT_TRUE(j.is_object()) << a.body;
    EXPECT_EQ(a.header("x-voxl-seq"), std::to_string(j.value("seq", uint64_t(0))));
    return j.value("seq", uint64_t(0));
  }

  size_t count(InputEvent::Kind k) const {
    const auto& ev = recorder_->events();
    return size_t(std::count_if(ev.begin(), ev.end(), [k](const InputEvent& e) { return e.kind == k; }));
  }

  std::optional<EventRecorder> recorder_;
};

TEST_F(InputEndpointTest, TypedUnicodeArrivesAsThoseKeysyms) {
  start();
  const std::u32string text = U"Hé€→z";
  post_ok(R"({"type":"type","text":"Hé€→z"})");
  ASSERT_TRUE(recorder_->wait_until([&](const auto& ev) { return pressed_keysyms(ev).size() >= text.size(); }))
      << recorder_->events().size();
  std::vector<uint32_t> want;
  for (char32_t c : text) want.push_back(c < 0x100 ? uint32_t(c) : 0x01000000u + uint32_t(c));
  // Shift may come along for the capital: compare what is not a modifier.
  std::vector<uint32_t> got;
  for (uint32_t k : pressed_keysyms(recorder_->events()))
    if (k != 0xffe1 && k != 0xffe2) got.push_back(k);
  EXPECT_EQ(got, want);
  EXPECT_EQ(count(InputEvent::Kind::kKeyPress), count(InputEvent::Kind::kKeyRelease));
}

TEST_F(InputEndpointTest, ClickLandsWhereAimedWithTheButtonAndCount) {
  start();
  post_ok(R"({"actions":[{"type":"click","x":123,"y":145,"button":"right","count":2}]})");
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kButtonRelease) >= 2; }));
  const auto& ev = recorder_->events();
  ASSERT_EQ(ev.size(), 4u);
  for (size_t i = 0; i < ev.size(); ++i) {
    EXPECT_EQ(ev[i].press(), i % 2 == 0) << ev[i].describe();
    EXPECT_EQ(ev[i].button, 3) << ev[i].describe();
    EXPECT_EQ(ev[i].root_x, 123) << ev[i].describe();
    EXPECT_EQ(ev[i].root_y, 145) << ev[i].describe();
  }
}

TEST_F(InputEndpointTest, UnderACaptureRegionAClickAtPictureCoordinatesLandsThere) {
  // The picture's 0,0 is the screen's 100,80, as for a viewer's clicks.
  start({"--capture-region=100,80,320,240"});
  post_ok(R"({"type":"click","x":50,"y":40})");
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kButtonRelease) >= 1; }));
  const auto& ev = recorder_->events();
  ASSERT_EQ(ev.size(), 2u);
  for (const InputEvent& e : ev) {
    EXPECT_EQ(e.root_x, 150) << e.describe();
    EXPECT_EQ(e.root_y, 120) << e.describe();
  }
}

TEST_F(InputEndpointTest, UnderACaptureRegionCoordinatesOutsideThePictureAreRefused) {
  start({"--capture-region=100,80,320,240"});
  // On the screen, not in the 320x240 picture.
  expect_error(post(R"({"type":"click","x":320,"y":10})"), 400, "x");
  expect_error(post(R"({"type":"move","x":10,"y":240})"), 400, "y");
  expect_error(post(R"({"actions":[{"type":"click","x":1,"y":1},{"type":"drag","from":[0,0],"to":[400,10]}]})"), 400,
               "actions[1].to[0]");
  // Nothing was played, and the corner of the picture is still in reach.
  recorder_->poll();
  EXPECT_EQ(count(InputEvent::Kind::kButtonPress), 0u);
  post_ok(R"({"type":"click","x":319,"y":239})");
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kButtonRelease) >= 1; }));
  EXPECT_EQ(recorder_->events().front().root_x, 419);
  EXPECT_EQ(recorder_->events().front().root_y, 319);
}

TEST_F(InputEndpointTest, KeyComboPressesModifiersFirstAndReleasesEverything) {
  start();
  post_ok(R"({"type":"key","keys":"ctrl+shift+t"})");
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kKeyRelease) >= 3; }));
  const auto& ev = recorder_->events();
  ASSERT_EQ(ev.size(), 6u);
  EXPECT_EQ(ev[0].keysym, 0xffe3u);  // Control_L
  EXPECT_EQ(ev[1].keysym, 0xffe1u);  // Shift_L
  EXPECT_TRUE(ev[2].kind == InputEvent::Kind::kKeyPress) << ev[2].describe();
  EXPECT_EQ(ev[2].state & 0x5, 0x5) << "shift and control held";  // ShiftMask | ControlMask
  for (size_t i = 3; i < 6; ++i) EXPECT_EQ(ev[i].kind, InputEvent::Kind::kKeyRelease) << ev[i].describe();
  EXPECT_EQ(ev[5].keycode, ev[0].keycode);
}

TEST_F(InputEndpointTest, WaitSinceItsSeqSeesWhatTheActionDrew) {
  start();
  const uint64_t seq = post_ok(R"({"type":"key","keys":"x"})");
  // The recorder's application: it draws when its key arrives.
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kKeyPress) >= 1; }));
  fill({500, 400, 40, 40}, 0xff0000);  // beside its window, which hides the root
  const HttpAnswer a = get("/wait?change&timeout=30000&since=" + std::to_string(seq));
  ASSERT_EQ(a.status, 200) << a.body;
  const json j = body_json(a);
  EXPECT_EQ(j.value("changed", false), true) << a.body;
  EXPECT_GT(j.value("seq", uint64_t(0)), seq) << a.body;
}

TEST_F(InputEndpointTest, BadBodiesAreRefusedWithTheFieldAndChangeNothing) {
  start();
  expect_error(post("{"), 400, "body");
  expect_error(post(R"({"actions":[{"type":"click","x":1,"y":1},{"type":"move","x":640,"y":0}]})"), 400,
               "actions[1].x");
  expect_error(post(R"({"type":"key","keys":"ctrl+nokey"})"), 400, "keys");
  expect_error(post(R"({"type":"click","button":"thumb"})"), 400, "button");
  const HttpAnswer q = call("POST", "/input?x=1", R"({"type":"move","x":1,"y":1})");
  expect_error(q, 400, "x");
  // The valid click before the bad move was not played.
  recorder_->poll();
  EXPECT_EQ(count(InputEvent::Kind::kButtonPress), 0u);
  const HttpAnswer wrong_method = get("/input");
  EXPECT_EQ(wrong_method.status, 405);
  EXPECT_EQ(wrong_method.header("allow"), "POST");
}

TEST_F(InputEndpointTest, ViewOnlyCredentialsAndForeignPagesAreRefused) {
  start({"--enable-basic-auth", "--basic-auth-password=s3cret", "--basic-auth-viewonly-password=look"});
  const std::string click = R"({"type":"click","x":100,"y":100})";
  EXPECT_EQ(post(click).status, 401);
  expect_error(post(click, {{"Authorization", basic_authorization("voxl", "look")}}), 403, "");
  expect_error(post(click, {{"Authorization", basic_authorization("voxl", "s3cret")}, {"Origin", "http://evil.example"}}),
               403, "");
  recorder_->poll();
  EXPECT_EQ(count(InputEvent::Kind::kButtonPress), 0u);
  const HttpAnswer ok = post(click, {{"Authorization", basic_authorization("voxl", "s3cret")}});
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kButtonRelease) >= 1; }));
}

}  // namespace
}  // namespace voxl::testing
