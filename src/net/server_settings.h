// What the sessions of one server read, fixed when the server is made: who
// may come in and how they prove it, the paths answered outside src/net,
// and the deployment's choices. Declared once: ServerOptions carries it and
// the server moves it into its SessionContext.
//
// Plain data; read on the loop thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/audit_sink.h"
#include "base/metrics_text.h"
#include "net/access_policy.h"
#include "net/endpoint.h"
#include "net/forwarded.h"

namespace voxl::net {

struct ServerSettings {
  // Credentials, origins and hosts (loopback_only is derived from the
  // listening address by the server; the caller decides the token).
  AccessSettings access;
  bool tls = false;  // set by the server from ServerOptions::https
  EndpointTable endpoints;  // paths answered outside src/net (agents, files)
  // Streamed downloads to an address where a viewer watches are paced to
  // what the picture leaves (--pace-transfers).
  bool pace_transfers = true;
  // Peers whose X-Forwarded-Proto, -Host and -For are believed
  // (--trusted-proxies); empty: none.
  std::vector<AddressRange> trusted_proxies;
  // The header in which such a proxy names the signed-in user
  // (--proxy-user-header); empty: none.
  std::string proxy_user_header;
  // The audit trail (--audit-log): sign-ins and their failures. Empty: none.
  AuditSink audit;
  // /metrics: the server's own figures are added to what this writes.
  std::function<void(MetricsText&)> metrics;
  // /readyz: why the server cannot serve a picture now, or nullopt when it
  // can. Empty: always ready.
  std::function<std::optional<std::string>()> not_ready;
  // A listener for /metrics and the probes alone, without credentials
  // (--metrics-addr): everything else is a 404, and no WebSocket.
  bool metrics_only = false;
};

}  // namespace voxl::net
