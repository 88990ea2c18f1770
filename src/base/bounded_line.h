// One line of a stream, bounded: for reading what a person or a script
// types (a password) without letting a line without end fill the memory.
// Threads: the caller's; the stream is the caller's.
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>

namespace voxl {

// The next line of `in` without its "\n" or "\r\n"; nullopt at the end of
// the input, or when the line is longer than `max_bytes` (the rest of it is
// read and dropped).
std::optional<std::string> read_bounded_line(std::FILE* in, size_t max_bytes);

}  // namespace voxl
