// Who may use the server, as the flags say: the Host allow-list (IP
// literals, localhost, this machine's names, --allowed-hosts) and the
// credential (Basic auth, a fixed token, or a random token made at start
// when listening beyond loopback without Basic auth unless
// --insecure-no-auth). Also the lines worth logging about it.
//
// Threads: the main or loop thread, once at start.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/config.h"
#include "net/access_policy.h"

namespace voxl::app {

struct AccessPlan {
  net::AccessSettings settings;  // loopback_only is left to the server
  bool generated_token = false;  // settings.token was made just now: the log must show it
  std::vector<std::string> warnings;
};

// True unless --addr is a loopback address or "localhost".
bool listens_beyond_loopback(const Config& config);

// Pure: `own_hosts` are the machine's names, `make_token` is called only
// when a token must be generated.
AccessPlan plan_access(const Config& config, std::vector<std::string> own_hosts,
                       const std::function<std::string()>& make_token);

// 128 random bits from OpenSSL as 32 hex digits. Throws std::runtime_error
// when the generator fails.
std::string random_access_token();

}  // namespace voxl::app
