// The users file (--users-file): who may sign in, with which password, and
// what each may do. One user per line:
//
//   name:hash:rights        alice:$argon2id$v=19$m=65536,t=2,p=1$...:view,control,clipboard
//
// `hash` is an Argon2id hash as `voxl hash-password` writes it
// (password_hash.h), or "!" for a user who has no password here and is
// named only by a trusted proxy (--trusted-proxies). `rights` as
// parse_rights takes them. Blank lines and lines starting with '#' are
// skipped; a name is 1 to 64 of A-Z a-z 0-9 . _ @ + -, and appears once.
// The text is untrusted: every error names its line and stops the parse,
// so a mistake never grants anything. Pure; any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/rights.h"

namespace voxl::net {

struct UserEntry {
  std::string name;
  std::string hash;  // empty: no password (a proxy names them)
  Rights rights;
};

class Users {
 public:
  // At most this many users, lines of at most this many bytes, and a file
  // of at most this many bytes.
  static constexpr size_t kMaxUsers = 10000;
  static constexpr size_t kMaxLine = 4096;
  static constexpr size_t kMaxFile = 4 << 20;

  Users() = default;
  explicit Users(std::vector<UserEntry> users);

  const UserEntry* find(std::string_view name) const;
  const std::vector<UserEntry>& all() const { return users_; }

 private:
  std::vector<UserEntry> users_;  // sorted by name
};

struct UsersFileError {
  size_t line = 0;  // 1-based; 0 for the file as a whole
  std::string message;
};

// The users of the file's text; nullopt with `error` for the first mistake.
std::optional<Users> parse_users_file(std::string_view text, UsersFileError& error);
// A user name as the file takes it.
bool is_valid_user_name(std::string_view name);

}  // namespace voxl::net
