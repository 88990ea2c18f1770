// POST /computer, GET /cursor and scaled /screenshot on the real binary
// against a private Xvfb of an odd size: every action of Anthropic's and
// OpenAI's computer-use schemas reaches an X client that records its input
// (positions mapped back from a scaled picture, buttons, keys, text); the
// settle after an action waits out a slow redraw; the pointer's position
// round-trips through the scaled picture; bad bodies, view-only
// credentials and foreign pages change nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/base64.h"
#include "endpoint_fixture.h"
#include "event_recorder.h"
#include "media_probe.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using Kind = InputEvent::Kind;

// Odd on purpose: a 640-wide picture of it is not a whole fraction.
constexpr Size kOdd{1023, 767};
constexpr int kSeenWidth = 640;
constexpr Rect kArea{0, 0, 1023, 767};  // the recorder's window: all of it

// The desktop pixel under the centre of a scaled picture's pixel, as the
// server promises (computed here independently of its code).
int full_of(int v, int full, int seen) { return std::min(full - 1, int((2 * int64_t(v) + 1) * full / (2 * seen))); }

class ComputerEndpointTest : public EndpointFixture {
 protected:
  void start_odd(const std::vector<std::string>& args = {}) {
    start_display(kBackground, kOdd);
    start_voxl(args);
    recorder_.emplace(display_->name(), kArea);
    seen_ = {kSeenWidth, int((int64_t(kOdd.height) * kSeenWidth + kOdd.width / 2) / kOdd.width)};
  }

  // react=0: these tests check where input lands, and the recorder draws
  // nothing in answer; the settle has its own test.
  HttpAnswer act(const std::string& body, const std::string& query = "max_width=640&react=0", Headers headers = {}) {
    return call("POST", "/computer?" + query, body, std::move(headers));
  }

  json act_ok(const std::string& body, const std::string& query = "max_width=640&react=0") {
    const HttpAnswer a = act(body, query);
    EXPECT_EQ(a.status, 200) << body << " -> " << a.body;
    json j = body_json(a);
    EXPECT_TRUE(j.is_object()) << a.body;
    EXPECT_TRUE(j.contains("seq")) << a.body;
    EXPECT_EQ(a.header("x-voxl-seq"), std::to_string(j.value("seq", uint64_t(0))));
    return j;
  }

  size_t count(Kind k) const {
    const auto& ev = recorder_->events();
    return size_t(std::count_if(ev.begin(), ev.end(), [k](const InputEvent& e) { return e.kind == k; }));
  }

  // Waits for `n` events of kind `k` in all.
  void await(Kind k, size_t n) {
    ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(k) >= n; }))
        << "only " << count(k) << " of " << n;
  }

  std::vector<InputEvent> buttons() const {
    std::vector<InputEvent> out;
    for (const auto& e : recorder_->events())
      if (e.kind == Kind::kButtonPress || e.kind == Kind::kButtonRelease) out.push_back(e);
    return out;
  }

  int fx(int x) const { return full_of(x, kOdd.width, seen_.width); }
  int fy(int y) const { return full_of(y, kOdd.height, seen_.height); }

  std::optional<EventRecorder> recorder_;
  Size seen_;
};

