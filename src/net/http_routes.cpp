// Routing and access decisions for HTTP requests (Beast's HTTP only).
#include "net/http_routes.h"

#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "net/embedded_assets.h"
#include "net/forwarded.h"
#include "net/sign_ins.h"
#include "net/stream_check.h"

namespace voxl::net {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr std::string_view kServerName = "voxl";
constexpr const char* kBasicChallenge = "Basic realm=\"voxl\", charset=\"UTF-8\"";

std::string_view path_of(const Request& req) {
  const std::string_view target(req.target().data(), req.target().size());
  return target.substr(0, target.find('?'));
}

Response text_response(const Request& req, http::status status,
                                                std::string body) {
  Response res{status, req.version()};
  res.set(http::field::server, kServerName);
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body) + "\n";
  res.prepare_payload();
  return res;
}

bool accepts_gzip(const Request& req) {
  const auto ae = req[http::field::accept_encoding];
  return ae.find("gzip") != beast::string_view::npos;
}

// True when an If-None-Match header (a list of entity tags, or *) names
// `etag`. Weak comparison, as RFC 9110 asks for this header.
bool etag_listed(std::string_view header, std::string_view etag) {
  auto opaque = [](std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    if (t.substr(0, 2) == "W/") t.remove_prefix(2);
    return t;
  };
  const std::string_view want = opaque(etag);
  while (!header.empty()) {
    const size_t comma = header.find(',');
    const std::string_view item = opaque(header.substr(0, comma));
    if (item == "*" || item == want) return true;
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return false;
}

// Who may show the page in a frame: itself and the allowed origins.
// X-Frame-Options only knows SAMEORIGIN and DENY, so it is sent only when
// no other origin is allowed; browsers that know CSP follow CSP anyway.
void set_framing(Response& res, const AccessSettings& access) {
  std::string ancestors = "'self'";
  for (const std::string& o : access.allowed_origins) ancestors += " " + o;
  res.set("Content-Security-Policy", "frame-ancestors " + ancestors);
  if (access.allowed_origins.empty()) res.set("X-Frame-Options", "SAMEORIGIN");
}

Response asset_response(const Request& req, const Asset& a, const AccessSettings& access) {
  const bool gz = !a.gzip.empty() && accepts_gzip(req);
  // The compressed body is another representation: it gets its own tag.
  std::string etag(a.etag);
  if (gz) etag.insert(etag.size() - 1, "-gz");
  Response res{http::status::ok, req.version()};
  res.set(http::field::server, kServerName);
  res.set(http::field::etag, etag);
  res.set(http::field::cache_control, "no-cache");
  res.set(http::field::vary, "Accept-Encoding");
  res.keep_alive(req.keep_alive());
  if (a.content_type.starts_with("text/html")) set_framing(res, access);
  const auto inm = req[http::field::if_none_match];
  if (!inm.empty() && etag_listed(std::string_view(inm.data(), inm.size()), etag)) {
    res.result(http::status::not_modified);
    return res;
  }
  res.set(http::field::content_type, std::string(a.content_type));
  res.set("X-Content-Type-Options", "nosniff");
  const auto& bytes = gz ? a.gzip : a.data;
  if (gz) res.set(http::field::content_encoding, "gzip");
  res.body().assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

// /metrics: the application's figures and the server's own. A
// metrics-only listener's application figures include the main server's
// (see --metrics-addr); its own would say nothing of the desktop.
std::string metrics_text(SessionContext& ctx) {
  MetricsText m;
  if (ctx.settings.metrics) ctx.settings.metrics(m);
  if (!ctx.settings.metrics_only) write_server_metrics(ctx, m);
  std::string text = m.text();
  text.pop_back();  // text_response ends the body with its own newline
  return text;
}

// /healthz and /readyz, which need no credential: probes (Kubernetes,
// Docker, a load balancer) carry none, and the answer tells nothing.
std::optional<Response> probe_answer(const Request& req, SessionContext& ctx) {
  if (req.method() != http::verb::get && req.method() != http::verb::head) return std::nullopt;
  const std::string_view path = path_of(req);
  std::optional<Response> res;
  if (path == "/healthz") {
    res = text_response(req, http::status::ok, "ok");
  } else if (path == "/readyz") {
    const auto why = ctx.settings.not_ready ? ctx.settings.not_ready() : std::nullopt;
    res = why ? text_response(req, http::status::service_unavailable, "not ready: " + *why)
              : text_response(req, http::status::ok, "ready");
  }
  if (res) {
    res->set(http::field::cache_control, "no-store");
    if (req.method() == http::verb::head) res->body().clear();
  }
  return res;
}

// What to answer a request that is not a WebSocket upgrade.
Response answer(const Request& req, SessionContext& ctx) {
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    auto res = text_response(req, http::status::method_not_allowed,
                             "method " + std::string(req.method_string()) + " not allowed here");
    res.set(http::field::allow, "GET, HEAD");
    return res;
  }
  const std::string_view path = path_of(req);
  if (path == "/ws")
    return text_response(req, http::status::upgrade_required, "/ws takes WebSocket connections");
  if (path == "/metrics") {
    auto res = text_response(req, http::status::ok, metrics_text(ctx));
    res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    res.set(http::field::cache_control, "no-store");
    return res;
  }
  if (path == "/stats") {
    auto res = text_response(
        req, http::status::ok,
        ctx.viewers.stream_figures ? json_text(stream::to_json(ctx.viewers.stream_figures())) : "{}");
    res.set(http::field::content_type, "application/json");
    res.set(http::field::cache_control, "no-store");
    return res;
  }
  if (const Asset* a = find_asset(path)) return asset_response(req, *a, ctx.settings.access);
  return text_response(req, http::status::not_found, "no such page: " + std::string(path));
}

std::string_view query_of(const Request& req) {
  const std::string_view target(req.target().data(), req.target().size());
  const size_t q = target.find('?');
  return q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
}

// No Path attribute: the browser then scopes the cookie to the folder of the
// address it asked for, which behind a reverse proxy at /desktops/7/ is
// /desktops/7, so desktops behind one host keep their tokens apart.
std::string token_cookie(const std::string& value, bool tls, bool clear) {
  return std::string(kTokenCookie) + "=" + value + "; HttpOnly; SameSite=Strict" + (tls ? "; Secure" : "") +
         (clear ? "; Max-Age=0" : "");
}

// A Location naming the request's own last segment relative to where the
// browser asked: "./" for "/", "./screenshot" for "/screenshot". A reverse
// proxy that strips a prefix leaves it in the browser's address, and a
// relative reference keeps it there.
std::string relative_location(std::string_view path, const std::string& query) {
  const std::string_view last = path.substr(path.rfind('/') + 1);
  return "./" + std::string(last) + (query.empty() ? "" : "?" + query);
}

// 429 for an address in back-off; the connection closes.
Routed too_many_attempts(const Request& req, AuthThrottle::Clock::duration wait) {
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(wait).count();
  Routed r;
  r.response = text_response(req, http::status::too_many_requests,
                             "too many wrong credentials from this address; try again in " +
                                 std::to_string(seconds) + " s");
  r.response.set(http::field::retry_after, std::to_string(seconds));
  r.close = true;
  return r;
}

// The bookkeeping of a refusal by the access policy: wrong credentials count
// towards back-off and get a rate-limited log line. True when the
// connection should close after the answer.
bool count_refusal(const Request& req, SessionContext& ctx, const AccessDecision& d, const std::string& remote) {
  const std::string what = std::string(req.method_string()) + " " + std::string(path_of(req));
  if (!d.failed_attempt) {
    ctx.log->info("refused {}: {}", what, d.reason);
    return false;
  }
  ++ctx.auth_failures;
  if (ctx.settings.audit) {
    const auto it = req.find(http::field::authorization);
    const auto basic = it == req.end() ? std::nullopt
                                       : parse_basic_auth(std::string_view(it->value().data(), it->value().size()));
    ctx.settings.audit("sign_in_failed", nlohmann::json{{"address", remote},
                                                        {"user", basic ? basic->first.substr(0, 64) : ""},
                                                        {"request", what},
                                                        {"reason", d.reason}});
  }
  const auto f = ctx.auth_throttle.record_failure(remote, ctx.now());
  if (f.log)
    ctx.log->warn("refused {} from {}: {} ({} failed attempt{} from there since the last such line{})", what,
                  remote.empty() ? "an unknown address" : remote, d.reason, f.unlogged, f.unlogged == 1 ? "" : "s",
                  f.blocked.count() > 0
                      ? ", blocked for " +
                            std::to_string(std::chrono::ceil<std::chrono::seconds>(f.blocked).count()) + " s"
                      : "");
  return f.close_connection || f.blocked.count() > 0;
}

// A refusal by the access policy, with its bookkeeping (count_refusal).
Routed refused(const Request& req, SessionContext& ctx, const AccessDecision& d, const RequestOrigin& seen) {
  Routed r;
  r.close = count_refusal(req, ctx, d, seen.remote);
  r.response = text_response(req, http::int_to_status(unsigned(d.status)), d.reason);
  if (d.status == 401) {
    r.response.set(http::field::www_authenticate, d.challenge == "Basic" ? kBasicChallenge : "Bearer realm=\"voxl\"");
    r.response.set(http::field::cache_control, "no-store");
  }
  // A cookie from an earlier run (or a forged one) goes, so the browser
  // stops sending it and counting as a failure.
  if (d.stale_cookie) r.response.set(http::field::set_cookie, token_cookie("", seen.tls, true));
  return r;
}

// A good ?token= on a page: 303 to the same path and query without it, and
// the cookie that carries the token from now on (out of the address bar,
// the history and Referer headers).
Routed token_redirect(const Request& req, SessionContext& ctx, bool tls) {
  const std::string rest = without_query_param(query_of(req), kTokenParam);
  Routed r;
  r.response = text_response(req, http::status::see_other, "signed in");
  r.response.set(http::field::location, relative_location(path_of(req), rest));
  r.response.set(http::field::set_cookie, token_cookie(ctx.settings.access.token, tls, false));
  r.response.set(http::field::cache_control, "no-store");
  r.response.set("Referrer-Policy", "no-referrer");
  return r;
}

Response json_reply(const Request& req, const EndpointReply& e) {
  Response res{http::int_to_status(unsigned(e.status)), req.version()};
  res.set(http::field::server, kServerName);
  res.set(http::field::content_type, e.content_type);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = e.body;
  res.prepare_payload();
  return res;
}

// What the users file's sign-ins know now (nothing without --users-file).
SignInLookup users_lookup(SessionContext& ctx) {
  if (!ctx.sign_ins) return {};
  return [&ctx](std::string_view name, std::string_view password) {
    return ctx.sign_ins->lookup(name, password, SignIns::Clock::now());
  };
}

// The users a trusted proxy names (nothing without --users-file).
NamedUserLookup named_lookup(SessionContext& ctx) {
  if (!ctx.sign_ins) return {};
  return [&ctx](std::string_view name) { return ctx.sign_ins->named(name); };
}

// The request waits for its sign-in to be checked.
Routed sign_in_pending(AccessDecision& d, const RequestOrigin& seen) {
  Routed r;
  r.address = seen.remote;
  r.sign_in_pending = true;
  r.user = std::move(d.user);
  r.password = std::move(d.password);
  return r;
}

// POST /ws-check (stream_check.h): the decision a WebSocket upgrade with
// these headers gets, as JSON, with the upgrade's status. A Basic challenge
// goes with a 401, so the browser sends the password it holds for the page
// (it sends none unasked) or asks for one, as it would for the page; a
// token has no such dialog, and the page shows the reason. Wrong
// credentials count as for any request.
Routed stream_check_reply(const Request& req, SessionContext& ctx, const RequestFacts& facts,
                          const RequestOrigin& seen) {
  Routed r;
  if (req.method() != http::verb::post) {
    r.response = text_response(req, http::status::method_not_allowed, "/ws-check takes POST");
    r.response.set(http::field::allow, "POST");
    return r;
  }
  AccessDecision d = check_access(ctx.settings.access, facts, users_lookup(ctx), named_lookup(ctx));
  if (d.sign_in_pending) return sign_in_pending(d, seen);
  const StreamCheck c = stream_check(ctx.settings.access, facts, d);
  if (d.status != 200) r.close = count_refusal(req, ctx, d, seen.remote);
  EndpointReply e;
  e.status = c.status;
  e.body = c.json;
  r.response = json_reply(req, e);
  if (d.status == 401 && d.challenge == "Basic")
    r.response.set(http::field::www_authenticate, kBasicChallenge);
  if (d.stale_cookie) r.response.set(http::field::set_cookie, token_cookie("", seen.tls, true));
  return r;
}

}  // namespace

