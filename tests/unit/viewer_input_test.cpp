// ViewerInput and Interaction against recording fakes: what reaches the
// injector and the clipboard for each message, what the viewer is sent.
#include "input/viewer_input.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "base/base64.h"
#include "fake_input_injector.h"
#include "interaction_fakes.h"

namespace voxl::input {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using FakeInjector = voxl::testing::FakeInputInjector;

using FakeClipboard = voxl::testing::FakeClipboard;
using FakeCursor = voxl::testing::FakeCursor;
using Link = voxl::testing::RecordingLink;

CursorImagePtr cursor(uint64_t serial, uint8_t alpha) {
  auto c = std::make_shared<CursorImage>();
  c->serial = serial;
  c->width = 2;
  c->height = 1;
  c->hot_x = 1;
  c->rgba = {255, 0, 0, alpha, 0, 255, 0, alpha};
  return c;
}

class ViewerInputTest : public ::testing::Test {
 protected:
  FakeInjector inj;
  FakeClipboard clip;
  FakeCursor cur;
  Link link;
};

TEST_F(ViewerInputTest, TellsTheViewerWhatItMayDo) {
  InteractionSettings s;
  s.clipboard_in = false;
  Interaction in(&inj, &clip, &cur, s, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  const auto m = link.of("interaction").at(0);
  EXPECT_EQ(m["input"], true);
  EXPECT_EQ(m["clipboard"], "out");
  EXPECT_EQ(m["view_only"], false);
  EXPECT_EQ(m["scroll_px_per_notch"], 180);
}

TEST_F(ViewerInputTest, KeysGoThroughAndAreReleasedWhenTheViewerGoes) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  {
    auto v = in.join(link, false, 1);
    v->handle("key", json{{"code", "KeyA"}, {"key", "a"}, {"down", true}, {"mods", 0}});
    v->handle("key", json{{"code", "ShiftLeft"}, {"key", "Shift"}, {"down", true}, {"mods", 1}});
    EXPECT_EQ(v->held_keys().size(), 2u);
  }
  EXPECT_EQ(inj.log, (std::vector<std::string>{"key 0x61 down", "key 0xffe1 down", "key 0x61 up", "key 0xffe1 up"}));
}

TEST_F(ViewerInputTest, ModifiersFollowThePage) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  // Ctrl went down while the page had no focus; then it was let go unseen.
  v->handle("key", json{{"code", "KeyC"}, {"key", "c"}, {"down", true}, {"mods", kModControl}});
  v->handle("key", json{{"code", "KeyC"}, {"key", "c"}, {"down", false}, {"mods", kModControl}});
  v->handle("button", json{{"button", 1}, {"down", true}, {"x", 1}, {"y", 2}, {"mods", 0}});
  EXPECT_EQ(inj.log, (std::vector<std::string>{"key 0xffe3 down", "key 0x63 down", "key 0x63 up", "key 0xffe3 up",
                                               "key 0xffe4 up", "move 1 2", "button 1 down"}));
}

TEST_F(ViewerInputTest, CapsLockFollowsThePage) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  v->handle("key", json{{"code", "KeyA"}, {"key", "A"}, {"down", true}, {"mods", kModCapsLock}});
  EXPECT_EQ(inj.log, (std::vector<std::string>{"key 0xffe5 down", "key 0xffe5 up", "key 0x41 down"}));
  EXPECT_TRUE(inj.caps);
}

TEST_F(ViewerInputTest, DeadKeysAndRepeatsAreNotPresses) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  v->handle("key", json{{"code", "Quote"}, {"key", "Dead"}, {"down", true}});
  EXPECT_TRUE(inj.log.empty());
  v->handle("text", json{{"text", "é"}});
  EXPECT_EQ(inj.log.back(), "text é");
}

