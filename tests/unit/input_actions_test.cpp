// POST /input bodies: what parses into which actions, that every bad field
// is named, and what a recording fake injector receives when they run
// (including that a combo whose key fails still releases what it held).
#include "endpoints/input_actions.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "fake_input_injector.h"
#include "input/keysyms.h"

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

using input::InputStatus;
namespace ks = input::keysym;

using FakeInjector = voxl::testing::FakeInputInjector;

constexpr Size kDesktop{640, 480};
constexpr double kPxPerNotch = 100;

std::vector<InputAction> parse_ok(const std::string& body) {
  ActionError e;
  auto a = parse_input_actions(body, kDesktop, kPxPerNotch, e);
  EXPECT_TRUE(a) << body << " -> " << e.message;
  return a ? *a : std::vector<InputAction>{};
}

ActionError parse_bad(const std::string& body) {
  ActionError e;
  EXPECT_FALSE(parse_input_actions(body, kDesktop, kPxPerNotch, e)) << body;
  EXPECT_EQ(e.message.rfind(e.parameter + ": ", 0), 0u) << e.message;
  return e;
}

std::vector<std::string> run(const std::string& body, FakeInjector& inj) {
  const auto actions = parse_ok(body);
  const RunOutcome r = run_input_actions(actions, inj);
  EXPECT_EQ(r.status, InputStatus::kOk);
  EXPECT_EQ(r.done, actions.size());
  return inj.log;
}

TEST(InputActionsTest, OneObjectOrAList) {
  EXPECT_EQ(parse_ok(R"({"type":"move","x":1,"y":2})").size(), 1u);
  const auto list = parse_ok(R"({"actions":[{"type":"move","x":1,"y":2},{"type":"type","text":"hi"}]})");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].name, "actions[1]");
  EXPECT_EQ(list[1].text, "hi");
}

TEST(InputActionsTest, ClickMovesThenPressesAndReleasesCountTimes) {
  FakeInjector inj;
  EXPECT_EQ(run(R"({"type":"click","x":10,"y":20,"button":"right","count":2})", inj),
            (std::vector<std::string>{"move 10 20", "button 3 down", "button 3 up", "button 3 down", "button 3 up"}));
  FakeInjector here;
  EXPECT_EQ(run(R"({"type":"click","button":9})", here), (std::vector<std::string>{"button 9 down", "button 9 up"}));
}

TEST(InputActionsTest, DragPressesMovesInStepsAndReleases) {
  FakeInjector inj;
  const auto log = run(R"({"type":"drag","from":[0,0],"to":[80,40],"button":"middle"})", inj);
  ASSERT_GE(log.size(), 4u);
  EXPECT_EQ(log[0], "move 0 0");
  EXPECT_EQ(log[1], "button 2 down");
  EXPECT_EQ(log[log.size() - 2], "move 80 40");
  EXPECT_EQ(log.back(), "button 2 up");
  EXPECT_GT(log.size(), 4u);  // intermediate motion
}

TEST(InputActionsTest, MappingMovesEveryPositionAndLeavesThePointerWhereItIs) {
  auto actions = parse_ok(R"({"actions":[{"type":"move","x":1,"y":2},{"type":"click","x":3,"y":4},)"
                          R"({"type":"click"},{"type":"drag","from":[5,6],"to":[7,8]},)"
                          R"({"type":"scroll","x":9,"y":10,"dy":1},{"type":"scroll","dy":1}]})");
  map_input_actions(actions, input::PictureMapping{{100, 80}, {640, 480}});
  FakeInjector inj;
  run_input_actions(actions, inj);
  const std::vector<std::string> want = {"move 101 82", "move 103 84", "button 1 down", "button 1 up",
                                         "button 1 down", "button 1 up", "move 105 86", "button 1 down"};
  ASSERT_GE(inj.log.size(), want.size());
  EXPECT_EQ(std::vector<std::string>(inj.log.begin(), inj.log.begin() + long(want.size())), want);
  const auto& log = inj.log;
  const auto drag_end = std::find(log.begin(), log.end(), "move 107 88");
  ASSERT_NE(drag_end, log.end());
  EXPECT_EQ(*(drag_end + 1), "button 1 up");
  EXPECT_EQ(std::vector<std::string>(drag_end + 2, log.end()),
            (std::vector<std::string>{"move 109 90", "scroll 0 1", "scroll 0 1"}));
}

TEST(InputActionsTest, ScrollInNotchesOrPixels) {
  FakeInjector inj;
  EXPECT_EQ(run(R"({"actions":[{"type":"scroll","x":5,"y":6,"dy":3},{"type":"scroll","dx":-2}]})", inj),
            (std::vector<std::string>{"move 5 6", "scroll 0 3", "scroll -2 0"}));
  FakeInjector px;
  // 250 px is 2 notches and 50 left over, which the next 50 make a third.
  EXPECT_EQ(run(R"({"actions":[{"type":"scroll","pixels_y":250},{"type":"scroll","pixels_y":50}]})", px),
            (std::vector<std::string>{"scroll 0 2", "scroll 0 1"}));
}

