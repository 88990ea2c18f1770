// POST /computer bodies in Anthropic's and OpenAI's computer-use schemas:
// what each action becomes on a recording fake injector, what it asks for
// afterwards (settle, screenshot, zoom, cursor, hold), and that every bad
// field is named before anything is played.
#include "endpoints/computer_action.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "fake_input_injector.h"
#include "input/keysyms.h"

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

namespace ks = input::keysym;
using FakeInjector = voxl::testing::FakeInputInjector;

constexpr Size kPicture{640, 480};
constexpr double kComputerPxPerNotch = 100;

ComputerAction computer_ok(const std::string& body, Size picture = kPicture) {
  ActionError e;
  auto a = parse_computer_action(body, picture, kComputerPxPerNotch, e);
  EXPECT_TRUE(a) << body << " -> " << e.message;
  return a ? *a : ComputerAction{};
}

ActionError computer_bad(const std::string& body, Size picture = kPicture) {
  ActionError e;
  EXPECT_FALSE(parse_computer_action(body, picture, kComputerPxPerNotch, e)) << body;
  EXPECT_EQ(e.message.rfind(e.parameter + ": ", 0), 0u) << e.message;
  return e;
}

// What the injector sees when the action's input is played.
std::vector<std::string> played(const std::string& body) {
  const ComputerAction a = computer_ok(body);
  FakeInjector inj;
  const RunOutcome r = run_input_actions(a.input, inj);
  EXPECT_EQ(r.status, input::InputStatus::kOk) << body;
  return inj.log;
}

std::string key(uint32_t k, bool down) { return fmt::format("key {:#x} {}", k, down ? "down" : "up"); }

TEST(ComputerActionAnthropic, ClicksOfEveryKind) {
  EXPECT_EQ(played(R"({"action":"left_click","coordinate":[10,20]})"),
            (std::vector<std::string>{"move 10 20", "button 1 down", "button 1 up"}));
  EXPECT_EQ(played(R"({"action":"right_click","coordinate":[1,2]})"),
            (std::vector<std::string>{"move 1 2", "button 3 down", "button 3 up"}));
  EXPECT_EQ(played(R"({"action":"middle_click","coordinate":[1,2]})"),
            (std::vector<std::string>{"move 1 2", "button 2 down", "button 2 up"}));
  EXPECT_EQ(played(R"({"action":"double_click","coordinate":[1,2]})").size(), 5u);
  EXPECT_EQ(played(R"({"action":"triple_click","coordinate":[1,2]})").size(), 7u);
  // Where the pointer is, when no coordinate is given.
  EXPECT_EQ(played(R"({"action":"left_click"})"), (std::vector<std::string>{"button 1 down", "button 1 up"}));
  const ComputerAction a = computer_ok(R"({"action":"left_click","coordinate":[10,20]})");
  EXPECT_EQ(a.schema, ComputerSchema::kAnthropic);
  EXPECT_EQ(a.name, "left_click");
  EXPECT_TRUE(a.settle);
  EXPECT_FALSE(a.screenshot);
}

TEST(ComputerActionAnthropic, ModifiersAreHeldAroundAClick) {
  EXPECT_EQ(played(R"({"action":"left_click","coordinate":[5,6],"text":"ctrl+shift"})"),
            (std::vector<std::string>{key(ks::kControlL, true), key(ks::kShiftL, true), "move 5 6", "button 1 down",
                                      "button 1 up", key(ks::kShiftL, false), key(ks::kControlL, false)}));
}

TEST(ComputerActionAnthropic, KeysInXdotoolNamesAndSequences) {
  EXPECT_EQ(played(R"({"action":"key","text":"Return"})"),
            (std::vector<std::string>{key(ks::kReturn, true), key(ks::kReturn, false)}));
  EXPECT_EQ(played(R"({"action":"key","text":"ctrl+a Delete"})"),
            (std::vector<std::string>{key(ks::kControlL, true), key('a', true), key('a', false),
                                      key(ks::kControlL, false), key(ks::kDelete, true), key(ks::kDelete, false)}));
  EXPECT_EQ(computer_ok(R"({"action":"key","text":"KP_Enter"})").input.size(), 1u);
  EXPECT_EQ(computer_bad(R"({"action":"key","text":"ctrl+Nonsense"})").parameter, "text");
}

