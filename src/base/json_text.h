// JSON text from values that may carry hostile strings (a query parameter,
// a window title, a clipboard, a viewer's message). nlohmann's plain dump()
// throws on invalid UTF-8; every message voxl writes goes through here
// instead, which writes U+FFFD for each bad byte sequence. Header-only;
// any thread.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace voxl {

// Compact (no indentation), non-ASCII kept as UTF-8.
inline std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace voxl
