#include "base/bounded_line.h"

namespace voxl {

std::optional<std::string> read_bounded_line(std::FILE* in, size_t max_bytes) {
  std::string line;
  bool too_long = false;
  for (int c = std::fgetc(in); c != '\n'; c = std::fgetc(in)) {
    if (c == EOF) {
      if (line.empty() && !too_long) return std::nullopt;
      break;
    }
    if (line.size() < max_bytes)
      line.push_back(char(c));
    else
      too_long = true;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (too_long) return std::nullopt;
  return line;
}

}  // namespace voxl
