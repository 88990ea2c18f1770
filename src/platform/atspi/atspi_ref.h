// A node's reference as agents see it ("1.42/12": the application's unique
// connection name without its colon, and the object path's last part under
// /org/a11y/atspi/accessible/, which toolkits use; "1.42//other/path"
// otherwise) and back. Untrusted on
// the way in: only a unique name and a valid path under that root parse.
// Pure functions; any thread.
#pragma once

#include <optional>
#include <string>

#include "platform/atspi/call_batch.h"

namespace voxl::platform::atspi {

inline constexpr const char* kAccessibleRoot = "/org/a11y/atspi/accessible/";

std::string ref_of(const BusObject& o);
std::optional<BusObject> object_of(const std::string& ref);

}  // namespace voxl::platform::atspi