TEST_F(ComputerEndpointTest, AnthropicActionsLandWhereAimedInAScaledPicture) {
  start_odd();
  ASSERT_EQ(seen_, (Size{640, 480}));
  json j = act_ok(R"({"action":"left_click","coordinate":[101,77]})");
  EXPECT_EQ(j["action"], "left_click");
  EXPECT_EQ(j["schema"], "anthropic");
  EXPECT_EQ(j["width"], 640);
  EXPECT_EQ(j["height"], 480);
  // The space those are in, said rather than assumed.
  EXPECT_EQ(j["coordinates"]["width"], 640) << j.dump();
  EXPECT_EQ(j["coordinates"]["picture_width"], kOdd.width);
  EXPECT_EQ(j["coordinates"]["picture_height"], kOdd.height);
  EXPECT_NEAR(j["coordinates"]["scale"].get<double>(), 640.0 / kOdd.width, 1e-9);
  EXPECT_EQ(j["coordinates"]["picture_origin"], (json{{"x", 0}, {"y", 0}}));
  await(Kind::kButtonRelease, 1);
  EXPECT_EQ(buttons()[0].button, 1);
  EXPECT_EQ(buttons()[0].root_x, fx(101));
  EXPECT_EQ(buttons()[0].root_y, fy(77));
  // The pointer reported back is where the agent clicked, in its picture.
  EXPECT_EQ(j["cursor"]["x"], 101) << j.dump();
  EXPECT_EQ(j["cursor"]["y"], 77) << j.dump();

  act_ok(R"({"action":"right_click","coordinate":[639,479]})");
  act_ok(R"({"action":"middle_click","coordinate":[0,0]})");
  await(Kind::kButtonRelease, 3);
  auto b = buttons();
  EXPECT_EQ(b[2].button, 3);
  EXPECT_EQ(b[2].root_x, fx(639));
  EXPECT_EQ(b[2].root_y, fy(479));
  EXPECT_LT(b[2].root_x, kOdd.width);
  EXPECT_EQ(b[4].button, 2);
  EXPECT_EQ(b[4].root_x, 0);

  recorder_->clear();
  act_ok(R"({"action":"double_click","coordinate":[300,200]})");
  act_ok(R"({"action":"triple_click","coordinate":[300,200]})");
  await(Kind::kButtonRelease, 5);
  for (const auto& e : buttons()) EXPECT_EQ(e.button, 1);

  recorder_->clear();
  act_ok(R"({"action":"left_click_drag","start_coordinate":[10,10],"coordinate":[200,150]})");
  await(Kind::kButtonRelease, 1);
  b = buttons();
  EXPECT_EQ(b[0].root_x, fx(10));
  EXPECT_EQ(b[1].root_x, fx(200));
  EXPECT_EQ(b[1].root_y, fy(150));

  recorder_->clear();
  act_ok(R"({"action":"left_mouse_down","coordinate":[50,60]})");
  act_ok(R"({"action":"mouse_move","coordinate":[70,80]})");
  act_ok(R"({"action":"left_mouse_up"})");
  await(Kind::kButtonRelease, 1);
  b = buttons();
  EXPECT_EQ(b[0].root_x, fx(50));
  EXPECT_EQ(b[1].root_x, fx(70));
  EXPECT_EQ(b[1].root_y, fy(80));

  recorder_->clear();
  act_ok(R"({"action":"scroll","coordinate":[320,240],"scroll_direction":"down","scroll_amount":2})");
  act_ok(R"({"action":"scroll","coordinate":[320,240],"scroll_direction":"left","scroll_amount":1})");
  await(Kind::kButtonRelease, 3);
  b = buttons();
  EXPECT_EQ(b[0].button, 5);
  EXPECT_EQ(b[4].button, 6);

  recorder_->clear();
  act_ok(R"({"action":"key","text":"ctrl+a Return"})");
  await(Kind::kKeyRelease, 3);
  EXPECT_EQ(pressed_keysyms(recorder_->events()), (std::vector<uint32_t>{0xffe3, 'a', 0xff0d}));

  recorder_->clear();
  act_ok(R"({"action":"type","text":"hé"})");
  await(Kind::kKeyRelease, 2);
  EXPECT_EQ(pressed_keysyms(recorder_->events()), (std::vector<uint32_t>{'h', 0xe9}));

  recorder_->clear();
  j = act_ok(R"({"action":"hold_key","text":"shift","duration":0.3})");
  EXPECT_GE(j.value("waited_ms", -1), 0) << j.dump();
  await(Kind::kKeyRelease, 1);
  EXPECT_EQ(pressed_keysyms(recorder_->events()), std::vector<uint32_t>{0xffe1});
}

