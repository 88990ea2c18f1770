#include "net/users_file.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace voxl::net {
namespace {

constexpr std::string_view kArgon2id = "$argon2id$";
constexpr size_t kMaxHash = 256;
constexpr size_t kMaxName = 64;

bool hash_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '$' || c == '=' ||
         c == ',' || c == '+' || c == '/' || c == '.';
}

// "$argon2id$v=19$m=M,t=T,p=P$salt$hash" whose cost a sign-in can afford:
// at most 256 MiB and 10 passes (what `voxl hash-password` writes costs 64
// MiB and 2), one lane (what libsodium checks).
bool affordable_argon2id(std::string_view hash) {
  hash.remove_prefix(kArgon2id.size());
  const auto number = [&](std::string_view key, uint64_t most, uint64_t& out) {
    if (!hash.starts_with(key)) return false;
    hash.remove_prefix(key.size());
    out = 0;
    size_t digits = 0;
    while (digits < hash.size() && hash[digits] >= '0' && hash[digits] <= '9' && digits < 10)
      out = out * 10 + uint64_t(hash[digits++] - '0');
    hash.remove_prefix(digits);
    return digits > 0 && out >= 1 && out <= most;
  };
  uint64_t version = 0, memory = 0, passes = 0, lanes = 0;
  return number("v=", 19, version) && version == 19 && number("$m=", 256 * 1024, memory) &&
         number(",t=", 10, passes) && number(",p=", 1, lanes) && hash.starts_with("$") &&
         hash.find('$', 1) != std::string_view::npos;
}

bool blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; });
}

// One "name:hash:rights" line; false with `why` for a mistake.
bool parse_line(std::string_view line, UserEntry& out, std::string& why) {
  const size_t first = line.find(':');
  const size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
  if (second == std::string_view::npos) {
    why = "a user's line is name:hash:rights (three fields separated by ':')";
    return false;
  }
  const std::string_view name = line.substr(0, first);
  const std::string_view hash = line.substr(first + 1, second - first - 1);
  if (!is_valid_user_name(name)) {
    why = "the name '" + std::string(name.substr(0, kMaxName)) + "' is not 1 to 64 of A-Z a-z 0-9 . _ @ + -";
    return false;
  }
  if (hash != "!" &&
      (!hash.starts_with(kArgon2id) || hash.size() > kMaxHash || !std::all_of(hash.begin(), hash.end(), hash_char))) {
    why = "the password of '" + std::string(name) +
          "' is not an Argon2id hash ($argon2id$..., as 'voxl hash-password' writes it) or '!' for none; "
          "a password itself is never written in this file";
    return false;
  }
  if (hash != "!" && !affordable_argon2id(hash)) {
    why = "the password hash of '" + std::string(name) +
          "' is not $argon2id$v=19$m=M,t=T,p=1$salt$hash with M up to 262144 (KiB) and T up to 10";
    return false;
  }
  const auto rights = parse_rights(line.substr(second + 1), why);
  if (!rights) {
    why = "the rights of '" + std::string(name) + "': " + why;
    return false;
  }
  out = UserEntry{std::string(name), hash == "!" ? std::string() : std::string(hash), *rights};
  return true;
}

}  // namespace

Users::Users(std::vector<UserEntry> users) : users_(std::move(users)) {
  std::sort(users_.begin(), users_.end(), [](const UserEntry& a, const UserEntry& b) { return a.name < b.name; });
}

const UserEntry* Users::find(std::string_view name) const {
  const auto it = std::lower_bound(users_.begin(), users_.end(), name,
                                   [](const UserEntry& u, std::string_view n) { return u.name < n; });
  return it != users_.end() && it->name == name ? &*it : nullptr;
}

bool is_valid_user_name(std::string_view name) {
  return !name.empty() && name.size() <= kMaxName && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '@' || c == '+' || c == '-';
  });
}

std::optional<Users> parse_users_file(std::string_view text, UsersFileError& error) {
  if (text.size() > Users::kMaxFile) {
    error = {0, "the file is larger than " + std::to_string(Users::kMaxFile >> 20) + " MiB"};
    return std::nullopt;
  }
  std::vector<UserEntry> users;
  std::unordered_map<std::string, size_t> lines;  // name -> where it is
  size_t number = 0;
  while (!text.empty()) {
    ++number;
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > Users::kMaxLine) {
      error = {number, "the line is longer than " + std::to_string(Users::kMaxLine) + " bytes"};
      return std::nullopt;
    }
    if (blank(line) || line.front() == '#') continue;
    UserEntry user;
    std::string why;
    if (!parse_line(line, user, why)) {
      error = {number, why};
      return std::nullopt;
    }
    const auto [first, fresh] = lines.emplace(user.name, number);
    if (!fresh) {
      error = {number, "'" + user.name + "' is listed on line " + std::to_string(first->second) + " already"};
      return std::nullopt;
    }
    if (users.size() == Users::kMaxUsers) {
      error = {number, "more than " + std::to_string(Users::kMaxUsers) + " users"};
      return std::nullopt;
    }
    users.push_back(std::move(user));
  }
  return Users(std::move(users));
}

}  // namespace voxl::net
