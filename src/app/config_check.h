// --check-config: what parsing cannot see, checked without starting
// anything (no display, no socket): the TLS certificate and key load and
// belong together, the files root is a folder, the users file can be used,
// and the access the settings amount to. The result names each problem and, when there is none, says
// in a few lines what voxl would run with. Main thread, before the daemon.
#pragma once

#include <string>
#include <vector>

#include "app/config.h"

namespace voxl::app {

struct ConfigReport {
  std::vector<std::string> problems;  // empty: valid
  std::vector<std::string> summary;   // what voxl would run with
};

ConfigReport check_config(const Config& config);

}  // namespace voxl::app
