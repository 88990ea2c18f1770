// How the recordings (endpoints/record_service.h) speak of disk space:
// whole megabytes, and the sentence for a disk that ran low.
//
// Threads: pure functions of their arguments; any thread.
#pragma once

#include <cstdint>
#include <string>

namespace voxl::endpoints {

inline uint64_t mib(uint64_t bytes) { return bytes >> 20; }

inline std::string low_disk(uint64_t free, uint64_t floor) {
  return "the temporary folder's disk has " + std::to_string(mib(free)) + " MB free; recordings need " +
         std::to_string(mib(floor)) + " MB";
}

}  // namespace voxl::endpoints
