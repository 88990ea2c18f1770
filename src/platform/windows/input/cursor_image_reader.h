// The pixels of a Windows cursor as straight RGBA (input::CursorImage,
// serial left 0). Colour cursors with an alpha channel keep it (taken as
// straight alpha, as cursor files hold it); colour cursors without one and
// monochrome cursors are made from their AND mask (set: transparent) and
// colour or XOR bits. Pixels that would invert the screen behind them (AND
// and XOR both set) cannot be drawn by a viewer: they become opaque black,
// with a white edge where they meet transparent pixels, so that an I-beam
// stays visible on dark and light backgrounds alike.
//
// Threads: any thread with access to the desktop (GDI); pure otherwise.
#pragma once

#include <windows.h>

#include <optional>

#include "input/cursor_source.h"

namespace voxl::platform::windows {

// Cursors larger than this on a side are not read.
inline constexpr int kMaxCursorSide = 256;

// nullopt when the cursor's bitmaps cannot be read.
std::optional<input::CursorImage> read_cursor_image(HCURSOR cursor);

// What a hidden pointer looks like: one transparent pixel.
input::CursorImage hidden_cursor_image();

}  // namespace voxl::platform::windows
