#include "net/stream_check.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "base/json_text.h"

namespace voxl::net {

namespace {

// At most `n` bytes of something the client sent, for the answer.
std::string cut(std::string_view text, size_t n = 200) { return std::string(text.substr(0, std::min(n, text.size()))); }

constexpr const char* kPassHost =
    "If a reverse proxy is in front of voxl, it must pass the browser's Host header (nginx: "
    "`proxy_set_header Host $host;`), or send `X-Forwarded-Host` and be listed in `--trusted-proxies`.";

std::string fix_for(const AccessSettings& s, const RequestFacts& r, const AccessDecision& d) {
  switch (d.refused) {
    case Refusal::kOrigin:
      return std::string(kPassHost) + " Or start voxl with `--allowed-origins=" + cut(r.origin.value_or("")) + "`.";
    case Refusal::kHost:
      return std::string(kPassHost) + " Or start voxl with `--allowed-hosts=NAME` for the name this page uses.";
    case Refusal::kCredential:
      if (s.basic_auth || s.users_file) return "Reload the page to sign in again (the password may have changed since it was opened).";
      return "Open the address voxl printed when it started (it ends in `?token=...`); the token changes when voxl "
             "restarts unless it is given with `--auth-token-file`.";
    case Refusal::kMissingHost:
      return "A proxy in front of voxl dropped the Host header: pass it on (nginx: `proxy_set_header Host $host;`).";
    case Refusal::kRights:
      return "Ask whoever runs voxl to add this user to the users file with 'view', or sign in as another user.";
    case Refusal::kNone: break;
  }
  return "";
}

const char* kind(Refusal r) {
  switch (r) {
    case Refusal::kOrigin: return "origin";
    case Refusal::kHost: return "host";
    case Refusal::kCredential: return "credentials";
    case Refusal::kMissingHost: return "host";
    case Refusal::kRights: return "rights";
    case Refusal::kNone: break;
  }
  return "";
}

}  // namespace

StreamCheck stream_check(const AccessSettings& s, const RequestFacts& r, const AccessDecision& d) {
  StreamCheck c;
  c.status = d.status;
  if (d.status == 200) {
    c.json = json_text(nlohmann::json{{"ok", true}}) + "\n";
    return c;
  }
  const std::string error =
      d.refused == Refusal::kOrigin
          ? "voxl refused the stream: this page's origin (" + cut(r.origin.value_or("")) +
                ") is not the address voxl was reached at (Host: " + cut(r.host) + ")"
          : "voxl refused the stream: " + d.reason;
  c.json = json_text(nlohmann::json{{"ok", false},
                                    {"refused", kind(d.refused)},
                                    {"error", error},
                                    {"fix", fix_for(s, r, d)}}) +
           "\n";
  return c;
}

StreamCheck stream_check_throttled(std::chrono::seconds wait) {
  StreamCheck c;
  c.status = 429;
  c.json = json_text(nlohmann::json{{"ok", false},
                                    {"refused", "throttled"},
                                    {"error", "too many wrong credentials from this address"},
                                    {"fix", "Wait, then reload the page and sign in with the right credentials."},
                                    {"retry_after", wait.count()}}) +
           "\n";
  return c;
}

}  // namespace voxl::net