TEST(InputActionsTest, KeyComboPressesInOrderAndReleasesInReverse) {
  FakeInjector inj;
  EXPECT_EQ(run(R"({"type":"key","keys":"ctrl+shift+t"})", inj),
            (std::vector<std::string>{fmt::format("key {:#x} down", ks::kControlL),
                                      fmt::format("key {:#x} down", ks::kShiftL), "key 0x74 down", "key 0x74 up",
                                      fmt::format("key {:#x} up", ks::kShiftL),
                                      fmt::format("key {:#x} up", ks::kControlL)}));
}

TEST(InputActionsTest, AFailedKeyReleasesWhatWasHeldAndStops) {
  FakeInjector inj;
  inj.failing_key = 0x10020ac;  // the euro sign (Unicode keysym)
  const auto actions = parse_ok(R"({"actions":[{"type":"key","keys":"ctrl+shift+€"},{"type":"type","text":"x"}]})");
  const RunOutcome r = run_input_actions(actions, inj);
  EXPECT_EQ(r.status, InputStatus::kNoSpareKeycode);
  EXPECT_EQ(r.done, 0u);
  EXPECT_EQ(inj.log, (std::vector<std::string>{fmt::format("key {:#x} down", ks::kControlL),
                                               fmt::format("key {:#x} down", ks::kShiftL),
                                               fmt::format("key {:#x} up", ks::kShiftL),
                                               fmt::format("key {:#x} up", ks::kControlL)}));
}

TEST(InputActionsTest, TypeTakesAnyUnicode) {
  FakeInjector inj;
  EXPECT_EQ(run(R"({"type":"type","text":"héllo €→ 日本\n"})", inj),
            (std::vector<std::string>{"text héllo €→ 日本\n"}));
}

TEST(InputActionsTest, BadBodiesNameTheField) {
  EXPECT_EQ(parse_bad("not json").parameter, "body");
  EXPECT_EQ(parse_bad("[1]").parameter, "body");
  EXPECT_EQ(parse_bad(R"({"actions":[]})").parameter, "actions");
  EXPECT_EQ(parse_bad(R"({"actions":[{"type":"move","x":1,"y":1}],"extra":1})").parameter, "extra");
  EXPECT_EQ(parse_bad(R"({"actions":[3]})").parameter, "actions[0]");
  EXPECT_EQ(parse_bad(R"({"x":1})").parameter, "type");
  EXPECT_EQ(parse_bad(R"({"type":"jump"})").parameter, "type");
  const ActionError outside = parse_bad(R"({"actions":[{"type":"move","x":1,"y":1},{"type":"move","x":640,"y":1}]})");
  EXPECT_EQ(outside.parameter, "actions[1].x");
  EXPECT_EQ(outside.message, "actions[1].x: outside the 640x480 desktop");
  EXPECT_EQ(parse_bad(R"({"type":"move","x":1,"y":-1})").parameter, "y");
  EXPECT_EQ(parse_bad(R"({"type":"move","x":1.5,"y":1})").parameter, "x");
  EXPECT_EQ(parse_bad(R"({"type":"move","x":1})").parameter, "y");
  EXPECT_EQ(parse_bad(R"({"type":"move"})").parameter, "x");
  EXPECT_EQ(parse_bad(R"({"type":"move","x":1,"y":1,"button":"left"})").parameter, "button");
  EXPECT_EQ(parse_bad(R"({"type":"click","button":"thumb"})").parameter, "button");
  EXPECT_EQ(parse_bad(R"({"type":"click","button":4})").parameter, "button");
  EXPECT_EQ(parse_bad(R"({"type":"click","count":0})").parameter, "count");
  EXPECT_EQ(parse_bad(R"({"type":"click","count":11})").parameter, "count");
  EXPECT_EQ(parse_bad(R"({"type":"drag","from":[1,1]})").parameter, "to");
  EXPECT_EQ(parse_bad(R"({"type":"drag","from":[1,1],"to":[1,1000]})").parameter, "to[1]");
  EXPECT_EQ(parse_bad(R"({"type":"drag","from":{"x":1},"to":[1,1]})").parameter, "from");
  EXPECT_EQ(parse_bad(R"({"type":"scroll"})").parameter, "dy");
  EXPECT_EQ(parse_bad(R"({"type":"scroll","dy":1,"pixels_y":5})").parameter, "pixels_y");
  EXPECT_EQ(parse_bad(R"({"type":"scroll","dy":101})").parameter, "dy");
  EXPECT_EQ(parse_bad(R"({"type":"scroll","pixels_x":"lots"})").parameter, "pixels_x");
  EXPECT_EQ(parse_bad(R"({"type":"key","keys":"ctrl+hyper+t"})").message, "keys: unknown key 'hyper'");
  EXPECT_EQ(parse_bad(R"({"type":"key"})").parameter, "keys");
  EXPECT_EQ(parse_bad(R"({"type":"type","text":5})").parameter, "text");
  EXPECT_EQ(parse_bad("{\"type\":\"type\",\"text\":\"a\\u0001\"}").message, "text: character 1 (U+0001) cannot be typed");
  EXPECT_EQ(parse_bad(R"({"type":"type","text":")" + std::string(kMaxTypedChars + 1, 'a') + "\"}").parameter, "text");
  std::string many = R"({"actions":[)";
  for (size_t i = 0; i <= kMaxInputActions; ++i) many += std::string(i ? "," : "") + R"({"type":"move","x":1,"y":1})";
  EXPECT_EQ(parse_bad(many + "]}").parameter, "actions");
}

}  // namespace
}  // namespace voxl::endpoints
