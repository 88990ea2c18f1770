#include "platform/console_close.h"

namespace voxl::platform {

// A closed terminal is SIGHUP, already in the daemon's signal set.
ConsoleClose::ConsoleClose() = default;
ConsoleClose::~ConsoleClose() = default;
int ConsoleClose::signal_for(unsigned long) { return 0; }

}  // namespace voxl::platform
