// voxl-demo's colours (0xRRGGBB), shared with the test that reads them back
// from screenshots.
//
// Constants; any thread.
#pragma once

#include <cstdint>

namespace voxl::demo::style {

inline constexpr uint32_t kBackground = 0x202428;
inline constexpr uint32_t kHeader = 0x2c323a;
inline constexpr uint32_t kTitle = 0xf0f0f0;
inline constexpr uint32_t kCounter = 0x9fd8ff;
inline constexpr uint32_t kTrack = 0x16191d;
inline constexpr uint32_t kBlock = 0x40c0ff;

inline constexpr uint32_t kLabel = 0xa8b4c0;
inline constexpr uint32_t kBox = 0x121417;
inline constexpr uint32_t kBoxFrame = 0x4a5562;
inline constexpr uint32_t kText = 0xe8e8e8;
inline constexpr uint32_t kNote = 0x7c8894;  // "(empty)" and the like, in a box
inline constexpr uint32_t kCursor = 0x40c0ff;

inline constexpr uint32_t kButton = 0x35506e;
inline constexpr uint32_t kButtonPressed = 0x2a88c8;
inline constexpr uint32_t kButtonOff = 0x4a4040;  // an action that cannot work now
inline constexpr uint32_t kButtonText = 0xffffff;
inline constexpr uint32_t kButtonOffText = 0xb0a0a0;

inline constexpr uint32_t kSoundReady = 0x8fd694;
inline constexpr uint32_t kSoundPlaying = 0x40c0ff;
inline constexpr uint32_t kSoundOff = 0xf0a070;

inline constexpr uint32_t kCanvas = 0xf4f1e8;

}  // namespace voxl::demo::style
