#include "app/access_wiring.h"

#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>

namespace voxl::app {

bool listens_beyond_loopback(const Config& config) { return !net::is_loopback_host(config.addr); }

AccessPlan plan_access(const Config& c, std::vector<std::string> own_hosts,
                       const std::function<std::string()>& make_token) {
  AccessPlan plan;
  net::AccessSettings& s = plan.settings;
  s.allowed_origins = c.allowed_origins;
  s.allowed_hosts = c.allowed_hosts;
  s.own_hosts = std::move(own_hosts);
  s.basic_auth = c.basic_auth;
  s.user = c.basic_auth_user;
  s.password = c.basic_auth_password;
  s.viewonly_password = c.basic_auth_viewonly_password;
  s.token = c.auth_token;
  s.users_file = !c.users_file.empty();
  const bool beyond = listens_beyond_loopback(c);
  if (s.token.empty() && beyond && !c.basic_auth && !s.users_file && !c.insecure_no_auth) {
    s.token = make_token();
    plan.generated_token = true;
  }
  if (std::find(s.allowed_hosts.begin(), s.allowed_hosts.end(), "*") != s.allowed_hosts.end())
    plan.warnings.push_back(
        "--allowed-hosts=*: requests for any Host name are answered, so a web page the user visits can reach "
        "voxl through DNS rebinding; only the credential stands in its way");
  if (beyond && c.insecure_no_auth)
    plan.warnings.push_back("listening on " + c.addr + " with no authentication (--insecure-no-auth): anyone who "
                            "can reach port " + std::to_string(c.port) +
                            " sees and controls this desktop (drop --insecure-no-auth for an access token, use "
                            "--enable-basic-auth, or --addr=127.0.0.1)");
  return plan;
}

std::string random_access_token() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("cannot make an access token: OpenSSL's RAND_bytes failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token += kHex[b >> 4];
    token += kHex[b & 15];
  }
  return token;
}

}  // namespace voxl::app