TEST_F(ViewerInputTest, PointerUsesTheCaptureOriginAndKnownButtonsOnly) {
  InteractionSettings s;
  s.picture = {{100, 50}, {640, 480}};
  Interaction in(&inj, &clip, &cur, s, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  v->handle("move", json{{"x", 10}, {"y", 20}});
  v->handle("button", json{{"button", 9}, {"down", true}, {"x", 10}, {"y", 20}});
  v->handle("button", json{{"button", 4}, {"down", true}, {"x", 10}, {"y", 20}});
  v->handle("release", json::object());
  EXPECT_EQ(inj.log, (std::vector<std::string>{"move 110 70", "move 110 70", "button 9 down", "move 110 70",
                                               "button 9 up"}));
}

TEST_F(ViewerInputTest, PointerFollowsThePictureAndIsClampedToIt) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  // A captured window at 300,200, 101x51: the last pixel is 100,50.
  const auto t0 = std::chrono::steady_clock::now();
  in.set_picture({{300, 200}, {101, 51}}, t0);
  v->handle("move", json{{"x", 5.7}, {"y", 6.2}});
  v->handle("move", json{{"x", 5000}, {"y", -40}});
  v->handle("button", json{{"button", 1}, {"down", true}, {"x", 101}, {"y", 51}});
  // The window moves and grows: the same position lands somewhere else.
  in.set_picture({{10, 20}, {800, 600}}, t0 + std::chrono::milliseconds(16));
  // A screenshot taken before that, posted after it, changes nothing.
  in.set_picture({{300, 200}, {101, 51}}, t0 + std::chrono::milliseconds(8));
  v->handle("button", json{{"button", 1}, {"down", false}, {"x", 101}, {"y", 51}});
  v->handle("scroll", json{{"dx", 0}, {"dy", 1}, {"unit", "notch"}, {"x", 900}, {"y", 700}});
  EXPECT_EQ(inj.log, (std::vector<std::string>{"move 305 206", "move 400 200", "move 400 250", "button 1 down",
                                               "move 111 71", "button 1 up", "move 809 619", "scroll 0 1"}));
}

TEST_F(ViewerInputTest, SmoothScrollAccumulates) {
  InteractionSettings s;
  s.scroll_px_per_notch = 120;
  Interaction in(&inj, &clip, &cur, s, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  for (int i = 0; i < 6; ++i) v->handle("scroll", json{{"dx", 0}, {"dy", 50}, {"unit", "px"}});
  v->handle("scroll", json{{"dx", -1}, {"dy", 0}, {"unit", "notch"}});
  std::vector<std::string> scrolls;
  for (const auto& e : inj.log)
    if (e.starts_with("scroll")) scrolls.push_back(e);
  EXPECT_EQ(scrolls, (std::vector<std::string>{"scroll 0 1", "scroll 0 1", "scroll -1 0"}));
}

TEST_F(ViewerInputTest, ViewOnlyViewersAreRefusedOnce) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, true, 1);
  EXPECT_EQ(link.of("interaction").at(0)["input"], false);
  EXPECT_TRUE(v->handle("key", json{{"code", "KeyA"}, {"key", "a"}, {"down", true}}));
  EXPECT_TRUE(v->handle("move", json{{"x", 1}, {"y", 1}}));
  EXPECT_TRUE(v->handle("clipboard", json{{"mime", "text/plain"}, {"text", "x"}}));
  EXPECT_TRUE(inj.log.empty());
  EXPECT_TRUE(clip.offered.empty());
  const auto refused = link.of("refused");
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_EQ(refused[0]["what"], "input");
  EXPECT_EQ(refused[1]["what"], "clipboard");
  // And the desktop's clipboard does not reach them.
  clip.listener.copied({"text/plain", "secret"});
  EXPECT_TRUE(link.of("clipboard").empty());
}

