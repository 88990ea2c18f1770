// HTTP routing and the access decisions before it (net::route_request):
// the input's lines are the method, target, Host, Origin, Authorization,
// If-None-Match, Accept-Encoding and Connection/Upgrade of a request (an
// empty line leaves that header out), the rest its body. The text is put
// through Beast's request parser, as a session does, and what parses is
// routed with settings picked by the first byte; the response must
// serialise and parse back, and a few rules are checked on it.
// In If-None-Match, "$ETAG" stands for the current tag of the requested
// asset, so the fuzzer reaches the 304 path.
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/sinks/null_sink.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "net/embedded_assets.h"
#include "net/http_routes.h"
#include "stream/fanout/hub.h"

namespace VOXL_TEST_FILE {

using namespace voxl;
namespace beast = boost::beast;
namespace http = beast::http;

std::vector<std::string_view> lines_of(std::string_view s, size_t n, std::string_view& rest) {
  std::vector<std::string_view> out;
  while (out.size() < n) {
    const size_t nl = s.find('\n');
    out.push_back(s.substr(0, nl));
    s = nl == std::string_view::npos ? std::string_view() : s.substr(nl + 1);
  }
  rest = s;
  return out;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// The response as it goes on the wire, parsed back as a client would.
void check_response(const net::Response& res, bool head) {
  std::ostringstream wire;
  wire << res;
  const std::string text = wire.str();
  http::response_parser<http::string_body> p;
  p.body_limit(64 * 1024 * 1024);
  if (head) p.skip(true);
  beast::error_code ec;
  size_t used = 0;
  while (used < text.size() && !p.is_done()) {
    const size_t n = p.put(boost::asio::buffer(text.data() + used, text.size() - used), ec);
    if (ec == http::error::need_more) ec = {};
    FUZZ_CHECK(!ec);
    if (n == 0) break;
    used += n;
  }
  if (!p.is_done() && !head) {
    p.put_eof(ec);
    FUZZ_CHECK(!ec);
  }
  FUZZ_CHECK(p.get().result_int() == res.result_int());
}

}  // namespace

VOXL_FUZZ_TARGET(http_routes) {
  static stream::Hub hub{stream::PipelineControls{}};
  static const Logger log =
      std::make_shared<spdlog::logger>("fuzz", std::make_shared<spdlog::sinks::null_sink_mt>());
  if (size < 1) return 0;
  const uint8_t flags = data[0];
  std::string_view body;
  const auto f = lines_of(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), 8, body);
  const std::string_view method = f[0], target = f[1], host = f[2], origin = f[3], auth = f[4], inm = f[5],
                         accept = f[6], upgrade = f[7];

  const std::string path(target.substr(0, target.find('?')));
  const net::Asset* asset = net::find_asset(path);
  std::string inm_text(inm);
  if (asset) inm_text = replace_all(inm_text, "$ETAG", asset->etag);

  std::string raw = std::string(method.empty() ? "GET" : method) + " " + std::string(target.empty() ? "/" : target) +
                    " HTTP/1.1\r\n";
  const auto add = [&raw](std::string_view name, std::string_view value) {
    if (!value.empty()) raw += std::string(name) + ": " + std::string(value) + "\r\n";
  };
  add("Host", host);
  add("Origin", origin);
  add("Authorization", auth);
  add("If-None-Match", inm_text);
  add("Accept-Encoding", accept);
  if (!upgrade.empty())
    raw += "Connection: Upgrade\r\nUpgrade: " + std::string(upgrade) +
           "\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
  raw += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  raw += body;

  http::request_parser<http::string_body> parser;
  parser.body_limit(1 << 20);
  parser.header_limit(16 * 1024);
  beast::error_code ec;
  const size_t used = parser.put(boost::asio::buffer(raw), ec);
  if (ec || !parser.is_done() || used != raw.size()) {
    check_response(net::bad_request_response(ec ? ec.message() : "incomplete"), false);
    return 0;
  }
  net::Request req = parser.release();  // route_request takes the body of an endpoint request

  net::AccessSettings access;
  access.loopback_only = flags & 1;
  access.basic_auth = flags & 2;
  access.user = "user";
  access.password = "secret";
  if (flags & 4) access.viewonly_password = "watch";
  if (flags & 8) access.allowed_origins = {"https://example.com"};
  if (flags & 64) access.token = "0123456789abcdef0123456789abcdef";
  if (flags & 128) access.allowed_hosts = {"desk.example"};
  access.own_hosts = {"voxl-host"};
  net::SessionContext ctx;
  ctx.settings.access = access;
  ctx.settings.tls = (flags & 16) != 0;
  ctx.viewers.hub = &hub;
  ctx.viewers.log = log;
  ctx.log = log;
  if (flags & 32) ctx.viewers.stream_figures = [] { return stream::StreamFigures{}; };
  ctx.settings.endpoints["/screenshot"] = {{"GET", "HEAD"}, nullptr};
  ctx.settings.endpoints["/input"] = {{"POST"}, nullptr};

  // The peer: each fuzz input comes from one of a few addresses, so the
  // back-off table sees repeated failures as well as new addresses.
  const std::string peer = "192.0.2." + std::to_string(size % 5);
  const std::string sent_body = req.body();
  net::Routed r = net::route_request(req, ctx, peer);
  const std::string_view req_path = std::string_view(req.target()).substr(0, req.target().find('?'));
  if (r.upgrade) {
    FUZZ_CHECK(req_path == "/ws");
    FUZZ_CHECK(!access.basic_auth || r.role != net::Role::kNone);
    return 0;
  }
  if (r.endpoint) {
    FUZZ_CHECK(r.call.path == req_path && ctx.settings.endpoints.count(r.call.path));
    FUZZ_CHECK(r.call.body == sent_body);
    const auto& methods = ctx.settings.endpoints[r.call.path].methods;
    FUZZ_CHECK(std::find(methods.begin(), methods.end(), r.call.method) != methods.end());
    const std::string_view t(req.target());
    FUZZ_CHECK(r.call.query == (t.find('?') == std::string_view::npos ? "" : t.substr(t.find('?') + 1)));
    if (!req.count(http::field::origin)) FUZZ_CHECK(!r.call.foreign_origin);
    return 0;
  }
  const int status = r.response.result_int();
  FUZZ_CHECK(status >= 200 && status <= 599);
  if (status == 200 && access.basic_auth) FUZZ_CHECK(req.count(http::field::authorization));
  if (status == 401) FUZZ_CHECK(r.response.count(http::field::www_authenticate));
  // An asset asked for with its own tag (the plain one, without gzip) is not sent again.
  if (asset && status == 200 && std::string_view(r.response[http::field::etag]) == asset->etag &&
      std::string_view(req[http::field::if_none_match]) == asset->etag)
    FUZZ_CHECK(false);
  if (status == 304) FUZZ_CHECK(r.response.body().empty() && r.response.count(http::field::etag));
  check_response(r.response, req.method() == http::verb::head || status == 304);
  return 0;
}
