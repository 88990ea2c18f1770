#include "hostile_input.h"

#include <limits>

#include <nlohmann/json.hpp>

#include "raw_connection.h"

namespace voxl::testing {

namespace {

using json = nlohmann::json;

// Values of every JSON type and some awkward numbers; for any field at least
// one of them has the wrong type.
std::vector<json> awkward_values() {
  return {json("x"),
          json(""),
          json("1"),
          json(1),
          json(-1),
          json(1.5),
          json(1e308),
          json(-1e308),
          json(std::numeric_limits<uint64_t>::max()),
          json(std::numeric_limits<int64_t>::min()),
          json(4294967296ull),
          json(true),
          json(false),
          json(nullptr),
          json::array(),
          json::array({1, "a", nullptr}),
          json::object(),
          json::object({{"a", 1}}),
          json(std::string(1, '\0') + "nul")};
}

json example(const std::string& type) {
  if (type == "ack") return {{"type", "ack"}, {"id", 1}, {"decode_ms", 1.5}, {"hold_ms", 2.0}, {"queued", 0}};
  if (type == "keyframe") return {{"type", "keyframe"}, {"reason", "decoder error"}};
  if (type == "ping") return {{"type", "ping"}, {"t", 12.5}};
  if (type == "stats") return {{"type", "stats"}, {"enabled", false}};
  if (type == "key") return {{"type", "key"}, {"code", "KeyA"}, {"key", "a"}, {"down", false}, {"mods", 0}};
  if (type == "text") return {{"type", "text"}, {"text", "a"}};
  if (type == "move") return {{"type", "move"}, {"x", 10}, {"y", 10}};
  if (type == "button")
    return {{"type", "button"}, {"button", 1}, {"down", false}, {"x", 10}, {"y", 10}, {"mods", 0}};
  if (type == "scroll") return {{"type", "scroll"}, {"dx", 0}, {"dy", 1}, {"unit", "notch"}, {"x", 10}, {"y", 10}};
  if (type == "release") return {{"type", "release"}};
  if (type == "settings") return {{"type", "settings"}, {"max_fps", 30}, {"max_kbps", 5000}, {"name", "a"}};
  if (type == "control") return {{"type", "control"}, {"action", "grant"}, {"to", 1}};
  return {{"type", "clipboard"}, {"mime", "text/plain"}, {"text", "a"}, {"data", "YQ=="}};
}

}  // namespace

std::vector<std::string> client_message_types() {
  return {"ack",    "keyframe", "ping",      "stats",    "key",    "text", "move",
          "button", "scroll",   "release",   "clipboard", "settings", "control"};
}

std::vector<std::string> wrong_type_messages() {
  std::vector<std::string> out{R"({"type":"ping","t":"x"})", R"({"type":"stats","enabled":1})"};
  const auto values = awkward_values();
  for (const auto& type : client_message_types()) {
    const json base = example(type);
    for (const auto& item : base.items()) {
      const std::string field = item.key();
      for (const auto& v : values) {
        json m = base;
        m[field] = v;
        // dump() is fine here: the test's own values are valid UTF-8.
        out.push_back(m.dump());
      }
    }
    // And every field missing at once.
    out.push_back(json{{"type", type}}.dump());
  }
  return out;
}

std::string Prng::bytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t v = next();
    for (size_t j = 0; j < 8 && i + j < n; ++j) s[i + j] = char(v >> (8 * j));
  }
  return s;
}

std::string Prng::invalid_utf8() {
  static const char* const kBad[] = {"\xff", "\xfe", "\x80", "\xbf", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                                     "\xf4\x90\x80\x80", "\xc3", "\xe2\x82", "\xf0\x9f\x98"};
  std::string s = "a";
  s += kBad[below(std::size(kBad))];
  if (below(2)) s += kBad[below(std::size(kBad))];
  s += "b";
  return s;
}

