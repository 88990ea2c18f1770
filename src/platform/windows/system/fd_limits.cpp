// Windows has no per-process limit on sockets or handles to raise, and
// handles are inherited only when a child is started with inheritance asked
// for (ChildProcess lists the three standard handles only): clearing
// HANDLE_FLAG_INHERIT on each socket makes that hold for any other way a
// child might be started too.
#include "platform/fd_limits.h"

#include <winsock2.h>
#include <windows.h>

namespace voxl::platform {

FdLimit raise_fd_limit() {
  FdLimit out;
  out.applicable = false;
  return out;
}

bool set_close_on_exec(NativeSocket socket) {
  return SetHandleInformation(reinterpret_cast<HANDLE>(socket), HANDLE_FLAG_INHERIT, 0) != 0;
}

}  // namespace voxl::platform
