// /proc/sysvipc/shm as text (what the kernel prints, but parsed without
// trusting it). Every segment parsed is written back as a table in the
// kernel's layout, which must parse to the same segments.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "platform/x11/sysv_shm_table.h"
#include "fuzz_check.h"

using namespace voxl::platform::x11;

VOXL_FUZZ_TARGET(sysv_shm_table) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto segments = parse_sysv_shm_table(text);
  size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  FUZZ_CHECK(segments.size() <= lines);  // the header line is not a segment

  std::string table = "       key      shmid perms                  size  cpid  lpid nattch\n";
  for (const auto& s : segments)
    table += " " + std::to_string(s.key) + " " + std::to_string(s.shmid) + " 600 " + std::to_string(s.size) + " " +
             std::to_string(s.creator_pid) + " 0 " + std::to_string(s.attachments) + "\n";
  const auto again = parse_sysv_shm_table(table);
  FUZZ_CHECK(again.size() == segments.size());
  for (size_t i = 0; i < again.size(); ++i)
    FUZZ_CHECK(again[i].key == segments[i].key && again[i].shmid == segments[i].shmid &&
               again[i].size == segments[i].size && again[i].creator_pid == segments[i].creator_pid &&
               again[i].attachments == segments[i].attachments);
  return 0;
}