TEST(ComputerActionAnthropic, TypeMoveDragAndButtons) {
  EXPECT_EQ(played(R"({"action":"type","text":"hi"})"), (std::vector<std::string>{"text hi"}));
  EXPECT_EQ(played(R"({"action":"mouse_move","coordinate":[3,4]})"), (std::vector<std::string>{"move 3 4"}));
  const auto drag = played(R"({"action":"left_click_drag","start_coordinate":[0,0],"coordinate":[80,40]})");
  EXPECT_EQ(drag.front(), "move 0 0");
  EXPECT_EQ(drag[1], "button 1 down");
  EXPECT_EQ(drag[drag.size() - 2], "move 80 40");
  EXPECT_EQ(drag.back(), "button 1 up");
  EXPECT_EQ(played(R"({"action":"left_mouse_down"})"), (std::vector<std::string>{"button 1 down"}));
  EXPECT_EQ(played(R"({"action":"left_mouse_up","coordinate":[7,8]})"),
            (std::vector<std::string>{"move 7 8", "button 1 up"}));
}

TEST(ComputerActionAnthropic, ScrollInNotches) {
  EXPECT_EQ(played(R"({"action":"scroll","coordinate":[1,1],"scroll_direction":"down","scroll_amount":5})"),
            (std::vector<std::string>{"move 1 1", "scroll 0 5"}));
  EXPECT_EQ(played(R"({"action":"scroll","scroll_direction":"left","scroll_amount":2})"),
            (std::vector<std::string>{"scroll -2 0"}));
  EXPECT_EQ(played(R"({"action":"scroll","scroll_direction":"up"})"), (std::vector<std::string>{"scroll 0 -3"}));
  EXPECT_EQ(computer_bad(R"({"action":"scroll","scroll_direction":"sideways"})").parameter, "scroll_direction");
  EXPECT_EQ(computer_bad(R"({"action":"scroll","scroll_direction":"up","scroll_amount":1000})").parameter,
            "scroll_amount");
}

TEST(ComputerActionAnthropic, HoldWaitScreenshotCursorZoom) {
  const ComputerAction hold = computer_ok(R"({"action":"hold_key","text":"shift","duration":1.5})");
  EXPECT_EQ(hold.hold_keys, std::vector<uint32_t>{ks::kShiftL});
  EXPECT_EQ(hold.hold.count(), 1500);
  EXPECT_TRUE(hold.input.empty());
  EXPECT_EQ(computer_bad(R"({"action":"hold_key","text":"shift","duration":600})").parameter, "duration");
  EXPECT_EQ(computer_bad(R"({"action":"hold_key","text":"shift"})").parameter, "duration");

  const ComputerAction wait = computer_ok(R"({"action":"wait","duration":2})");
  EXPECT_TRUE(wait.settle);
  EXPECT_EQ(wait.wait_cap.count(), 2000);

  const ComputerAction shot = computer_ok(R"({"action":"screenshot"})");
  EXPECT_TRUE(shot.screenshot);
  EXPECT_FALSE(shot.settle);
  EXPECT_TRUE(computer_ok(R"({"action":"cursor_position"})").cursor);

  const ComputerAction zoom = computer_ok(R"({"action":"zoom","region":[100,50,300,150]})");
  ASSERT_TRUE(zoom.zoom);
  EXPECT_EQ(*zoom.zoom, (Rect{100, 50, 200, 100}));
  EXPECT_TRUE(zoom.screenshot);
  // The far corner may be the edge itself, not past it.
  EXPECT_TRUE(computer_ok(R"({"action":"zoom","region":[0,0,640,480]})").zoom);
  EXPECT_EQ(computer_bad(R"({"action":"zoom","region":[0,0,641,480]})").parameter, "region[2]");
  EXPECT_EQ(computer_bad(R"({"action":"zoom","region":[10,0,10,480]})").parameter, "region");
}

TEST(ComputerActionOpenAI, EveryAction) {
  EXPECT_EQ(played(R"({"type":"click","button":"right","x":10,"y":20})"),
            (std::vector<std::string>{"move 10 20", "button 3 down", "button 3 up"}));
  EXPECT_EQ(played(R"({"type":"click","button":"wheel","x":1,"y":2})")[1], "button 2 down");
  EXPECT_EQ(played(R"({"type":"click","button":"back","x":1,"y":2})")[1], "button 8 down");
  EXPECT_EQ(played(R"({"type":"double_click","x":1,"y":2})").size(), 5u);
  EXPECT_EQ(played(R"({"type":"move","x":3,"y":4})"), (std::vector<std::string>{"move 3 4"}));
  EXPECT_EQ(played(R"({"type":"type","text":"ok"})"), (std::vector<std::string>{"text ok"}));
  EXPECT_EQ(played(R"({"type":"keypress","keys":["CTRL","C"]})"),
            (std::vector<std::string>{key(ks::kControlL, true), key('c', true), key('c', false),
                                      key(ks::kControlL, false)}));
  EXPECT_EQ(played(R"({"type":"keypress","keys":["ENTER"]})"),
            (std::vector<std::string>{key(ks::kReturn, true), key(ks::kReturn, false)}));
  const auto drag = played(R"({"type":"drag","path":[{"x":0,"y":0},{"x":40,"y":0},{"x":40,"y":40}]})");
  EXPECT_EQ(drag.front(), "move 0 0");
  EXPECT_NE(std::find(drag.begin(), drag.end(), "move 40 0"), drag.end()) << "the drag passes every point";
  EXPECT_EQ(drag[drag.size() - 2], "move 40 40");
  EXPECT_TRUE(computer_ok(R"({"type":"wait"})").settle);
  EXPECT_TRUE(computer_ok(R"({"type":"screenshot"})").screenshot);
  EXPECT_EQ(computer_ok(R"({"type":"move","x":3,"y":4})").schema, ComputerSchema::kOpenAI);
}

