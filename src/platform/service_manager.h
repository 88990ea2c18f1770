// Telling the service manager how the daemon is doing: under systemd
// (Type=notify) READY=1 once voxl serves, STATUS= lines, STOPPING=1 on the
// way out. Outside a service, and on Windows, it does nothing.
//
// POSIX: sd_notify from libsystemd (it reads $NOTIFY_SOCKET). Threads: any.
#pragma once

#include <string>

namespace voxl::platform {

enum class ServiceState { kReady, kStopping };

// Tells the service manager `state`, with `status` as the human-readable
// STATUS= line when not empty.
void notify_service_manager(ServiceState state, const std::string& status = {});

}  // namespace voxl::platform
