#include "platform/tcp_path.h"

namespace voxl::platform {

// SIO_TCP_INFO (Windows 10 1703) could say this; until it is read, the
// rate controller judges a viewer's link from its acknowledgements alone.
std::optional<TcpPath> tcp_path(std::intptr_t) { return std::nullopt; }

}  // namespace voxl::platform