TEST_F(ViewerInputTest, AMessageWithABadFieldIsIgnoredAsAWhole) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  EXPECT_TRUE(v->handle("key", json{{"code", "KeyA"}, {"key", "a"}, {"down", "yes"}}));
  EXPECT_STREQ(v->bad_field(), "down");
  EXPECT_TRUE(v->handle("button", json{{"button", 1.5}, {"down", true}, {"x", 1}, {"y", 1}}));
  EXPECT_STREQ(v->bad_field(), "button");
  EXPECT_TRUE(v->handle("move", json{{"x", 1}, {"y", 2e6}}));
  EXPECT_STREQ(v->bad_field(), "y");
  EXPECT_TRUE(v->handle("text", json{{"text", std::string(5000, 'a')}}));
  EXPECT_STREQ(v->bad_field(), "text");
  EXPECT_TRUE(v->handle("clipboard", json{{"mime", 7}, {"text", "x"}}));
  EXPECT_STREQ(v->bad_field(), "mime");
  EXPECT_TRUE(inj.log.empty()) << "nothing of those reached the desktop";
  EXPECT_TRUE(clip.offered.empty());
  EXPECT_TRUE(v->handle("move", json{{"x", 1}, {"y", 2}}));
  EXPECT_EQ(v->bad_field(), nullptr);
  EXPECT_EQ(inj.log, std::vector<std::string>{"move 1 2"});
}

TEST_F(ViewerInputTest, OtherMessagesAreNotOurs) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  EXPECT_FALSE(v->handle("ack", json::object()));
  EXPECT_FALSE(v->handle("ping", json::object()));
}

TEST_F(ViewerInputTest, ClipboardBothWaysAndItsLimits) {
  InteractionSettings s;
  Interaction in(&inj, &clip, &cur, s, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  v->handle("clipboard", json{{"mime", "text/plain"}, {"text", "hello"}});
  v->handle("clipboard", json{{"mime", "image/png"}, {"data", base64_encode("\x89PNG")}});
  v->handle("clipboard", json{{"mime", "text/plain"}, {"text", "far too long for the fake"}});
  v->handle("clipboard", json{{"mime", "text/html"}, {"text", "<b>"}});
  ASSERT_EQ(clip.offered.size(), 2u);
  EXPECT_EQ(clip.offered[0], (ClipboardContent{"text/plain", "hello"}));
  EXPECT_EQ(clip.offered[1], (ClipboardContent{"image/png", "\x89PNG"}));
  const auto errors = link.of("clipboard_error");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0]["message"], "too large");

  clip.listener.copied({"text/plain", "from X"});
  clip.listener.copied({"image/png", "PNGDATA"});
  const auto got = link.of("clipboard");
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["text"], "from X");
  EXPECT_EQ(got[1]["data"], base64_encode("PNGDATA"));
}

TEST_F(ViewerInputTest, ClipboardDirectionsAreEnforced) {
  InteractionSettings s;
  s.clipboard_in = false;
  s.clipboard_out = false;
  Interaction in(&inj, &clip, &cur, s, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  v->handle("clipboard", json{{"mime", "text/plain"}, {"text", "x"}});
  clip.listener.copied({"text/plain", "y"});
  EXPECT_TRUE(clip.offered.empty());
  EXPECT_TRUE(link.of("clipboard").empty());
  EXPECT_EQ(link.of("refused").size(), 1u);
}

TEST_F(ViewerInputTest, CursorImagesOncePerSerialThenBySerial) {
  cur.now = cursor(7, 255);
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  cur.listener(cursor(8, 0));  // all transparent: hidden
  cur.listener(cursor(7, 255));
  const auto c = link.of("cursor");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0]["serial"], 7);
  EXPECT_EQ(c[0]["hot_x"], 1);
  EXPECT_EQ(c[0]["rgba"], base64_encode(std::string("\xff\0\0\xff\0\xff\0\xff", 8)));
  EXPECT_EQ(c[1]["hidden"], true);
  EXPECT_FALSE(c[2].contains("rgba"));
  EXPECT_EQ(c[2]["serial"], 7);
}

TEST_F(ViewerInputTest, DetachReleasesAndForgetsThePlatform) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger());
  auto v = in.join(link, false, 1);
  v->handle("button", json{{"button", 3}, {"down", true}, {"x", 0}, {"y", 0}});
  in.detach();
  EXPECT_EQ(inj.log.back(), "button 3 up");
  const size_t n = inj.log.size();
  v->handle("key", json{{"code", "KeyA"}, {"key", "a"}, {"down", true}});
  v.reset();
  EXPECT_EQ(inj.log.size(), n);
}

}  // namespace
}  // namespace voxl::input