TEST(ComputerActionOpenAI, PixelScrollsAreNotchesAndAnyAmountScrolls) {
  EXPECT_EQ(played(R"({"type":"scroll","x":5,"y":5,"scroll_x":0,"scroll_y":300})"),
            (std::vector<std::string>{"move 5 5", "scroll 0 3"}));
  EXPECT_EQ(played(R"({"type":"scroll","x":5,"y":5,"scroll_x":-30,"scroll_y":0})"),
            (std::vector<std::string>{"move 5 5", "scroll -1 0"}));
}

TEST(ComputerActionOpenAI, AComputerCallItemIsUnwrapped) {
  const ComputerAction a = computer_ok(
      R"({"type":"computer_call","id":"cu_1","call_id":"call_1","status":"completed","pending_safety_checks":[],
          "action":{"type":"click","button":"left","x":7,"y":8}})");
  EXPECT_EQ(a.name, "click");
  ASSERT_EQ(a.input.size(), 1u);
  EXPECT_EQ(a.input[0].x, 7);
}

TEST(ComputerActionOpenAI, ModifierKeysAroundAClick) {
  EXPECT_EQ(played(R"({"type":"click","button":"left","x":1,"y":1,"keys":["SHIFT"]})"),
            (std::vector<std::string>{key(ks::kShiftL, true), "move 1 1", "button 1 down", "button 1 up",
                                      key(ks::kShiftL, false)}));
}

TEST(ComputerAction, CoordinatesAreCheckedAgainstTheAgentsPicture) {
  // A 1280x800 picture of a larger desktop: its own bounds apply.
  EXPECT_TRUE(computer_ok(R"({"action":"left_click","coordinate":[1279,799]})", {1280, 800}).input.size());
  EXPECT_EQ(computer_bad(R"({"action":"left_click","coordinate":[1280,0]})", {1280, 800}).parameter, "coordinate[0]");
  EXPECT_EQ(computer_bad(R"({"type":"click","x":0,"y":-1})").parameter, "y");
  // Models write 12.0; that is pixel 12.
  EXPECT_EQ(computer_ok(R"({"type":"move","x":12.0,"y":3.4})").input[0].x, 12);
}

TEST(ComputerAction, BadBodiesAreNamed) {
  EXPECT_EQ(computer_bad("not json").parameter, "body");
  EXPECT_EQ(computer_bad("[1]").parameter, "body");
  EXPECT_EQ(computer_bad("{}").parameter, "action");
  EXPECT_EQ(computer_bad(R"({"action":"fly"})").parameter, "action");
  EXPECT_EQ(computer_bad(R"({"type":"fly"})").parameter, "type");
  EXPECT_EQ(computer_bad(R"({"action":"left_click","type":"click"})").parameter, "type");
  EXPECT_EQ(computer_bad(R"({"action":"left_click","coordinate":[1,2],"speed":3})").parameter, "speed");
  EXPECT_EQ(computer_bad(R"({"action":"left_click","coordinate":[1]})").parameter, "coordinate");
  EXPECT_EQ(computer_bad(R"({"type":"keypress","keys":[]})").parameter, "keys");
  EXPECT_EQ(computer_bad(R"({"type":"keypress","keys":["CTRL","NOPE"]})").parameter, "keys[1]");
  EXPECT_EQ(computer_bad(R"({"type":"drag","path":[{"x":1,"y":1}]})").parameter, "path");
  EXPECT_EQ(computer_bad(R"({"type":"drag","path":[{"x":1,"y":1},{"x":1}]})").parameter, "path[1].y");
  EXPECT_EQ(computer_bad(R"({"action":"type","text":"\u0001"})").parameter, "text");
  EXPECT_EQ(computer_bad(std::string(100, '[') + std::string(100, ']')).parameter, "body");
}

}  // namespace
}  // namespace voxl::endpoints