void write_server_metrics(const SessionContext& ctx, MetricsText& m) {
  using T = MetricsText::Type;
  m.family("voxl_start_time_seconds", T::kGauge, "When voxl started serving, in Unix seconds");
  m.sample("voxl_start_time_seconds", ctx.started_unix);
  ctx.viewer_metrics.write(m);
  m.family("voxl_connections_open", T::kGauge, "HTTP and WebSocket connections open now");
  m.sample("voxl_connections_open", ctx.sessions ? double(ctx.sessions->size()) : 0.0);
  m.family("voxl_connections_refused_total", T::kCounter,
           "Connections refused for a limit (--max-connections, --max-connections-per-address): answered 503, or closed at once while too many such answers are in flight");
  m.sample("voxl_connections_refused_total", double(ctx.connections_refused));
  m.family("voxl_auth_failures_total", T::kCounter, "Requests refused for a wrong password, token or cookie");
  m.sample("voxl_auth_failures_total", double(ctx.auth_failures));
}

stream::ViewerGrant viewer_grant(const std::string& user, Rights rights, const std::string& address) {
  stream::ViewerGrant g;
  g.user = user;
  g.address = address;
  g.input.control = role_of(rights) == Role::kFull;
  g.input.clipboard_in = rights.has(Right::kClipboardIn);
  g.input.clipboard_out = rights.has(Right::kClipboardOut);
  g.files = g.input.control && (rights.has(Right::kFilesUp) || rights.has(Right::kFilesDown));
  return g;
}

