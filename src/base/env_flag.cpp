#include "base/env_flag.h"

#include <cctype>
#include <string>
#include <string_view>

namespace voxl {

bool env_flag_enabled(const char* value) {
  if (!value) return false;
  std::string_view v(value);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  std::string lower;
  for (char ch : v) lower += char(std::tolower(static_cast<unsigned char>(ch)));
  return lower == "1" || lower == "true" || lower == "yes" || lower == "on";
}

}  // namespace voxl
