// UTF-8 <-> UTF-16 for Win32 calls. Invalid input never throws: invalid
// UTF-8 becomes U+FFFD, unpaired surrogates likewise.
//
// Threads: any; pure functions.
#pragma once

#include <string>
#include <string_view>

namespace voxl::platform::windows {

std::wstring to_wide(std::string_view utf8);
std::string to_utf8(std::wstring_view utf16);

}  // namespace voxl::platform::windows
