#include "text_wrap.h"

#include <algorithm>

namespace voxl::demo {

std::vector<std::u32string> wrap_rows(std::u32string_view text, size_t columns) {
  columns = std::max<size_t>(columns, 1);
  std::vector<std::u32string> rows;
  for (;;) {
    const size_t end = text.find(U'\n');
    std::u32string_view line = text.substr(0, end);
    while (line.size() > columns) {
      // The last space that leaves a non-empty row before it.
      const size_t space = line.substr(0, columns + 1).rfind(U' ');
      if (space != std::u32string_view::npos && space > 0) {
        rows.emplace_back(line.substr(0, space));
        line.remove_prefix(space + 1);
      } else {
        rows.emplace_back(line.substr(0, columns));
        line.remove_prefix(columns);
      }
    }
    rows.emplace_back(line);
    if (end == std::u32string_view::npos) return rows;
    text.remove_prefix(end + 1);
  }
}

}  // namespace voxl::demo
