// Waiting for voxl's /screenshot to show a known picture: for tests whose
// desktop is one colour (a program that fills its window, a portal that
// fills its screen).
//
// Threads: the test's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/geometry.h"

namespace voxl::testing {

// Takes screenshots for up to 30 s until every pixel is `colour` (0xRRGGBB)
// but those inside `except` (where a compositor draws its pointer), and the
// picture is `size` when given. Empty once it is; else what the last one
// showed (a status, a size, the first pixel that differs).
std::string screen_becomes(uint16_t port, uint32_t colour, const Rect& except = {},
                           std::optional<Size> size = std::nullopt);

}  // namespace voxl::testing
