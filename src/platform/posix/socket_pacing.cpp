#include "platform/socket_pacing.h"

#include <sys/socket.h>

#include <cstdint>
#include <limits>

namespace voxl::platform {

bool set_send_pacing(std::intptr_t socket, std::optional<uint64_t> bytes_per_second) {
#ifdef SO_MAX_PACING_RATE
  // The kernel takes 64 bits since Linux 4.20 and 32 before; ~0 is no limit.
  const uint64_t rate = bytes_per_second ? *bytes_per_second : std::numeric_limits<uint64_t>::max();
  if (::setsockopt(int(socket), SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof rate) == 0) return true;
  const uint32_t rate32 = rate > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                                       : uint32_t(rate);
  return ::setsockopt(int(socket), SOL_SOCKET, SO_MAX_PACING_RATE, &rate32, sizeof rate32) == 0;
#else
  (void)socket;
  (void)bytes_per_second;
  return false;
#endif
}

}  // namespace voxl::platform
