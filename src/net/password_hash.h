// Passwords kept as Argon2id hashes (libsodium's crypto_pwhash_str, at its
// "interactive" cost: 64 MiB and two passes), the only form a users file
// holds them in. Hashing and checking are slow on purpose (tens of
// milliseconds each, and the memory): call them off the network loop.
//
// Threads: any; libsodium is set up on first use, once.
#pragma once

#include <string>
#include <string_view>

namespace voxl::net {

// The longest password hashed or checked, in bytes.
inline constexpr size_t kMaxPassword = 1024;

// "$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>" with a fresh random salt.
// Throws std::runtime_error when the password is empty or too long, or the
// memory cannot be had.
std::string hash_password(std::string_view password);
// True when `password` is the one `hash` was made from; false for any
// other, and for a hash that is not Argon2id. Takes the same time for a
// wrong password as for the right one.
bool password_matches(const std::string& hash, std::string_view password);

}  // namespace voxl::net
