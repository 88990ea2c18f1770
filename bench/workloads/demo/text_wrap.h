// Text broken into rows that fit a box of fixed-width characters: a row
// ends at each newline and where it is full, after its last space when it
// has one (the space is dropped), else in the middle of the word.
//
// Pure functions; any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace voxl::demo {

// Rows of at most `columns` (at least 1) characters, none containing a
// newline. Empty text is one empty row; a trailing newline starts an
// empty last row.
std::vector<std::u32string> wrap_rows(std::u32string_view text, size_t columns);

}  // namespace voxl::demo
