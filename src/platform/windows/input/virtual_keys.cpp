#include "platform/windows/input/virtual_keys.h"

#include <windows.h>

#include <array>

#include "input/keysyms.h"

namespace voxl::platform::windows {

namespace {

namespace ks = input::keysym;

struct Entry {
  uint32_t keysym;
  uint16_t vk;
  bool extended;
};

constexpr auto kNamed = std::to_array<Entry>({
    {ks::kBackSpace, VK_BACK, false},
    {ks::kTab, VK_TAB, false},
    {ks::kReturn, VK_RETURN, false},
    {ks::kPause, VK_PAUSE, false},
    {ks::kScrollLock, VK_SCROLL, false},
    {ks::kEscape, VK_ESCAPE, false},
    {ks::kHome, VK_HOME, true},
    {ks::kLeft, VK_LEFT, true},
    {ks::kUp, VK_UP, true},
    {ks::kRight, VK_RIGHT, true},
    {ks::kDown, VK_DOWN, true},
    {ks::kPageUp, VK_PRIOR, true},
    {ks::kPageDown, VK_NEXT, true},
    {ks::kEnd, VK_END, true},
    {ks::kPrint, VK_SNAPSHOT, true},
    {ks::kInsert, VK_INSERT, true},
    {ks::kDelete, VK_DELETE, true},
    {ks::kMenu, VK_APPS, true},
    {ks::kNumLock, VK_NUMLOCK, true},
    {ks::kKpEnter, VK_RETURN, true},
    {ks::kKpMultiply, VK_MULTIPLY, false},
    {ks::kKpAdd, VK_ADD, false},
    {0xffac, VK_SEPARATOR, false},  // KP_Separator
    {ks::kKpSubtract, VK_SUBTRACT, false},
    {ks::kKpDecimal, VK_DECIMAL, false},
    {ks::kKpDivide, VK_DIVIDE, true},
    // The keypad's navigation keysyms (Num Lock off): the same keys.
    {0xff95, VK_HOME, false},    // KP_Home
    {0xff96, VK_LEFT, false},    // KP_Left
    {0xff97, VK_UP, false},      // KP_Up
    {0xff98, VK_RIGHT, false},   // KP_Right
    {0xff99, VK_DOWN, false},    // KP_Down
    {0xff9a, VK_PRIOR, false},   // KP_Page_Up
    {0xff9b, VK_NEXT, false},    // KP_Page_Down
    {0xff9c, VK_END, false},     // KP_End
    {0xff9d, VK_CLEAR, false},   // KP_Begin
    {0xff9e, VK_INSERT, false},  // KP_Insert
    {0xff9f, VK_DELETE, false},  // KP_Delete
    {ks::kShiftL, VK_LSHIFT, false},
    {ks::kShiftR, VK_RSHIFT, false},
    {ks::kControlL, VK_LCONTROL, false},
    {ks::kControlR, VK_RCONTROL, true},
    {ks::kCapsLock, VK_CAPITAL, false},
    {ks::kMetaL, VK_LWIN, true},
    {0xffe8, VK_RWIN, true},  // Meta_R
    {ks::kAltL, VK_LMENU, false},
    {ks::kAltR, VK_RMENU, true},
    // AltGr is the right Alt key on Windows layouts that have one.
    {ks::kIsoLevel3Shift, VK_RMENU, true},
    {ks::kSuperL, VK_LWIN, true},
    {ks::kSuperR, VK_RWIN, true},
    {ks::kAudioLowerVolume, VK_VOLUME_DOWN, true},
    {ks::kAudioMute, VK_VOLUME_MUTE, true},
    {ks::kAudioRaiseVolume, VK_VOLUME_UP, true},
    {0x1008ff14, VK_MEDIA_PLAY_PAUSE, true},  // XF86AudioPlay
    {0x1008ff15, VK_MEDIA_STOP, true},        // XF86AudioStop
    {0x1008ff16, VK_MEDIA_PREV_TRACK, true},  // XF86AudioPrev
    {0x1008ff17, VK_MEDIA_NEXT_TRACK, true},  // XF86AudioNext
});

}  // namespace

std::optional<VirtualKey> named_virtual_key(uint32_t keysym) {
  if (keysym >= ks::kKp0 && keysym <= ks::kKp0 + 9) return VirtualKey{uint16_t(VK_NUMPAD0 + (keysym - ks::kKp0)), false};
  if (keysym >= ks::kF1 && keysym < ks::kF1 + 24) return VirtualKey{uint16_t(VK_F1 + (keysym - ks::kF1)), false};
  for (const auto& e : kNamed)
    if (e.keysym == keysym) return VirtualKey{e.vk, e.extended};
  return std::nullopt;
}

std::optional<char32_t> keysym_code_point(uint32_t keysym) {
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff)) return char32_t(keysym);
  if (keysym >= ks::kUnicodeOffset + 0x100 && keysym <= ks::kUnicodeOffset + 0x10ffff) {
    const char32_t cp = keysym - ks::kUnicodeOffset;
    if (cp >= 0xd800 && cp <= 0xdfff) return std::nullopt;
    return cp;
  }
  return std::nullopt;
}

}  // namespace voxl::platform::windows
