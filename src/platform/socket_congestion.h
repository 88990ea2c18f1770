// TCP's congestion control for one socket, chosen by name ("bbr", "cubic"):
// TCP_CONGESTION on Linux, where a listening socket passes its choice to
// every connection it accepts. Windows chooses for the whole system
// (an administrator's `netsh`), so there it is never taken. Any thread; a
// system call or two.
#pragma once

#include <cstdint>
#include <string>

namespace voxl::platform {

// `socket`: the native socket (a descriptor, or a SOCKET on Windows).
// Empty when the socket took it; otherwise why not, in words a person can
// act on (not offered by the kernel, not allowed for this user, or not
// chosen per socket on this system).
std::string set_congestion_control(std::intptr_t socket, const std::string& name);

// The algorithm the socket uses now, or empty where the system cannot say.
std::string congestion_control(std::intptr_t socket);

}  // namespace voxl::platform
