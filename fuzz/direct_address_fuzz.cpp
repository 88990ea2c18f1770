// The check of the D-Bus address an application gives for a direct
// connection (is_local_socket_address). An accepted address names one unix
// socket file and nothing sd-bus would run or reach over a network: it
// starts "unix:", has no ';' (a second address) and no '%', and every key
// is path or guid, with exactly one absolute path, the one returned. A
// refused address stays refused with a network or program prefix.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "platform/atspi/direct_buses.h"

namespace VOXL_TEST_FILE {

using voxl::platform::atspi::is_local_socket_address;
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
  if (!is_local_socket_address(address)) {
    FUZZ_CHECK(!is_local_socket_address("tcp:" + address));
    FUZZ_CHECK(!is_local_socket_address("unixexec:" + address));
    return 0;
  }
  FUZZ_CHECK(address.starts_with("unix:"));
  FUZZ_CHECK(address.find_first_of(";%") == std::string::npos);
  const auto path = local_socket_path(address);
  FUZZ_CHECK(path && path->starts_with('/') && address.find("path=" + *path) != std::string::npos);
  FUZZ_CHECK(keys_are_local(std::string_view(address).substr(5)));
  FUZZ_CHECK(!is_local_socket_address(address + ";unixexec:path=/bin/sh"));
  FUZZ_CHECK(!is_local_socket_address(address + ",path=/tmp/x"));
  return 0;
}