namespace voxl::input {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

// Two full viewers and one view-only viewer on one desktop, on a clock and
// timer the test drives.
class InteractionHandoverTest : public ViewerInputTest {
 protected:
  InteractionHooks::Time clock = std::chrono::steady_clock::time_point{} + 1h;
  std::optional<InteractionHooks::Time> armed;
  Link link2, link3;

  InteractionHooks hooks() {
    return {.arm_timer = [this](InteractionHooks::Time when) { armed = when; }, .now = [this] { return clock; }};
  }
  static json key(bool down) { return json{{"code", "KeyA"}, {"key", "a"}, {"down", down}, {"mods", 0}}; }
  static json control(const std::string& action, uint64_t to = 0) {
    json m{{"action", action}};
    if (to) m["to"] = to;
    return m;
  }
};

TEST_F(InteractionHandoverTest, OnlyTheHoldersInputReachesTheDesktop) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger(), hooks());
  auto a = in.join(link, false, 1);
  auto b = in.join(link2, false, 2);
  a->handle("key", key(true));
  EXPECT_TRUE(a->used_input());
  EXPECT_EQ(in.control().holder(), 1u);
  b->handle("key", key(true));
  b->handle("move", json{{"x", 1}, {"y", 1}});
  b->handle("clipboard", json{{"mime", "text/plain"}, {"text", "x"}});
  EXPECT_FALSE(b->used_input());
  EXPECT_EQ(inj.log, (std::vector<std::string>{"key 0x61 down"}));
  EXPECT_TRUE(clip.offered.empty());
  const auto refused = link2.of("refused");
  ASSERT_EQ(refused.size(), 1u) << "told once";
  EXPECT_EQ(refused[0], (json{{"type", "refused"}, {"what", "input"}, {"reason", "another viewer has control"}}));
  EXPECT_TRUE(link.of("refused").empty());
}

TEST_F(InteractionHandoverTest, ARequestAndAGrantMoveControlAndReleaseTheOldHoldersKeys) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger(), hooks());
  auto a = in.join(link, false, 1);
  auto b = in.join(link2, false, 2);
  a->handle("key", key(true));
  b->handle("key", key(true));  // refused once
  b->handle("control", control("request"));
  auto list = link.of("viewers").back();
  EXPECT_EQ(list["holder"], 1);
  EXPECT_EQ(list["viewers"][1]["requesting"], true);
  ASSERT_TRUE(armed) << "the holder's idle timeout runs while someone asks";
  a->handle("control", control("grant", 2));
  EXPECT_EQ(in.control().holder(), 2u);
  EXPECT_EQ(inj.log, (std::vector<std::string>{"key 0x61 down", "key 0x61 up"})) << "the old holder's key let go";
  b->handle("key", key(true));
  EXPECT_TRUE(b->used_input());
  a->handle("key", key(false));
  EXPECT_EQ(link.of("refused").size(), 1u) << "the old holder is told once it lost control";
  EXPECT_EQ(inj.log.back(), "key 0x61 down");
  list = link2.of("viewers").back();
  EXPECT_EQ(list["you"], 2);
  EXPECT_EQ(list["holder"], 2);
  EXPECT_EQ(list["viewers"][1]["requesting"], false);
  // Lost and tried again: told again, once.
  b->handle("control", control("release"));
  a->handle("key", key(true));
  EXPECT_EQ(in.control().holder(), 1u);
  a->handle("control", control("release"));
  b->handle("control", control("request"));
  EXPECT_EQ(in.control().holder(), 2u);
  a->handle("key", key(true));
  EXPECT_EQ(link.of("refused").size(), 2u);
}

