// The agent endpoints' query parser, its typed getters and the JSON error
// reply they lead to. The input is used twice: as a raw query string, and
// as a recipe for name/value pairs that are percent-encoded, parsed back
// and read through the getters (a round trip).
#include <fuzzer/FuzzedDataProvider.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "net/query.h"
#include "fuzz_check.h"
#include "net/endpoint.h"

namespace VOXL_TEST_FILE {

using voxl::net::ParamError;
using voxl::net::Query;

// The error reply must be valid UTF-8 JSON naming the parameter.
void check_error_reply(const ParamError& e) {
  const voxl::net::EndpointReply r = voxl::net::json_error(400, e.parameter, e.parameter + " " + e.message);
  FUZZ_CHECK(r.status == 400);
  const nlohmann::json j = voxl::fuzz::parse_json_or_abort(r.body);
  FUZZ_CHECK(j.is_object() && j.contains("error") && j["error"].is_string());
  FUZZ_CHECK(j.contains("parameter") == !e.parameter.empty());
  if (!e.parameter.empty() && voxl::fuzz::valid_utf8(e.parameter)) FUZZ_CHECK(j["parameter"] == e.parameter);
}

void read_getters(const Query& q, const std::string& name) {
  ParamError e;
  int64_t i = -7;
  if (q.integer(name, -5, 1000, i, e)) {
    FUZZ_CHECK(i == -7 || (i >= -5 && i <= 1000));
    FUZZ_CHECK(q.has(name) || i == -7);
  } else {
    FUZZ_CHECK(q.has(name) && e.parameter == name);
    check_error_reply(e);
  }
  uint64_t u = 0;
  if (!q.unsigned_integer(name, u, e)) check_error_reply(e);
  bool f = false;
  if (!q.flag(name, f, e)) check_error_reply(e);
  std::optional<voxl::Rect> r;
  if (q.rect(name, r, e)) {
    if (r) FUZZ_CHECK(r->x >= 0 && r->y >= 0 && r->width > 0 && r->height > 0 && r->x <= 65535 &&
                      r->width <= 65535);
  } else {
    check_error_reply(e);
  }
}

std::string percent_encode(std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = uint8_t(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '-' || u == '.' ||
        u == '_' || u == ',') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

void raw(std::string_view text) {
  ParamError e;
  const auto q = Query::parse(text, e);
  if (!q) {
    check_error_reply(e);
    return;
  }
  for (const char* name : {"idle", "change", "region", "timeout", "since", "seconds", "x", ""}) read_getters(*q, name);
  if (const auto u = q->unknown({"idle", "change"})) {
    FUZZ_CHECK(q->has(*u));
    ParamError unknown{*u, "unknown parameter"};
    check_error_reply(unknown);
  }
}

void round_trip(FuzzedDataProvider& in) {
  std::map<std::string, std::string> want;
  std::string text;
  const size_t n = in.ConsumeIntegralInRange<size_t>(0, 8);
  for (size_t i = 0; i < n && in.remaining_bytes() > 0; ++i) {
    std::string name = in.ConsumeRandomLengthString(16);
    std::string value = in.ConsumeRandomLengthString(32);
    if (name.empty() || !want.emplace(name, value).second) continue;
    if (!text.empty()) text += in.ConsumeBool() ? "&&" : "&";
    text += percent_encode(name);
    if (!value.empty() || in.ConsumeBool()) text += "=" + percent_encode(value);
  }
  ParamError e;
  const auto q = Query::parse(text, e);
  FUZZ_CHECK(q.has_value());
  std::vector<std::string> known;
  for (const auto& entry : want) {
    const std::string& name = entry.first;
    const std::string& value = entry.second;
    FUZZ_CHECK(q->has(name));
    known.push_back(name);
    int64_t v = 0;
    int64_t expect = 0;
    const bool is_number = !value.empty() && [&] {
      const auto r = std::from_chars(value.data(), value.data() + value.size(), expect);
      return r.ec == std::errc() && r.ptr == value.data() + value.size();
    }();
    const bool ok = q->integer(name, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), v, e);
    FUZZ_CHECK(ok == is_number);
    if (ok) FUZZ_CHECK(v == expect);
    read_getters(*q, name);
  }
  FUZZ_CHECK(!q->unknown(known).has_value());
  if (!known.empty()) {
    const std::string dropped = known.back();
    known.pop_back();
    FUZZ_CHECK(q->unknown(known) == dropped);
  }
}

}  // namespace

VOXL_FUZZ_TARGET(query) {
  raw(std::string_view(reinterpret_cast<const char*>(data), size));
  FuzzedDataProvider in(data, size);
  round_trip(in);
  return 0;
}
