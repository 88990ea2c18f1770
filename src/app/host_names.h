// The names this machine goes by, for the Host allow-list: the host name
// and its canonical (fully qualified) name when the resolver knows one.
// Any platform (Asio); called once at start on the main thread (the lookup
// may take a moment when DNS is slow).
#pragma once

#include <string>
#include <vector>

namespace voxl::app {

// Lower case, without duplicates; empty when the machine has no name.
std::vector<std::string> machine_host_names();

}  // namespace voxl::app
