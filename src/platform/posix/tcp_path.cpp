#include "platform/tcp_path.h"

#if defined(__linux__)
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>
#endif

namespace voxl::platform {

std::optional<TcpPath> tcp_path(std::intptr_t socket) {
#if defined(__linux__)
  tcp_info info{};
  socklen_t size = sizeof info;
  if (::getsockopt(int(socket), IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return std::nullopt;
  // tcpi_min_rtt came with Linux 4.6: an older kernel fills less.
  if (size < offsetof(tcp_info, tcpi_min_rtt) + sizeof info.tcpi_min_rtt || info.tcpi_rtt == 0)
    return std::nullopt;
  TcpPath path;
  path.srtt_ms = info.tcpi_rtt / 1000.0;
  path.min_rtt_ms = info.tcpi_min_rtt / 1000.0;
  return path;
#else
  (void)socket;
  return std::nullopt;
#endif
}

}  // namespace voxl::platform
