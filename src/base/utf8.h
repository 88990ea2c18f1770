// UTF-8 to code points, strictly: a truncated sequence, an overlong form, a
// surrogate or a value past U+10FFFF makes the whole text malformed. Used
// wherever text from a viewer, an agent or a file name must be UTF-8.
// Pure; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace voxl {

// The code points of `utf8`, or nullopt when it is malformed.
std::optional<std::u32string> decode_utf8(std::string_view utf8);

}  // namespace voxl