Response bad_request_response(const std::string& why) {
  Request dummy{http::verb::get, "/", 11};
  auto res = text_response(dummy, http::status::bad_request, "bad request: " + why);
  res.keep_alive(false);
  return res;
}

Routed route_request(Request& req, SessionContext& ctx, const std::string& remote_address) {
  const auto header = [&req](http::field f) -> std::optional<std::string_view> {
    const auto it = req.find(f);
    if (it == req.end()) return std::nullopt;
    return std::string_view(it->value().data(), it->value().size());
  };
  const auto named = [&req](std::string_view name) -> std::optional<std::string_view> {
    const auto it = req.find(beast::string_view(name.data(), name.size()));
    if (it == req.end()) return std::nullopt;
    return std::string_view(it->value().data(), it->value().size());
  };
  // Behind a trusted reverse proxy, what the browser used and who it is.
  const RequestOrigin seen =
      resolve_origin(ctx.settings.trusted_proxies, remote_address, ctx.settings.tls, header(http::field::host).value_or(""),
                     {named("X-Forwarded-Proto"), named("X-Forwarded-Host"), named("X-Forwarded-For")});
  if (auto probe = probe_answer(req, ctx)) {
    Routed r;
    r.response = std::move(*probe);
    return r;
  }
  if (ctx.settings.metrics_only) {
    Routed r;
    const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
    r.response = get && path_of(req) == "/metrics"
                     ? answer(req, ctx)
                     : text_response(req, http::status::not_found,
                                     "this address serves GET /metrics, /healthz and /readyz only");
    return r;
  }
  const bool checking = path_of(req) == "/ws-check";
  if (const auto wait = ctx.auth_throttle.blocked_for(seen.remote, ctx.now()); wait.count() > 0) {
    if (!checking) return too_many_attempts(req, wait);
    Routed r;
    EndpointReply e;
    const StreamCheck c = stream_check_throttled(std::chrono::ceil<std::chrono::seconds>(wait));
    e.status = c.status;
    e.body = c.json;
    r.response = json_reply(req, e);
    r.response.set(http::field::retry_after, std::to_string(std::chrono::ceil<std::chrono::seconds>(wait).count()));
    r.close = true;
    return r;
  }
  const bool upgrade = beast::websocket::is_upgrade(req) && path_of(req) == "/ws";
  RequestFacts facts;
  facts.host = seen.host;
  facts.origin = header(http::field::origin);
  facts.authorization = header(http::field::authorization).value_or("");
  facts.cookie = header(http::field::cookie).value_or("");
  facts.query = query_of(req);
  facts.websocket = upgrade || checking;
  facts.tls = seen.tls;
  // Only the peer itself counts: a proxy's word, never a client's.
  // An empty name is none: the other credentials decide.
  if (!ctx.settings.proxy_user_header.empty() && address_in(ctx.settings.trusted_proxies, remote_address))
    if (const auto user = named(ctx.settings.proxy_user_header); user && !trim_ows(*user).empty())
      facts.proxy_user = user;
  if (checking) return stream_check_reply(req, ctx, facts, seen);
  AccessDecision d = check_access(ctx.settings.access, facts, users_lookup(ctx), named_lookup(ctx));
  if (d.sign_in_pending) return sign_in_pending(d, seen);
  if (d.status != 200) return refused(req, ctx, d, seen);
  if (d.credential != Credential::kNone && ctx.auth_throttle.size() > 0) ctx.auth_throttle.record_success(seen.remote);
  Routed r;
  r.user = d.user;
  r.rights = d.rights;
  r.address = seen.remote;
  if (upgrade) {
    r.upgrade = true;
    r.role = d.role;
    return r;
  }
  if (d.credential == Credential::kQuery &&
      (req.method() == http::verb::get || req.method() == http::verb::head))
    return token_redirect(req, ctx, seen.tls);
  const std::string_view path = path_of(req);
  if (const auto it = ctx.settings.endpoints.find(std::string(path)); it != ctx.settings.endpoints.end()) {
    const Endpoint& e = it->second;
    const std::string method(req.method_string());
    if (std::find(e.methods.begin(), e.methods.end(), method) == e.methods.end()) {
      std::string allow;
      for (const auto& m : e.methods) allow += (allow.empty() ? "" : ", ") + m;
      r.response = text_response(req, http::status::method_not_allowed, "method " + method + " not allowed here");
      r.response.set(http::field::allow, allow);
      return r;
    }
    // The one rule against cross-site requests (docs/security.md): what a
    // page of another site makes the browser send may look, never act.
    const auto cross = cross_site_reason(ctx.settings.access, header(http::field::origin), named("Sec-Fetch-Site"), seen.host,
                                         seen.tls);
    const bool safe = req.method() == http::verb::get || req.method() == http::verb::head ||
                      req.method() == http::verb::options;
    if (cross && !safe) {
      ctx.log->info("refused {} {}: {}", method, path, *cross);
      r.response = json_reply(req, json_error(403, "Origin", method + " " + std::string(path) + " refused: " + *cross));
      return r;
    }
    r.endpoint = &e;
    r.call.method = method;
    r.call.path = std::string(path);
    // The access token is the server's, not a parameter of the endpoint.
    r.call.query = ctx.settings.access.token.empty() ? std::string(query_of(req)) : without_query_param(query_of(req), kTokenParam);
    r.call.body = std::move(req.body());
    r.call.headers.reserve(size_t(std::distance(req.begin(), req.end())));
    for (const auto& field : req) {
      std::string name(field.name_string());
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
      r.call.headers.emplace_back(std::move(name), std::string(field.value()));
    }
    r.call.remote_address = seen.remote;
    r.call.view_only = d.role == Role::kViewOnly;
    r.call.user = d.user;
    r.call.rights = d.rights;
    r.call.foreign_origin = cross.has_value();
    return r;
  }
  r.response = answer(req, ctx);
  return r;
}

}  // namespace voxl::net
