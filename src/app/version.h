// voxl's version, as --version prints it and /mcp's initialize reports it.
#pragma once

namespace voxl::app {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace voxl::app
