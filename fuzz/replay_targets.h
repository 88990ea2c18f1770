// The fuzz targets of the replay program (replay_main.cpp), by name: the
// table is written by fuzz/CMakeLists.txt from its voxl_add_fuzzer lines.
// Read-only after start; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace voxl::fuzz {

struct ReplayTarget {
  std::string_view name;
  int (*one_input)(const uint8_t* data, size_t size);
  int (*initialize)(int* argc, char*** argv);  // null when the target has none
};

std::span<const ReplayTarget> replay_targets();

}  // namespace voxl::fuzz
