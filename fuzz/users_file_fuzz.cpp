// libFuzzer target: the users file (--users-file) and lists of rights.
// Checks that what parses is what the rules allow: valid names, each once,
// hashes that are Argon2id or none, some right for everyone, and that every
// user parsed is found by name; and that a refusal names a line within the
// text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "net/users_file.h"

VOXL_FUZZ_TARGET(users_file) {
  using namespace voxl::net;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string why;
  if (const auto rights = parse_rights(text, why)) {
    FUZZ_CHECK(!rights->empty());
    std::string again_why;
    FUZZ_CHECK(parse_rights(rights_text(*rights), again_why) == rights);
  } else {
    FUZZ_CHECK(!why.empty());
  }
  UsersFileError error;
  const auto users = parse_users_file(text, error);
  if (!users) {
    FUZZ_CHECK(!error.message.empty());
    FUZZ_CHECK(error.line <= size_t(std::count(text.begin(), text.end(), '\n')) + 1);
    return 0;
  }
  for (const UserEntry& u : users->all()) {
    FUZZ_CHECK(is_valid_user_name(u.name));
    FUZZ_CHECK(u.hash.empty() || u.hash.starts_with("$argon2id$"));
    FUZZ_CHECK(u.hash.find(':') == std::string::npos);
    FUZZ_CHECK(!u.rights.empty());
    FUZZ_CHECK(users->find(u.name) == &u);
  }
  return 0;
}
