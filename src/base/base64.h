// Standard base64 (RFC 4648, with padding) for binary payloads in JSON
// messages. Pure functions; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace voxl {

std::string base64_encode(std::string_view bytes);
// nullopt on characters outside the alphabet or a bad length or padding.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace voxl
