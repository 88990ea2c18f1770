// SendInputInjector against a window of the test's own: the keys and
// characters it receives, clicks at the expected client coordinates after
// an absolute move, wheel notches both ways.
#include <gtest/gtest.h>

#include <algorithm>

#include "base/logging.h"
#include "input/keysyms.h"
#include "platform/windows/input/send_input_injector.h"
#include "input_window.h"

namespace voxl::platform::windows {
namespace {

using input::InputStatus;
using test::Recorded;
using test::InputWindow;
namespace ks = input::keysym;

class SendInputTest : public ::testing::Test {
 protected:
  Logger log_ = make_stderr_logger("test");
  InputWindow window_{120, 90, 320, 240};
  SendInputInjector injector_{log_};

  // Waits until `n` WM_CHARs have arrived.
  std::wstring wait_chars(size_t n) {
    test::pump_until([&] { return window_.chars().size() >= n; });
    return window_.chars();
  }
  bool key_down_seen(WPARAM vk) {
    return window_.wait_for(WM_KEYDOWN, [vk](const Recorded& r) { return r.wparam == vk; }) != nullptr;
  }
};

TEST_F(SendInputTest, PlainLetterIsItsVirtualKeyAndCharacter) {
  ASSERT_EQ(injector_.key('a', true), InputStatus::kOk);
  ASSERT_EQ(injector_.key('a', false), InputStatus::kOk);
  EXPECT_TRUE(key_down_seen('A'));
  EXPECT_EQ(wait_chars(1), L"a");
  EXPECT_NE(window_.wait_for(WM_KEYUP, [](const Recorded& r) { return r.wparam == 'A'; }), nullptr);
}

TEST_F(SendInputTest, ShiftedCharactersGetShiftAroundThem) {
  ASSERT_EQ(injector_.type_text("A!"), InputStatus::kOk);
  EXPECT_EQ(wait_chars(2), L"A!");
  EXPECT_TRUE(key_down_seen(VK_SHIFT));
  EXPECT_TRUE(key_down_seen('1'));
}

TEST_F(SendInputTest, HeldShiftSelectsTheShiftedCharacter) {
  ASSERT_EQ(injector_.key(ks::kShiftL, true), InputStatus::kOk);
  ASSERT_EQ(injector_.key('A', true), InputStatus::kOk);
  ASSERT_EQ(injector_.key('A', false), InputStatus::kOk);
  ASSERT_EQ(injector_.key(ks::kShiftL, false), InputStatus::kOk);
  EXPECT_EQ(wait_chars(1), L"A");
  EXPECT_TRUE(key_down_seen('A'));
}

TEST_F(SendInputTest, CharactersTheLayoutLacksArriveAsUnicode) {
  // U+20AC and U+03A9 are on no key of a US layout.
  ASSERT_EQ(injector_.type_text("\xe2\x82\xac"), InputStatus::kOk);
  ASSERT_EQ(injector_.key(ks::kUnicodeOffset + 0x3a9, true), InputStatus::kOk);
  ASSERT_EQ(injector_.key(ks::kUnicodeOffset + 0x3a9, false), InputStatus::kOk);
  EXPECT_EQ(wait_chars(2), L"\u20ac\u03a9");
  EXPECT_TRUE(key_down_seen(VK_PACKET));
}

TEST_F(SendInputTest, CharactersPastTheBmpArriveAsASurrogatePair) {
  ASSERT_EQ(injector_.type_text("\xf0\x9f\x98\x80"), InputStatus::kOk);  // U+1F600
  EXPECT_EQ(wait_chars(2), std::wstring({wchar_t(0xd83d), wchar_t(0xde00)}));
}

TEST_F(SendInputTest, TypedTextMapsNewlineAndTabToTheirKeys) {
  ASSERT_EQ(injector_.type_text("x\n\ty"), InputStatus::kOk);
  EXPECT_TRUE(key_down_seen(VK_RETURN));
  EXPECT_TRUE(key_down_seen(VK_TAB));
  EXPECT_EQ(wait_chars(4), L"x\r\ty");
}

TEST_F(SendInputTest, NamedKeysCarryTheirScanCodeAndExtendedFlag) {
  for (uint32_t k : {ks::kLeft, ks::kF1 + 4, ks::kEscape, ks::kDelete}) {
    ASSERT_EQ(injector_.key(k, true), InputStatus::kOk);
    ASSERT_EQ(injector_.key(k, false), InputStatus::kOk);
  }
  const Recorded* left = window_.wait_for(WM_KEYDOWN, [](const Recorded& r) { return r.wparam == VK_LEFT; });
  ASSERT_NE(left, nullptr);
  EXPECT_TRUE(left->lparam & (1 << 24)) << "the arrows are extended keys";
  EXPECT_EQ((left->lparam >> 16) & 0xff, LPARAM(MapVirtualKeyW(VK_LEFT, MAPVK_VK_TO_VSC)));
  EXPECT_TRUE(key_down_seen(VK_F5));
  EXPECT_TRUE(key_down_seen(VK_ESCAPE));
  const Recorded* del = window_.wait_for(WM_KEYDOWN, [](const Recorded& r) { return r.wparam == VK_DELETE; });
  ASSERT_NE(del, nullptr);
  EXPECT_TRUE(del->lparam & (1 << 24));
}

TEST_F(SendInputTest, KeysStillHeldAreReleasedAtTheEnd) {
  {
    SendInputInjector other(log_);
    ASSERT_EQ(other.key(ks::kControlL, true), InputStatus::kOk);
    ASSERT_TRUE(key_down_seen(VK_CONTROL));
  }
  EXPECT_NE(window_.wait_for(WM_KEYUP, [](const Recorded& r) { return r.wparam == VK_CONTROL; }), nullptr);
}

TEST_F(SendInputTest, ShortcutLettersUnderCtrlAreTheirKeys) {
  ASSERT_EQ(injector_.key(ks::kControlL, true), InputStatus::kOk);
  ASSERT_EQ(injector_.key('c', true), InputStatus::kOk);
  ASSERT_EQ(injector_.key('c', false), InputStatus::kOk);
  ASSERT_EQ(injector_.key(ks::kControlL, false), InputStatus::kOk);
  EXPECT_TRUE(key_down_seen('C'));
  EXPECT_EQ(window_.find(WM_KEYDOWN, [](const Recorded& r) { return r.wparam == VK_PACKET; }), nullptr);
  EXPECT_EQ(wait_chars(1), L"\x03") << "Ctrl+C is the ETX control character";
}

TEST_F(SendInputTest, UnknownKeysymsAreRefused) {
  EXPECT_EQ(injector_.key(0xfe50, true), InputStatus::kUnknownKey);  // dead_grave
}

TEST_F(SendInputTest, AbsoluteMoveThenClickLandsOnThePixel) {
  POINT origin{0, 0};
  ClientToScreen(window_.hwnd(), &origin);
  const int vx = GetSystemMetrics(SM_XVIRTUALSCREEN);
  const int vy = GetSystemMetrics(SM_YVIRTUALSCREEN);
  for (POINT target : {POINT{37, 54}, POINT{0, 0}, POINT{319, 239}}) {
    window_.clear();
    injector_.move(origin.x + target.x - vx, origin.y + target.y - vy);
    injector_.button(input::kButtonLeft, true);
    injector_.button(input::kButtonLeft, false);
    const Recorded* down = window_.wait_for(WM_LBUTTONDOWN);
    ASSERT_NE(down, nullptr) << "no click reached the window";
    EXPECT_EQ(GET_X_LPARAM(down->lparam), target.x);
    EXPECT_EQ(GET_Y_LPARAM(down->lparam), target.y);
    EXPECT_NE(window_.wait_for(WM_LBUTTONUP), nullptr);
  }
}

TEST_F(SendInputTest, OtherButtonsAndTheWheel) {
  POINT origin{0, 0};
  ClientToScreen(window_.hwnd(), &origin);
  injector_.move(origin.x + 10 - GetSystemMetrics(SM_XVIRTUALSCREEN),
                 origin.y + 10 - GetSystemMetrics(SM_YVIRTUALSCREEN));
  injector_.button(input::kButtonRight, true);
  injector_.button(input::kButtonRight, false);
  injector_.button(input::kButtonMiddle, true);
  injector_.button(input::kButtonMiddle, false);
  injector_.button(input::kButtonBack, true);
  injector_.button(input::kButtonBack, false);
  EXPECT_NE(window_.wait_for(WM_RBUTTONDOWN), nullptr);
  EXPECT_NE(window_.wait_for(WM_MBUTTONUP), nullptr);
  const Recorded* x = window_.wait_for(WM_XBUTTONDOWN);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(GET_XBUTTON_WPARAM(x->wparam), XBUTTON1);

  injector_.scroll_notches(0, 2);  // down: negative wheel data
  injector_.scroll_notches(-1, 0);  // left
  int vertical = 0;
  test::pump_until([&] {
    vertical = 0;
    for (const auto& m : window_.messages())
      if (m.message == WM_MOUSEWHEEL) vertical += GET_WHEEL_DELTA_WPARAM(m.wparam);
    return vertical <= -2 * WHEEL_DELTA && window_.find(WM_MOUSEHWHEEL);
  });
  EXPECT_EQ(vertical, -2 * WHEEL_DELTA);
  const Recorded* h = window_.find(WM_MOUSEHWHEEL);
  ASSERT_NE(h, nullptr) << "no horizontal wheel";
  EXPECT_EQ(GET_WHEEL_DELTA_WPARAM(h->wparam), -WHEEL_DELTA);
}

// With an area (the streamed monitor), desktop pixels count from its corner
// and stay inside it: here an area that is the window's client rectangle.
TEST_F(SendInputTest, AnAreaMovesTheOriginAndClampsToIt) {
  POINT origin{0, 0};
  ClientToScreen(window_.hwnd(), &origin);
  const Rect area{int(origin.x), int(origin.y), 320, 240};
  SendInputInjector in_area(log_, area);
  EXPECT_EQ(in_area.desktop_size(), (Size{320, 240}));
  for (POINT target : {POINT{37, 54}, POINT{5000, 5000}}) {
    window_.clear();
    in_area.move(int(target.x), int(target.y));
    in_area.button(input::kButtonLeft, true);
    in_area.button(input::kButtonLeft, false);
    const Recorded* down = window_.wait_for(WM_LBUTTONDOWN);
    ASSERT_NE(down, nullptr) << "no click reached the window";
    EXPECT_EQ(GET_X_LPARAM(down->lparam), std::min<int>(target.x, 319));
    EXPECT_EQ(GET_Y_LPARAM(down->lparam), std::min<int>(target.y, 239));
  }
}

TEST_F(SendInputTest, DesktopSizeIsTheVirtualScreen) {
  const Size s = injector_.desktop_size();
  EXPECT_EQ(s.width, GetSystemMetrics(SM_CXVIRTUALSCREEN));
  EXPECT_EQ(s.height, GetSystemMetrics(SM_CYVIRTUALSCREEN));
  EXPECT_GT(s.width, 0);
}

TEST_F(SendInputTest, CapsLockFollowsItsKey) {
  const bool before = injector_.caps_lock();
  ASSERT_EQ(injector_.key(ks::kCapsLock, true), InputStatus::kOk);
  ASSERT_EQ(injector_.key(ks::kCapsLock, false), InputStatus::kOk);
  ASSERT_NE(window_.wait_for(WM_KEYUP, [](const Recorded& r) { return r.wparam == VK_CAPITAL; }), nullptr);
  EXPECT_NE(injector_.caps_lock(), before);
  // Caps Lock on: typed letters keep their case.
  ASSERT_EQ(injector_.type_text("aB"), InputStatus::kOk);
  EXPECT_EQ(wait_chars(2), L"aB");
  ASSERT_EQ(injector_.key(ks::kCapsLock, true), InputStatus::kOk);
  ASSERT_EQ(injector_.key(ks::kCapsLock, false), InputStatus::kOk);
  test::pump_until([&] { return injector_.caps_lock() == before; });
  EXPECT_EQ(injector_.caps_lock(), before);
}

}  // namespace
}  // namespace voxl::platform::windows