std::vector<HttpCase> malformed_http_requests(uint64_t seed, int count, uint16_t port) {
  Prng r(seed);
  const std::string host = "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
  const std::vector<std::string> paths{"/", "/screenshot", "/wait", "/record", "/input", "/ws", "/app.js", "/nope"};
  const auto percent = [](const std::string& raw) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string s;
    for (unsigned char c : raw) {
      s += '%';
      s += kHex[c >> 4];
      s += kHex[c & 15];
    }
    return s;
  };
  std::vector<HttpCase> out;
  using Then = HttpCase::Then;
  for (int i = 0; i < count; ++i) {
    const std::string& path = paths[r.below(paths.size())];
    switch (r.below(12)) {
      case 0: {  // a request line that is not one
        static const char* const kLines[] = {"GET\r\n", "GET / HTTP/9.9\r\n", "GET  / HTTP/1.1\r\n",
                                             "/ HTTP/1.1\r\n", "GET / HTTP/1.1 extra\r\n", "\x16\x03\x01\x02\x00\r\n",
                                             "GET /\x01\x7f HTTP/1.1\r\n", " \r\n"};
        out.push_back({"bad request line", std::string(kLines[r.below(std::size(kLines))]) + host + "\r\n"});
        break;
      }
      case 1: {  // headers over the limit: one long value or many of them
        const size_t n = 17 * 1024 + r.below(48 * 1024);
        const std::string head = r.below(2) ? "X-Pad: " + std::string(n, 'a') + "\r\n"
                                            : [&] {
                                                std::string many;
                                                while (many.size() < n) many += "X-" + std::to_string(many.size()) + ": b\r\n";
                                                return many;
                                              }();
        out.push_back({"huge headers", "GET " + path + " HTTP/1.1\r\n" + host + head + "\r\n"});
        break;
      }
      case 2: {  // bad percent-encoding
        static const char* const kBad[] = {"%", "%f", "%zz", "%%", "%0", "%g0", "%ff%", "a=%", "%=%"};
        const char* b = kBad[r.below(std::size(kBad))];
        const std::string q = r.below(2) ? std::string(b) : std::string("timeout=") + b;
        out.push_back({"bad percent-encoding", "GET " + path + "?" + q + " HTTP/1.1\r\n" + host + "\r\n"});
        break;
      }
      case 3: {  // invalid UTF-8, percent-encoded, as a name or a value
        const std::string bad = percent(r.invalid_utf8());
        static const char* const kNames[] = {"region", "timeout", "idle", "change", "since", "seconds", "fps"};
        const std::string q = r.below(2) ? bad + "=1" : std::string(kNames[r.below(std::size(kNames))]) + "=" + bad;
        out.push_back({"invalid UTF-8 parameter", "GET " + path + "?" + q + " HTTP/1.1\r\n" + host + "\r\n"});
        break;
      }
      case 4: {  // invalid UTF-8 raw in the target or a header
        const std::string bad = r.invalid_utf8();
        // A valid /record or /wait would record or wait: the headers go to pages.
        const std::string page = path == "/record" || path == "/wait" ? "/app.js" : path;
        out.push_back({"raw invalid UTF-8", r.below(2) ? "GET " + path + "?" + bad + " HTTP/1.1\r\n" + host + "\r\n"
                                                       : "GET " + page + " HTTP/1.1\r\n" + host + "Origin: http://" +
                                                             bad + "\r\nAuthorization: Basic " + bad + "\r\n\r\n"});
        break;
      }
      case 5: {  // unknown or unexpected methods
        static const char* const kMethods[] = {"FOO", "BREW", "PROPFIND", "DELETE", "PUT", "OPTIONS", "TRACE",
                                               "CONNECT", "get", "G\x01T"};
        out.push_back({"unknown method",
                       std::string(kMethods[r.below(std::size(kMethods))]) + " " + path + " HTTP/1.1\r\n" + host +
                           "Content-Length: 0\r\n\r\n"});
        break;
      }
      case 6: {  // a Content-Length that is wrong, huge or twice
        static const char* const kLengths[] = {"Content-Length: -1\r\n", "Content-Length: abc\r\n",
                                               "Content-Length: 99999999999999999999\r\n",
                                               "Content-Length: 1\r\nContent-Length: 2\r\n",
                                               "Content-Length: 1000000\r\n", "Content-Length: 0x10\r\n",
                                               "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n"};
        const char* cl = kLengths[r.below(std::size(kLengths))];
        out.push_back({"bad Content-Length",
                       "POST /input HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n" + cl + "\r\n[]"});
        break;
      }
      case 7: {  // a valid request, then garbage in the same segment
        out.push_back({"pipelined garbage",
                       "GET /nope HTTP/1.1\r\n" + host + "\r\n" + r.bytes(16 + r.below(512)) + "\r\n\r\n"});
        break;
      }
      case 8: {  // cut off mid-way, then closed
        const std::string full = "GET " + path + "?region=0,0,10,10 HTTP/1.1\r\n" + host + "Accept: */*\r\n\r\n";
        out.push_back({"cut off", full.substr(0, 1 + r.below(full.size() - 2)),
                       r.below(2) ? Then::kCloseEarly : Then::kResetEarly});
        break;
      }
      case 9: {  // slowloris: part of the headers, then the connection ends
        std::string partial = "GET " + path + " HTTP/1.1\r\n" + host;
        for (size_t k = 0, n = 1 + r.below(20); k < n; ++k) partial += "X-Slow-" + std::to_string(k) + ": z\r\n";
        out.push_back({"slowloris", partial, Then::kCloseEarly});
        break;
      }
      case 10: {  // bad chunked bodies and bodies of the wrong kind
        static const char* const kBodies[] = {"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
                                              "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nab\r\n",
                                              "Content-Length: 4\r\n\r\n\xff\xfe\xfd\xfc",
                                              "Content-Length: 9\r\n\r\n[[[[[[[[[",
                                              "Content-Length: 26\r\n\r\n{\"actions\":[{\"type\":1}]}  "};
        out.push_back({"bad body", "POST /input HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n" +
                                       kBodies[r.below(std::size(kBodies))]});
        break;
      }
      default: {  // binary garbage instead of a request
        out.push_back({"binary garbage", r.bytes(1 + r.below(2048)) + "\r\n\r\n"});
        break;
      }
    }
  }
  return out;
}

