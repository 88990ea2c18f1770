#include "platform/service_manager.h"

#include <systemd/sd-daemon.h>

namespace voxl::platform {

void notify_service_manager(ServiceState state, const std::string& status) {
  std::string message = state == ServiceState::kReady ? "READY=1" : "STOPPING=1";
  if (!status.empty()) message += "\nSTATUS=" + status;
  // Without $NOTIFY_SOCKET this returns 0 and does nothing; a failure to
  // reach the manager costs the daemon nothing either.
  (void)sd_notify(0, message.c_str());
}

}  // namespace voxl::platform
