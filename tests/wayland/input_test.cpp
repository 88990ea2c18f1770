// Input into headless sway through the virtual keyboard and pointer: text
// (with characters no keyboard layout has together) arrives as typed, a
// combination arrives with its modifier, clicks land where they were sent,
// and the wheel turns.
#include <gtest/gtest.h>

#include <linux/input-event-codes.h>

#include "input/keysyms.h"
#include "platform/wayland/virtual_input_injector.h"
#include "wayland_test_support.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using platform::wayland::VirtualInputInjector;

// The probe gets the keyboard's focus once a key was sent; the first key
// may go before the focus did, so a marker is typed until it arrives.
void wait_for_focus(VirtualInputInjector& in, ProbeProgram& probe) {
  for (int i = 0; i < 40; ++i) {
    ASSERT_EQ(in.type_text("#"), input::InputStatus::kOk);
    if (!probe.next_line("text #", std::chrono::milliseconds(500)).empty()) return;
  }
  FAIL() << "the probe never got the keyboard";
}

TEST(WaylandInput, TypedTextArrivesAsWritten) {
  auto sway = start_sway({320, 240});
  ProbeProgram probe(*sway, 0x000000);
  VirtualInputInjector in(sway->socket_path(), quiet_log());
  EXPECT_EQ(in.desktop_size(), (Size{320, 240}));
  wait_for_focus(in, probe);

  const std::string text = "Hello, voxl! é€ж😀";
  ASSERT_EQ(in.type_text(text), input::InputStatus::kOk);
  std::string got;
  for (const std::string& line : probe.lines("text ", 17)) got += line.substr(5);
  EXPECT_EQ(got, text);

  // A combination: Control held while c is pressed.
  ASSERT_EQ(in.key(input::keysym::kControlL, true), input::InputStatus::kOk);
  ASSERT_EQ(in.key('c', true), input::InputStatus::kOk);
  ASSERT_EQ(in.key('c', false), input::InputStatus::kOk);
  ASSERT_EQ(in.key(input::keysym::kControlL, false), input::InputStatus::kOk);
  EXPECT_EQ(probe.next_line("key ctrl+"), "key ctrl+63");
  // Released, it types plainly again.
  ASSERT_EQ(in.type_text("c"), input::InputStatus::kOk);
  EXPECT_EQ(probe.next_line("text "), "text c");
}

TEST(WaylandInput, ManyCharactersOutsideTheKeymapStillType) {
  auto sway = start_sway({160, 120});
  ProbeProgram probe(*sway, 0x000000);
  VirtualInputInjector in(sway->socket_path(), quiet_log());
  wait_for_focus(in, probe);
  // More distinct characters than the keymap has free keys: keys are reused.
  std::string text;
  for (char32_t cp = 0x4e00; cp < 0x4e00 + 150; ++cp) {
    text += char(0xe0 | (cp >> 12));
    text += char(0x80 | ((cp >> 6) & 0x3f));
    text += char(0x80 | (cp & 0x3f));
  }
  ASSERT_EQ(in.type_text(text), input::InputStatus::kOk);
  std::string got;
  for (const std::string& line : probe.lines("text ", 150, std::chrono::seconds(60))) got += line.substr(5);
  EXPECT_EQ(got, text);
}

TEST(WaylandInput, ClicksLandWhereSentAndTheWheelTurns) {
  auto sway = start_sway({320, 240});
  ProbeProgram probe(*sway, 0x000000);
  VirtualInputInjector in(sway->socket_path(), quiet_log());
  // The pointer appears with the injector; the probe listens to it from then.
  ASSERT_EQ(probe.next_line("seat pointer"), "seat pointer");
  in.move(101, 57);
  EXPECT_EQ(in.pointer_position(), (Point{101, 57}));
  in.button(input::kButtonLeft, true);
  in.button(input::kButtonLeft, false);
  EXPECT_EQ(probe.next_line("button "), "button " + std::to_string(BTN_LEFT) + " 101,57");
  in.move(300, 200);
  in.button(input::kButtonRight, true);
  in.button(input::kButtonRight, false);
  EXPECT_EQ(probe.next_line("button "), "button " + std::to_string(BTN_RIGHT) + " 300,200");
  // Off the output: held at its edge.
  in.move(5000, -20);
  EXPECT_EQ(in.pointer_position(), (Point{319, 0}));
  in.scroll_notches(0, 2);
  EXPECT_EQ(probe.next_line("scroll "), "scroll 0 30");
  in.scroll_notches(-1, 0);
  EXPECT_EQ(probe.next_line("scroll "), "scroll 1 -15");
  EXPECT_FALSE(in.failed());
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