TEST_F(ComputerEndpointTest, AnthropicLookingActions) {
  start_odd();
  const HttpAnswer a = act(R"({"action":"screenshot"})");
  ASSERT_EQ(a.status, 200) << a.body;
  json j = body_json(a);
  ASSERT_TRUE(j.contains("screenshot")) << a.body;
  EXPECT_EQ(j["screenshot"]["media_type"], "image/png");
  auto png = base64_decode(j["screenshot"]["data"].get<std::string>());
  ASSERT_TRUE(png);
  DecodedPng shot = decode_png(*png);
  ASSERT_TRUE(shot.error.empty()) << shot.error;
  EXPECT_EQ(shot.size, (Size{640, 480}));
  EXPECT_FALSE(j.contains("settled")) << "a screenshot does not wait";

  // Zoom: a part of the scaled picture, at the desktop's resolution.
  painter_->fill(recorder_->window(), {400, 300, 100, 100}, 0xff0000);
  j = act_ok(R"({"action":"zoom","region":[200,150,300,250]})");
  ASSERT_TRUE(j.contains("screenshot"));
  shot = decode_png(*base64_decode(j["screenshot"]["data"].get<std::string>()));
  ASSERT_TRUE(shot.error.empty()) << shot.error;
  EXPECT_GT(shot.size.width, 100) << "more pixels than the scaled picture had there";

  act_ok(R"({"action":"mouse_move","coordinate":[123,321]})");
  j = act_ok(R"({"action":"cursor_position"})");
  EXPECT_EQ(j["cursor"]["x"], 123);
  EXPECT_EQ(j["cursor"]["y"], 321);

  j = act_ok(R"({"action":"wait","duration":1})");
  EXPECT_TRUE(j.contains("settled")) << j.dump();
  EXPECT_LE(j.value("waited_ms", 99999), 30000);
}

TEST_F(ComputerEndpointTest, OpenAIActionsLandWhereAimed) {
  start_odd();
  json j = act_ok(R"({"type":"click","button":"right","x":33,"y":44})");
  EXPECT_EQ(j["schema"], "openai");
  await(Kind::kButtonRelease, 1);
  EXPECT_EQ(buttons()[0].button, 3);
  EXPECT_EQ(buttons()[0].root_x, fx(33));
  EXPECT_EQ(buttons()[0].root_y, fy(44));

  recorder_->clear();
  act_ok(R"({"type":"double_click","x":100,"y":100})");
  await(Kind::kButtonRelease, 2);

  recorder_->clear();
  act_ok(R"({"type":"drag","path":[{"x":10,"y":10},{"x":60,"y":10},{"x":60,"y":90}]})");
  await(Kind::kButtonRelease, 1);
  auto b = buttons();
  EXPECT_EQ(b[0].root_x, fx(10));
  EXPECT_EQ(b[1].root_x, fx(60));
  EXPECT_EQ(b[1].root_y, fy(90));

  recorder_->clear();
  act_ok(R"({"type":"keypress","keys":["CTRL","SHIFT","T"]})");
  await(Kind::kKeyRelease, 3);
  EXPECT_EQ(pressed_keysyms(recorder_->events()), (std::vector<uint32_t>{0xffe3, 0xffe1, 't'}));

  recorder_->clear();
  act_ok(R"({"type":"type","text":"ok"})");
  await(Kind::kKeyRelease, 2);
  EXPECT_EQ(pressed_keysyms(recorder_->events()), (std::vector<uint32_t>{'o', 'k'}));

  recorder_->clear();
  act_ok(R"({"type":"scroll","x":200,"y":200,"scroll_x":0,"scroll_y":-1})");
  await(Kind::kButtonRelease, 1);
  EXPECT_EQ(buttons()[0].button, 4) << "any upward amount scrolls a notch up";

  recorder_->clear();
  act_ok(R"({"type":"move","x":5,"y":6})");
  j = act_ok(R"({"type":"wait"})");
  EXPECT_TRUE(j.contains("settled"));
  EXPECT_EQ(j["cursor"]["x"], 5);
  j = act_ok(R"({"type":"screenshot"})");
  EXPECT_TRUE(j.contains("screenshot"));
  EXPECT_EQ(j["screenshot"]["width"], 640);
}