std::vector<WebSocketCase> malformed_websocket_messages(uint64_t seed, int count, size_t max_message) {
  Prng r(seed);
  const auto wrong = wrong_type_messages();
  const auto types = client_message_types();
  std::vector<WebSocketCase> out;
  using Effect = WebSocketCase::Effect;
  const auto mask = [&r] { return uint32_t(r.next()); };
  // One message just under the size limit and one just over it (these are
  // large and slow to parse, so there are only two).
  for (int k = 0; k < 2 && max_message > 2048; ++k) {
    const bool over = k % 2 != 0;
    const size_t n = over ? max_message + 1 + r.below(1024) : max_message - 64 - r.below(1024);
    out.push_back({over ? "over the limit" : "near the limit",
                   websocket_frame(1, R"({"type":"text","text":")" + std::string(n - 26, 'q') + "\"}", mask()),
                   over ? Effect::kServerCloses : Effect::kMayClose});
  }
  for (int i = 0; i < count; ++i) {
    const size_t pick = r.below(100);
    if (pick < 45) {  // a field of the wrong type
      out.push_back({"wrong type", websocket_frame(1, wrong[r.below(wrong.size())], mask()), Effect::kNone});
    } else if (pick < 55) {  // an unknown type, or none, or not an object
      static const char* const kOdd[] = {R"({"type":"nope"})", R"({"type":""})", R"({})", R"([])", R"(1)",
                                         R"("ping")", R"(null)", R"({"type":"ping")", R"({"type":"pingx","t":1})",
                                         R"({"TYPE":"ping"})", R"({"type":"ping","type":"stats"})", ""};
      out.push_back({"unknown type", websocket_frame(1, kOdd[r.below(std::size(kOdd))], mask()), Effect::kNone});
    } else if (pick < 62) {  // deeply nested JSON, alone or as a field
      const size_t depth = r.below(2) ? 100000 : 1000 + r.below(20000);
      const std::string nest = std::string(depth, '[') + (r.below(2) ? std::string(depth, ']') : "");
      const std::string text = r.below(2) ? nest
                               : R"({"type":")" + types[r.below(types.size())] + R"(","t":)" + nest + "}";
      out.push_back({"deep nesting", websocket_frame(1, text, mask()), Effect::kMayClose});
    } else if (pick < 66) {  // large JSON of every type (a valid frame)
      const std::string pad(64 * 1024 + r.below(256 * 1024), 'p');
      out.push_back({"large JSON",
                     websocket_frame(1, R"({"type":")" + types[r.below(types.size())] + R"(","pad":")" + pad + "\"}",
                                     mask()),
                     Effect::kMayClose});
    } else if (pick < 67) {  // JSON that is not text at all: NUL bytes, control characters
      out.push_back({"control characters", websocket_frame(1, std::string("{\"type\":\"ping\",\"t\":1}\0\x01", 23), mask()),
                     Effect::kNone});
    } else if (pick < 75) {  // text that is not UTF-8: a protocol error (the WebSocket layer may miss some)
      out.push_back({"bad UTF-8 text",
                     websocket_frame(1, R"({"type":"text","text":")" + r.invalid_utf8() + "\"}", mask()),
                     Effect::kMayClose});
    } else if (pick < 83) {  // binary garbage, some of it looking like a header
      std::string b = r.bytes(1 + r.below(3000));
      if (r.below(2)) b[0] = char(1 + r.below(4));
      out.push_back({"binary garbage", websocket_frame(2, b, mask()), Effect::kNone});
    } else if (pick < 88) {  // a frame that claims more than it carries, then the connection ends
      const std::string payload = r.bytes(10 + r.below(100));
      const uint64_t claim = payload.size() + 1 + r.below(100000);
      out.push_back({"truncated frame", websocket_frame(uint8_t(1 + r.below(2)), payload, mask(), true, claim),
                     Effect::kIncomplete});
    } else if (pick < 92) {  // a frame header claiming far more than any limit
      static const uint64_t kClaims[] = {uint64_t(1) << 40, (uint64_t(1) << 63) - 1, uint64_t(1) << 63,
                                         std::numeric_limits<uint64_t>::max()};
      out.push_back({"oversized frame",
                     websocket_frame(uint8_t(1 + r.below(2)), "xyz", mask(), true, kClaims[r.below(std::size(kClaims))]),
                     Effect::kServerCloses});
    } else if (pick < 95) {  // an unmasked client frame: a protocol error
      out.push_back({"unmasked frame", websocket_frame(1, R"({"type":"ping","t":1})", std::nullopt),
                     Effect::kServerCloses});
    } else if (pick < 98) {  // reserved opcodes, control frames too long or fragmented
      static const uint8_t kOps[] = {3, 7, 0xb, 0xf};
      std::string f = r.below(2) ? websocket_frame(kOps[r.below(std::size(kOps))], "x", mask())
                                 : websocket_frame(9, std::string(200, 'c'), mask());
      if (r.below(3) == 0) f = websocket_frame(9, "ping", mask(), false);
      out.push_back({"bad opcode", f, Effect::kServerCloses});
    } else {  // fragments that do not add up
      std::string f = websocket_frame(1, R"({"type":)", mask(), false) + websocket_frame(1, R"("ping"})", mask());
      out.push_back({"bad fragments", f, Effect::kServerCloses});
    }
  }
  return out;
}

}  // namespace voxl::testing
