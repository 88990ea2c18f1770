// The X11 keysym values voxl names. Keysyms are voxl's neutral key codes on
// every platform (a non-X11 injector maps from them). Pure constants.
#pragma once

#include <cstdint>

namespace voxl::input::keysym {

inline constexpr uint32_t kBackSpace = 0xff08;
inline constexpr uint32_t kTab = 0xff09;
inline constexpr uint32_t kReturn = 0xff0d;
inline constexpr uint32_t kPause = 0xff13;
inline constexpr uint32_t kScrollLock = 0xff14;
inline constexpr uint32_t kEscape = 0xff1b;
inline constexpr uint32_t kHome = 0xff50;
inline constexpr uint32_t kLeft = 0xff51;
inline constexpr uint32_t kUp = 0xff52;
inline constexpr uint32_t kRight = 0xff53;
inline constexpr uint32_t kDown = 0xff54;
inline constexpr uint32_t kPageUp = 0xff55;
inline constexpr uint32_t kPageDown = 0xff56;
inline constexpr uint32_t kEnd = 0xff57;
inline constexpr uint32_t kPrint = 0xff61;
inline constexpr uint32_t kInsert = 0xff63;
inline constexpr uint32_t kMenu = 0xff67;
inline constexpr uint32_t kNumLock = 0xff7f;
inline constexpr uint32_t kKpEnter = 0xff8d;
inline constexpr uint32_t kKpMultiply = 0xffaa;
inline constexpr uint32_t kKpAdd = 0xffab;
inline constexpr uint32_t kKpSubtract = 0xffad;
inline constexpr uint32_t kKpDecimal = 0xffae;
inline constexpr uint32_t kKpDivide = 0xffaf;
inline constexpr uint32_t kKp0 = 0xffb0;
inline constexpr uint32_t kF1 = 0xffbe;  // F1..F35 are consecutive
inline constexpr uint32_t kShiftL = 0xffe1;
inline constexpr uint32_t kShiftR = 0xffe2;
inline constexpr uint32_t kControlL = 0xffe3;
inline constexpr uint32_t kControlR = 0xffe4;
inline constexpr uint32_t kCapsLock = 0xffe5;
inline constexpr uint32_t kMetaL = 0xffe7;
inline constexpr uint32_t kAltL = 0xffe9;
inline constexpr uint32_t kAltR = 0xffea;
inline constexpr uint32_t kSuperL = 0xffeb;
inline constexpr uint32_t kSuperR = 0xffec;
inline constexpr uint32_t kIsoLevel3Shift = 0xfe03;  // AltGr
inline constexpr uint32_t kDelete = 0xffff;
inline constexpr uint32_t kAudioLowerVolume = 0x1008ff11;
inline constexpr uint32_t kAudioMute = 0x1008ff12;
inline constexpr uint32_t kAudioRaiseVolume = 0x1008ff13;

// Unicode characters outside Latin-1 have keysym 0x01000000 + code point.
inline constexpr uint32_t kUnicodeOffset = 0x01000000;

}  // namespace voxl::input::keysym