TEST_F(ComputerEndpointTest, TheSettleWaitsForASlowApplicationToStartAndFinish) {
  start_display(kBackground);
  start_voxl({});
  recorder_.emplace(display_->name(), Rect{0, 0, 320, 240});
  // A slow application: 600 ms after the click (longer than the settle's
  // 400 ms of stillness, within its 1 s to react) it starts repainting a
  // patch in ten steps, 120 ms apart.
  constexpr int kSteps = 10;
  std::atomic<int64_t> last_step_ms{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::thread app([&] {
    if (!recorder_->wait_until([&](const auto& ev) {
          return std::any_of(ev.begin(), ev.end(), [](const InputEvent& e) { return e.kind == Kind::kButtonPress; });
        }, std::chrono::seconds(60)))
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    for (int i = 1; i <= kSteps; ++i) {
      fill({400, 300, 80, 80}, uint32_t(0x100000 * i + 0x40));
      last_step_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
      if (i < kSteps) std::this_thread::sleep_for(std::chrono::milliseconds(120));
    }
  });
  const HttpAnswer a = act(R"({"action":"left_click","coordinate":[100,100]})", "screenshot=1&settle=400&react=1000");
  const int64_t answered_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  app.join();
  ASSERT_EQ(a.status, 200) << a.body;
  const json j = body_json(a);
  EXPECT_EQ(j["settled"], true) << a.body;
  EXPECT_EQ(j["changed"], true) << a.body;
  EXPECT_GE(answered_ms, last_step_ms.load()) << "answered before the last step was drawn";
  const DecodedPng shot = decode_png(*base64_decode(j["screenshot"]["data"].get<std::string>()));
  ASSERT_TRUE(shot.error.empty()) << shot.error;
  EXPECT_EQ(shot.at(440, 340), uint32_t(0x100000 * kSteps + 0x40)) << "the screenshot shows the last step";
  EXPECT_GE(j.value("waited_ms", 0), 600 + 9 * 120) << a.body;

  // An action nothing answers: it waits out `react` and says so.
  const HttpAnswer still = act(R"({"action":"mouse_move","coordinate":[5,5]})", "react=300");
  ASSERT_EQ(still.status, 200) << still.body;
  const json s = body_json(still);
  EXPECT_EQ(s["changed"], false) << still.body;
  EXPECT_EQ(s["settled"], true) << still.body;
  EXPECT_GE(s.value("waited_ms", 0), 300) << still.body;
}

TEST_F(ComputerEndpointTest, CursorAndScaledScreenshotsRoundTrip) {
  start_odd();
  // Every scaled pixel the agent aims at comes back as itself.
  for (const auto& [x, y] : std::vector<std::pair<int, int>>{{0, 0}, {1, 1}, {319, 240}, {638, 478}, {639, 479}}) {
    act_ok(R"({"type":"move","x":)" + std::to_string(x) + R"(,"y":)" + std::to_string(y) + "}",
           "max_width=640&settle=0");
    const HttpAnswer c = get("/cursor?max_width=640");
    ASSERT_EQ(c.status, 200) << c.body;
    const json j = body_json(c);
    EXPECT_EQ(j["x"], x) << c.body;
    EXPECT_EQ(j["y"], y) << c.body;
    EXPECT_EQ(j["in_picture"], true);
    EXPECT_EQ(j["desktop"]["x"], fx(x)) << c.body;
    EXPECT_EQ(j["desktop"]["y"], fy(y)) << c.body;
  }
  const json full = body_json(get("/cursor"));
  EXPECT_EQ(full["x"], fx(639));
  ASSERT_TRUE(full.contains("shape")) << full.dump();
  EXPECT_GT(full["shape"]["width"].get<int>(), 0);

  const HttpAnswer s = get("/screenshot?max_width=640");
  ASSERT_EQ(s.status, 200) << s.body;
  EXPECT_EQ(decode_png(s.body).size, (Size{640, 480}));
  EXPECT_EQ(s.header("x-voxl-picture"), "1023x767");
  EXPECT_NEAR(std::stod(s.header("x-voxl-scale")), 640.0 / 1023, 1e-9);
  EXPECT_EQ(s.header("x-voxl-picture-origin"), "0,0");
  const HttpAnswer part = get("/screenshot?region=10,20,100,50");
  EXPECT_EQ(part.header("x-voxl-picture"), "100x50");
  EXPECT_EQ(part.header("x-voxl-scale"), "1.0");
  EXPECT_EQ(part.header("x-voxl-picture-origin"), "10,20");
  EXPECT_EQ(decode_png(get("/screenshot?scale=0.5").body).size, (Size{512, 384}));
  expect_error(get("/screenshot?scale=0.5&max_width=100"), 400, "scale");
  expect_error(get("/screenshot?max_width=3"), 400, "max_width");

  // The pointer drawn in: the uniform background changes around it.
  act_ok(R"({"type":"move","x":500,"y":400})", "settle=0");
  const DecodedPng plain = decode_png(get("/screenshot?region=480,380,60,60").body);
  const DecodedPng drawn = decode_png(get("/screenshot?region=480,380,60,60&cursor=1").body);
  ASSERT_TRUE(plain.error.empty() && drawn.error.empty());
  int differ = 0;
  for (size_t i = 0; i < plain.rgb.size() && i < drawn.rgb.size(); ++i) differ += plain.rgb[i] != drawn.rgb[i];
  EXPECT_GT(differ, 10) << "the pointer is drawn into the screenshot";
  // The recorder's window is white.
  for (uint32_t p : plain.rgb) ASSERT_EQ(p, 0xffffffu) << "and only when asked";
}

TEST_F(ComputerEndpointTest, BadBodiesCredentialsAndOriginsChangeNothing) {
  start_display(kBackground);
  start_voxl({"--enable-basic-auth", "--basic-auth-password=s3cret", "--basic-auth-viewonly-password=look"});
  recorder_.emplace(display_->name(), Rect{0, 0, 320, 240});
  const Headers full{{"Authorization", basic_authorization("voxl", "s3cret")}};
  const Headers look{{"Authorization", basic_authorization("voxl", "look")}};
  const std::string click = R"({"action":"left_click","coordinate":[10,10]})";
  EXPECT_EQ(act(click, "").status, 401);
  expect_error(act(click, "", look), 403, "");
  Headers foreign = full;
  foreign.push_back({"Origin", "http://evil.example"});
  expect_error(act(click, "", foreign), 403, "");
  expect_error(act(R"({"action":"left_click","coordinate":[640,0]})", "", full), 400, "coordinate[0]");
  expect_error(act(R"({"type":"keypress","keys":["CTRL","NOKEY"]})", "", full), 400, "keys[1]");
  expect_error(act(R"({"action":"teleport"})", "", full), 400, "action");
  expect_error(act("{", "", full), 400, "body");
  expect_error(act(click, "settle=-1", full), 400, "settle");
  expect_error(act(click, "bogus=1", full), 400, "bogus");
  recorder_->poll();
  EXPECT_EQ(count(Kind::kButtonPress), 0u);
  // A view-only caller may look.
  const HttpAnswer shot = act(R"({"action":"screenshot"})", "", look);
  EXPECT_EQ(shot.status, 200) << shot.body;
  EXPECT_EQ(call("GET", "/computer", full).status, 405);
  const HttpAnswer ok = act(click, "", full);
  EXPECT_EQ(ok.status, 200) << ok.body;
  await(Kind::kButtonRelease, 1);
}

}  // namespace
}  // namespace voxl::testing
