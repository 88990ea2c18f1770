// A text property of an X display's root window (AT_SPI_BUS: where the
// display's accessibility bus is), read on a connection of its own.
// Any thread; blocking (opens the display, one round trip).
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace voxl::platform::x11 {

// Nullopt with `why` when the display cannot be opened or the property is
// not set; at most 4 KiB are read.
std::optional<std::string> root_string_property(const std::string& display, const char* name, std::string& why);

// The same, waiting for the property to be set (PropertyNotify on the
// root: no polling) until the deadline.
std::optional<std::string> wait_root_string_property(const std::string& display, const char* name,
                                                     std::chrono::steady_clock::time_point deadline,
                                                     std::string& why);

}  // namespace voxl::platform::x11
