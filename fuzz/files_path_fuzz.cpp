// The Files endpoints' path rules (files/relative_path.h): whatever the
// text, an accepted path is plain (no empty, "." or ".." name, no
// backslash, NUL or control byte, within the limits), parsing it again
// gives it back, and a free name made from its last name is accepted too.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "files/relative_path.h"
#include "fuzz_check.h"

namespace VOXL_TEST_FILE {

using namespace voxl::files;

void check_plain(const std::string& p) {
  FUZZ_CHECK(p.size() <= kMaxPathBytes);
  FUZZ_CHECK(p.empty() || (p.front() != '/' && p.back() != '/'));
  FUZZ_CHECK(p.find("//") == std::string::npos);
  size_t start = 0;
  while (!p.empty() && start <= p.size()) {
    size_t end = p.find('/', start);
    if (end == std::string::npos) end = p.size();
    const std::string_view name(p.data() + start, end - start);
    FUZZ_CHECK(!name.empty() && name != "." && name != "..");
    FUZZ_CHECK(name.size() <= kMaxNameBytes);
    start = end + 1;
  }
  for (const char c : p) {
    const auto u = static_cast<unsigned char>(c);
    FUZZ_CHECK(u >= 0x20 && u != 0x7F && u != 0x5C);
  }
}

}  // namespace

VOXL_FUZZ_TARGET(files_path) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string why;
  if (const auto p = parse_relative_path(text, why)) {
    check_plain(*p);
    std::string again_why;
    FUZZ_CHECK(parse_relative_path(*p, again_why) == p);
    FUZZ_CHECK(join_path(parent_path(*p), last_name(*p)) == *p);
  } else {
    FUZZ_CHECK(!why.empty());
    voxl::fuzz::parse_json_or_abort(nlohmann::json(why).dump());
  }
  if (const auto n = parse_new_path(text, why)) {
    check_plain(*n);
    FUZZ_CHECK(!n->empty());
    const std::string numbered = numbered_name(last_name(*n), int(size % 2000) + 1);
    FUZZ_CHECK(numbered.size() <= kMaxNameBytes);
    std::string numbered_why;
    FUZZ_CHECK(parse_relative_path(numbered, numbered_why).has_value());
  }
  return 0;
}
