#include "platform/socket_congestion.h"

namespace voxl::platform {

// Windows picks TCP's congestion control for the whole system (CUBIC by
// default since Windows 10 1709; `netsh int tcp set supplemental` changes
// it, as an administrator), not per connection.
std::string set_congestion_control(std::intptr_t, const std::string&) {
  return "Windows chooses TCP's congestion control for the whole system, not per connection "
         "(an administrator's `netsh int tcp set supplemental template=internet congestionprovider=...`)";
}

std::string congestion_control(std::intptr_t) { return {}; }

}  // namespace voxl::platform
