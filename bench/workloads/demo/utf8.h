// UTF-8 to code points and back, and Latin-1 (the STRING target of X
// selections) to code points, for voxl-demo's typed text and clipboard.
// Decoding never reads or returns more than asked: an invalid or cut
// sequence becomes U+FFFD and decoding goes on at the next byte.
//
// Pure functions; any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace voxl::demo {

// At most `max_chars` code points from the start of `bytes`; `complete`
// (when given) says whether all of `bytes` fitted.
std::u32string utf8_decode(std::string_view bytes, size_t max_chars, bool* complete = nullptr);
std::u32string latin1_decode(std::string_view bytes, size_t max_chars, bool* complete = nullptr);

// Surrogates and values above U+10FFFF are written as U+FFFD.
std::string utf8_encode(std::u32string_view text);
// Code points above U+00FF are written as '?'.
std::string latin1_encode(std::u32string_view text);

}  // namespace voxl::demo
