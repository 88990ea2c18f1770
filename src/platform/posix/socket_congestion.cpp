#include "platform/socket_congestion.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace voxl::platform {

namespace {

// One line of /proc/sys/net/ipv4, or empty.
std::string kernel_setting(const char* name) {
  std::ifstream in(std::string("/proc/sys/net/ipv4/") + name);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

#ifdef TCP_CONGESTION

std::string set_congestion_control(std::intptr_t socket, const std::string& name) {
  if (::setsockopt(int(socket), IPPROTO_TCP, TCP_CONGESTION, name.data(), socklen_t(name.size())) == 0) return {};
  const int err = errno;
  if (err == ENOENT) {
    std::string why = "the kernel does not offer '" + name + "'";
    const std::string offered = kernel_setting("tcp_available_congestion_control");
    if (!offered.empty()) why += " (it offers: " + offered + ")";
    return why + "; `modprobe tcp_" + name + "` loads it where it is a module";
  }
  if (err == EPERM) {
    std::string why = "'" + name + "' is not allowed for this user";
    const std::string allowed = kernel_setting("tcp_allowed_congestion_control");
    if (!allowed.empty())
      why += " (net.ipv4.tcp_allowed_congestion_control: " + allowed + "); `sysctl -w "
             "net.ipv4.tcp_allowed_congestion_control=\"" + allowed + " " + name + "\"` allows it";
    return why;
  }
  return "'" + name + "': " + std::strerror(err);
}

std::string congestion_control(std::intptr_t socket) {
  char name[32] = {};
  socklen_t size = sizeof name - 1;
  if (::getsockopt(int(socket), IPPROTO_TCP, TCP_CONGESTION, name, &size) != 0) return {};
  return std::string(name, strnlen(name, size));
}

#else

std::string set_congestion_control(std::intptr_t, const std::string&) {
  return "this system does not choose TCP's congestion control per connection";
}

std::string congestion_control(std::intptr_t) { return {}; }

#endif

}  // namespace voxl::platform
