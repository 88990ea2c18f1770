#include "platform/service_manager.h"

namespace voxl::platform {

// A Windows service speaks to the service control manager through
// StartServiceCtrlDispatcher, which voxl does not run under yet.
void notify_service_manager(ServiceState, const std::string&) {}

}  // namespace voxl::platform
