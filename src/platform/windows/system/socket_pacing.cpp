#include "platform/socket_pacing.h"

namespace voxl::platform {

// Windows has no per-socket pacing ceiling an unprivileged program can set
// (QoS policies are the administrator's): transfers send as TCP allows.
bool set_send_pacing(std::intptr_t, std::optional<uint64_t>) { return false; }

}  // namespace voxl::platform
