// The answer to POST /ws-check: would a WebSocket to /ws from this page be
// let in, and if not, what was refused and how to fix it. Browsers hide a
// refused upgrade's status and body from scripts (the page only sees the
// socket close), so the page asks this, same-origin and with the same
// credentials, when its stream does not open. A POST, because browsers send
// Origin on a same-origin POST and not on a GET. Pure; any thread.
#pragma once

#include <chrono>
#include <string>

#include "net/access_policy.h"

namespace voxl::net {

struct StreamCheck {
  int status = 200;  // the status the upgrade got (200: it would be let in)
  std::string json;  // {"ok":...,"refused":...,"error":...,"fix":...,"retry_after":...}
};

// `d` is the access decision for `r` taken as a WebSocket upgrade.
StreamCheck stream_check(const AccessSettings& s, const RequestFacts& r, const AccessDecision& d);

// The address is in back-off for wrong credentials for `wait` more.
StreamCheck stream_check_throttled(std::chrono::seconds wait);

}  // namespace voxl::net