TEST_F(InteractionHandoverTest, TheTimeoutPassesControlOnAndTheListFollows) {
  InteractionSettings s;
  s.control_timeout = 5s;
  Interaction in(&inj, &clip, &cur, s, spdlog::default_logger(), hooks());
  auto a = in.join(link, false, 1);
  auto b = in.join(link2, false, 2);
  a->handle("button", json{{"button", 1}, {"down", true}, {"x", 1}, {"y", 1}});
  b->handle("control", control("request"));
  ASSERT_TRUE(armed);
  EXPECT_EQ(*armed, clock + 5s);
  clock += 3s;
  a->handle("move", json{{"x", 2}, {"y", 2}});  // still working
  clock += 2s;
  in.on_control_timer();
  EXPECT_EQ(in.control().holder(), 1u);
  EXPECT_EQ(*armed, clock + 3s) << "re-armed for the holder's new deadline";
  clock += 3s;
  in.on_control_timer();
  EXPECT_EQ(in.control().holder(), 2u);
  EXPECT_EQ(inj.log.back(), "button 1 up") << "the old holder's button let go";
  EXPECT_EQ(link.of("viewers").back()["holder"], 2);
  EXPECT_EQ(link.of("viewers").back()["timeout_s"], 5);
}

TEST_F(InteractionHandoverTest, ViewOnlyViewersCannotAskAndEveryoneSeesTheList) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger(), hooks());
  auto a = in.join(link, false, 1);
  auto v = in.join(link3, true, 3);
  v->handle("control", control("request"));
  v->handle("control", control("request"));
  EXPECT_EQ(in.control().holder(), 0u);
  const auto refused = link3.of("refused");
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0]["what"], "control");
  const auto list = link3.of("viewers").back();
  EXPECT_EQ(list, (json{{"type", "viewers"},
                        {"you", 3},
                        {"holder", 0},
                        {"timeout_s", 10},
                        {"viewers",
                         {{{"id", 1}, {"role", "full"}, {"name", ""}, {"user", ""}, {"requesting", false}},
                          {{"id", 3}, {"role", "view-only"}, {"name", ""}, {"user", ""}, {"requesting", false}}}},
                        {"more", 0}}));
  a->rename("Ada");
  EXPECT_EQ(link3.of("viewers").back()["viewers"][0]["name"], "Ada");
  const size_t lists = link3.of("viewers").size();
  a->rename("Ada");
  EXPECT_EQ(link3.of("viewers").size(), lists) << "no change, no message";
  a.reset();
  EXPECT_EQ(link3.of("viewers").back()["viewers"].size(), 1u) << "told when a viewer leaves";
}

TEST_F(InteractionHandoverTest, OnlyAMessageThatParsedAndActsTakesControl) {
  InteractionSettings s;
  s.control_timeout = 5s;
  Interaction in(&inj, &clip, &cur, s, spdlog::default_logger(), hooks());
  auto a = in.join(link, false, 1);
  auto b = in.join(link2, false, 2);
  a->handle("key", json{{"code", "KeyA"}, {"key", "a"}, {"down", "yes"}});
  EXPECT_STREQ(a->bad_field(), "down");
  EXPECT_EQ(in.control().holder(), 0u) << "a malformed message took control";
  a->handle("move", json{{"x", "far"}, {"y", 1}});
  EXPECT_EQ(in.control().holder(), 0u);
  a->handle("key", key(true));
  EXPECT_EQ(in.control().holder(), 1u);
  b->handle("control", control("request"));
  clock += 3s;
  // Malformed input does not move the idle holder's deadline on.
  a->handle("key", json{{"code", "KeyA"}, {"key", 7}, {"down", true}});
  a->handle("scroll", json{{"dx", "x"}, {"dy", 1}});
  a->handle("text", json{{"text", 5}});
  EXPECT_FALSE(a->used_input());
  clock += 2s;
  in.on_control_timer();
  EXPECT_EQ(in.control().holder(), 2u) << "the idle holder kept control through malformed messages";
}

TEST_F(InteractionHandoverTest, WhenTheHolderLeavesTheRequesterGetsControl) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger(), hooks());
  auto a = in.join(link, false, 1);
  auto b = in.join(link2, false, 2);
  a->handle("key", key(true));
  b->handle("control", control("request"));
  a.reset();
  EXPECT_EQ(in.control().holder(), 2u);
  EXPECT_EQ(link2.of("viewers").back()["holder"], 2);
}

// Keeps only the newest message (a list per join to every viewer adds up).
struct LastLink : ViewerLink {
  std::string last;
  void send_control(std::string text) override { last = std::move(text); }
};

