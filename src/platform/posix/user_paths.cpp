#include "platform/user_paths.h"

#include <cstdlib>

namespace voxl::platform {

std::string home_folder() {
  const char* home = std::getenv("HOME");
  return home != nullptr && is_absolute_path(home) ? home : "";
}

bool is_absolute_path(std::string_view path) { return path.starts_with('/'); }

}  // namespace voxl::platform
