// Reads the kernel's list of SysV shared-memory segments
// (/proc/sysvipc/shm), to find the framebuffer an Xvfb process created and
// to check for leaks. Pure parsing plus one file read; any thread.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace voxl::platform::x11 {

struct SysvSegmentInfo {
  long key = 0;
  int shmid = -1;
  size_t size = 0;
  pid_t creator_pid = 0;
  long attachments = 0;
};

// Parses the table's text; columns are found by their header names, and
// malformed lines are skipped.
std::vector<SysvSegmentInfo> parse_sysv_shm_table(std::string_view text);

// The live table (empty if it cannot be read).
std::vector<SysvSegmentInfo> read_sysv_shm_table();

}  // namespace voxl::platform::x11
