// Whether voxl costs nothing while its desktop is still: the promise that an
// idle desktop uses no CPU, checked for each kind of desktop. A loop that
// spins while a change waits to be reported shows as a whole core here; a
// still voxl uses a few milliseconds.
//
// Threads: the test's.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>

namespace voxl::testing {

// Waits (up to 60 s) for voxl's screen (`port`) to settle through
// /wait?idle, calls `change` (which makes one change on the desktop), then
// reads the CPU time voxl (`pid`) uses over the next 2 s, with no viewer
// and nobody asking for the change, and checks that /wait saw the change
// after. Empty when voxl used under a tenth of that time; else what was
// seen.
std::string costs_nothing_while_still(uint16_t port, pid_t pid, const std::function<void()>& change);

}  // namespace voxl::testing
