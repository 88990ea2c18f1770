// The check of the D-Bus address an application gives for a direct
// connection (local_socket_path). An accepted address names one unix
// socket file and nothing sd-bus would run or reach over a network: it
// starts "unix:", has no ';' (a second address) and no '%', and every key
// is path or guid, with exactly one absolute path, the one returned; a
// second address or a second path added to it is refused.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "platform/atspi/direct_buses.h"

namespace VOXL_TEST_FILE {

using voxl::platform::atspi::local_socket_path;

bool keys_are_local(std::string_view rest) {
  int places = 0;
  size_t start = 0;
  while (start <= rest.size()) {
    const size_t end = std::min(rest.find(',', start), rest.size());
    const std::string_view pair = rest.substr(start, end - start);
    const std::string_view key = pair.substr(0, pair.find('='));
    if (key == "path")
      ++places;
    else if (key != "guid")
      return false;
    start = end + 1;
  }
  return places == 1;
}

}  // namespace VOXL_TEST_FILE

VOXL_FUZZ_TARGET(direct_address) {
  using namespace VOXL_TEST_FILE;
  const std::string address(reinterpret_cast<const char*>(data), size);
  const auto path = local_socket_path(address);
  if (!path) return 0;
  FUZZ_CHECK(address.starts_with("unix:"));
  FUZZ_CHECK(address.find_first_of(";%") == std::string::npos);
  FUZZ_CHECK(path->starts_with('/') && address.find("path=" + *path) != std::string::npos);
  FUZZ_CHECK(keys_are_local(std::string_view(address).substr(5)));
  FUZZ_CHECK(!local_socket_path(address + ";unixexec:path=/bin/sh"));
  FUZZ_CHECK(!local_socket_path(address + ",path=/tmp/x"));
  return 0;
}
