// Routing and access decisions for HTTP requests (Beast's HTTP only).
#include "net/http_routes.h"

#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <optional>

#include "net/embedded_assets.h"

namespace voxl::net {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr std::string_view kServerName = "voxl";

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

Response asset_response(const Request& req, const Asset& a) {
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
  if (path == "/stats") {
    auto res = text_response(req, http::status::ok, ctx.stats_json ? ctx.stats_json() : "{}");
    res.set(http::field::content_type, "application/json");
    res.set(http::field::cache_control, "no-store");
    return res;
  }
  if (const Asset* a = find_asset(path)) return asset_response(req, *a);
  return text_response(req, http::status::not_found, "no such page: " + std::string(path));
}

}  // namespace

Response bad_request_response(const std::string& why) {
  Request dummy{http::verb::get, "/", 11};
  auto res = text_response(dummy, http::status::bad_request, "bad request: " + why);
  res.keep_alive(false);
  return res;
}

Routed route_request(const Request& req, SessionContext& ctx) {
  const auto header = [&req](http::field f) -> std::optional<std::string_view> {
    const auto it = req.find(f);
    if (it == req.end()) return std::nullopt;
    return std::string_view(it->value().data(), it->value().size());
  };
  const bool upgrade = beast::websocket::is_upgrade(req) && path_of(req) == "/ws";
  const AccessDecision d = check_access(
      ctx.access, {header(http::field::host).value_or(""), header(http::field::origin),
                   header(http::field::authorization).value_or(""), upgrade, ctx.tls});
  Routed r;
  if (d.status != 200) {
    ctx.log->info("refused {} {}: {}", std::string(req.method_string()),
                  std::string(req.target().data(), req.target().size()), d.reason);
    r.response = text_response(req, http::int_to_status(unsigned(d.status)), d.reason);
    if (d.status == 401)
      r.response.set(http::field::www_authenticate, "Basic realm=\"voxl\", charset=\"UTF-8\"");
    return r;
  }
  if (upgrade) {
    r.upgrade = true;
    r.role = d.role;
    return r;
  }
  const std::string_view path = path_of(req);
  if (const auto it = ctx.endpoints.find(std::string(path)); it != ctx.endpoints.end()) {
    const Endpoint& e = it->second;
    const std::string method(req.method_string());
    if (std::find(e.methods.begin(), e.methods.end(), method) == e.methods.end()) {
      std::string allow;
      for (const auto& m : e.methods) allow += (allow.empty() ? "" : ", ") + m;
      r.response = text_response(req, http::status::method_not_allowed, "method " + method + " not allowed here");
      r.response.set(http::field::allow, allow);
      return r;
    }
    const std::string_view target(req.target().data(), req.target().size());
    const size_t q = target.find('?');
    r.endpoint = &e;
    r.call.method = method;
    r.call.path = std::string(path);
    r.call.query = q == std::string_view::npos ? std::string() : std::string(target.substr(q + 1));
    r.call.body = req.body();
    r.call.view_only = d.role == Role::kViewOnly;
    const auto origin = header(http::field::origin);
    r.call.foreign_origin = origin && !origin_allowed(ctx.access, *origin, header(http::field::host).value_or(""), ctx.tls);
    return r;
  }
  r.response = answer(req, ctx);
  return r;
}

}  // namespace voxl::net