TEST_F(InteractionHandoverTest, TheListHoldsAtMost32AndAlwaysItsRecipient) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger(), hooks());
  std::vector<std::unique_ptr<LastLink>> links;
  std::vector<std::unique_ptr<ViewerInput>> viewers;
  for (uint64_t id = 1; id <= 40; ++id) {
    links.push_back(std::make_unique<LastLink>());
    viewers.push_back(in.join(*links.back(), true, id));
  }
  const auto list = json::parse(links.back()->last);
  EXPECT_EQ(list["viewers"].size(), 32u);
  EXPECT_EQ(list["more"], 8);
  EXPECT_EQ(list["viewers"].back()["id"], 40);
  EXPECT_EQ(list["viewers"][0]["id"], 1);
  viewers.clear();
}

TEST_F(InteractionHandoverTest, ALoneViewerNeverNotices) {
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger(), hooks());
  auto a = in.join(link, false, 1);
  a->handle("move", json{{"x", 1}, {"y", 1}});
  a->handle("key", key(true));
  a->handle("key", key(false));
  EXPECT_EQ(inj.log, (std::vector<std::string>{"move 1 1", "key 0x61 down", "key 0x61 up"}));
  EXPECT_TRUE(link.of("refused").empty());
  EXPECT_FALSE(armed);
}

// A viewer flooding renames and control actions: the list goes out once
// per loop turn, and past the viewer's burst its actions are ignored.
TEST_F(InteractionHandoverTest, TheListIsSentOncePerLoopTurnAndActionsAreBucketed) {
  std::vector<std::function<void()>> posted;
  InteractionHooks h = hooks();
  h.post = [&posted](std::function<void()> f) { posted.push_back(std::move(f)); };
  Interaction in(&inj, &clip, &cur, {}, spdlog::default_logger(), std::move(h));
  const auto run_turn = [&posted] {
    auto now = std::move(posted);
    posted.clear();
    for (auto& f : now) f();
  };
  auto a = in.join(link, false, 1);
  auto b = in.join(link2, false, 2);
  auto v = in.join(link3, true, 3);
  a->handle("key", key(true));  // a holds control
  EXPECT_TRUE(link3.of("viewers").empty()) << "not before the turn ends";
  run_turn();
  ASSERT_EQ(link3.of("viewers").size(), 1u) << "three joins, one list";
  // Within one turn: renames and requests, one list to each viewer.
  EXPECT_TRUE(a->rename("A1"));
  b->handle("control", control("request"));
  b->handle("control", control("release"));
  EXPECT_TRUE(a->rename("A2"));
  EXPECT_EQ(posted.size(), 1u) << "one flush however many changes";
  run_turn();
  EXPECT_EQ(link3.of("viewers").size(), 2u);
  EXPECT_EQ(link3.of("viewers").back()["viewers"][0]["name"], "A2");
  // Five actions at once, then one a second.
  EXPECT_TRUE(a->rename("A3"));
  EXPECT_TRUE(a->rename("A4"));
  EXPECT_TRUE(a->rename("A5"));
  EXPECT_FALSE(a->rename("A6")) << "over its burst";
  EXPECT_EQ(a->name(), "A5");
  EXPECT_TRUE(a->rename("A5")) << "no change costs nothing";
  b->handle("control", control("request"));
  b->handle("control", control("release"));
  b->handle("control", control("request"));
  EXPECT_FALSE(b->over_limit());
  EXPECT_TRUE(in.control().requesting(2));
  b->handle("control", control("release"));
  EXPECT_TRUE(b->over_limit());
  EXPECT_TRUE(in.control().requesting(2)) << "the release over the limit is ignored";
  clock += 1s;
  EXPECT_TRUE(a->rename("A6"));
  b->handle("control", control("release"));
  EXPECT_FALSE(b->over_limit());
  EXPECT_FALSE(in.control().requesting(2));
  run_turn();
  EXPECT_EQ(link3.of("viewers").size(), 3u);
  EXPECT_EQ(link3.of("viewers").back()["viewers"][0]["name"], "A6");
  a.reset();
  b.reset();
  v.reset();
}

}  // namespace
}  // namespace voxl::input
