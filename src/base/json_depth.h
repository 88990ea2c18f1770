// The nesting depth of JSON text, found without parsing it: nlohmann's
// parser recurses once per level, so hostile input ("[[[[...") is measured
// with this linear scan first and refused past a limit. It counts brackets
// outside strings (minding backslash escapes) and does not otherwise
// validate; the parser still does that.
//
// Pure function; any thread.
#pragma once

#include <cstddef>
#include <string_view>

namespace voxl {

// Whether no point of `text` is nested deeper than `max_depth` arrays and
// objects ("{}" is depth 1). Stops at the first level past the limit.
inline bool json_depth_within(std::string_view text, size_t max_depth) {
  size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

}  // namespace voxl
