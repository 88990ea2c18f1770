// Reading a secret (a password) from the console: on a terminal, asked for
// with a prompt on standard error and typed without echo; otherwise one
// line of standard input, as a script pipes it.
//
// Threads: the main thread, before anything else reads standard input.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace voxl::platform {

// Whether standard input is an interactive terminal (a console).
bool stdin_is_terminal();
// One line, without its line ending, at most `max_bytes` (longer: nullopt
// with the rest of the line read and dropped); nullopt at end of input.
// On a terminal, `prompt` is written first and the typing is not shown.
std::optional<std::string> read_secret_line(std::string_view prompt, size_t max_bytes);

}  // namespace voxl::platform
