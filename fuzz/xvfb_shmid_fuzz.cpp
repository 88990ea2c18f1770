// The "screen 0 shmid N" line in what Xvfb -shmem prints (parse_xvfb_shmid).
// A found id must be written in the text as such; the same text with a
// known line appended gives the first line's id, or the appended one when
// the text has no such line.
#include <cstdint>
#include <string>

#include "fuzz_target.h"
#include "platform/x11/virtual_display.h"
#include "fuzz_check.h"

using voxl::platform::x11::parse_xvfb_shmid;

VOXL_FUZZ_TARGET(xvfb_shmid) {
  const std::string out(reinterpret_cast<const char*>(data), size);
  const auto id = parse_xvfb_shmid(out);
  if (id) {
    FUZZ_CHECK(*id >= 0);
    FUZZ_CHECK(out.find("screen 0 shmid ") != std::string::npos);
  }
  const auto with_line = parse_xvfb_shmid(out + "\nscreen 0 shmid 4242\n");
  if (id) FUZZ_CHECK(with_line == id);
  if (out.find("screen 0 shmid ") == std::string::npos) FUZZ_CHECK(with_line == 4242);
  return 0;
}
