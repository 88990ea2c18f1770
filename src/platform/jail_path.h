// The file jail's own check of the paths it is handed, the same on every
// platform (the parser, files/relative_path.h, comes first): relative,
// components joined by '/', none empty, "." or "..", none longer than 255
// bytes, no NUL, at most kMaxJailPath bytes; "" names the root.
//
// Threads: any; pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace voxl::platform {

inline constexpr size_t kMaxJailPath = 4096;

inline bool plain_relative(const std::string& rel) {
  if (rel.empty()) return true;
  if (rel.size() > kMaxJailPath || rel.front() == '/' || rel.back() == '/' || rel.find('\0') != std::string::npos)
    return false;
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    const std::string_view part(rel.data() + start, end - start);
    if (part.empty() || part == "." || part == ".." || part.size() > 255) return false;
    start = end + 1;
  }
  return true;
}

// Splits "a/b/c" into its folder "a/b" and last name "c".
inline std::pair<std::string, std::string> split_last(const std::string& rel) {
  const size_t slash = rel.rfind('/');
  if (slash == std::string::npos) return {"", rel};
  return {rel.substr(0, slash), rel.substr(slash + 1)};
}

}  // namespace voxl::platform
