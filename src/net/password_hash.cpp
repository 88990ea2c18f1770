#include "net/password_hash.h"

#include <sodium.h>

#include <mutex>
#include <stdexcept>

namespace voxl::net {
namespace {

void ready() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be set up");
  });
}

}  // namespace

std::string hash_password(std::string_view password) {
  ready();
  if (password.empty()) throw std::runtime_error("the password is empty");
  if (password.size() > kMaxPassword)
    throw std::runtime_error("the password is longer than " + std::to_string(kMaxPassword) + " bytes");
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw std::runtime_error("hashing the password failed (out of memory?)");
  return out;
}

bool password_matches(const std::string& hash, std::string_view password) {
  ready();
  if (password.size() > kMaxPassword || hash.size() >= crypto_pwhash_STRBYTES ||
      hash.rfind(crypto_pwhash_argon2id_STRPREFIX, 0) != 0)
    return false;
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

}  // namespace voxl::net
