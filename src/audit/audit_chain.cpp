#include "audit/audit_chain.h"

#include <sodium.h>

#include <nlohmann/json.hpp>

namespace voxl::audit {
namespace {

constexpr std::string_view kHashKey = ",\"hash\":\"";

std::string sha256_hex(std::string_view bytes) {
  unsigned char out[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(out, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(kHashHex);
  for (unsigned char b : out) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

bool is_hash(std::string_view s) {
  if (s.size() != kHashHex) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// One line taken apart: its own hash checked; seq and prev read.
struct ParsedLine {
  uint64_t seq = 0;
  std::string prev;
  std::string hash;
};

std::optional<ParsedLine> parse_line(std::string_view line, std::string& why) {
  const size_t at = line.rfind(kHashKey);
  if (at == std::string_view::npos || line.size() != at + kHashKey.size() + kHashHex + 2 ||
      line.substr(line.size() - 2) != "\"}") {
    why = "it does not end in a hash (not an audit line, or cut off)";
    return std::nullopt;
  }
  ParsedLine p;
  p.hash = std::string(line.substr(at + kHashKey.size(), kHashHex));
  if (!is_hash(p.hash)) {
    why = "its hash is not 64 hexadecimal digits";
    return std::nullopt;
  }
  if (sha256_hex(line.substr(0, at)) != p.hash) {
    why = "its hash does not match its text (the line was edited)";
    return std::nullopt;
  }
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("seq") || !j["seq"].is_number_unsigned() || !j.contains("prev") ||
      !j["prev"].is_string() || !is_hash(j["prev"].get<std::string>())) {
    why = "it lacks a sequence number or the previous line's hash";
    return std::nullopt;
  }
  p.seq = j["seq"].get<uint64_t>();
  p.prev = j["prev"].get<std::string>();
  return p;
}

}  // namespace

std::optional<std::string> chain_line(ChainState& state, std::string_view object) {
  if (object.size() < 2 || object.front() != '{' || object.back() != '}') return std::nullopt;
  const std::string_view members = object.substr(1, object.size() - 2);
  std::string line = "{\"seq\":" + std::to_string(state.seq + 1) + ",\"prev\":\"" + state.hash + "\"";
  if (!members.empty()) line += "," + std::string(members);
  const std::string hash = sha256_hex(line);
  line += std::string(kHashKey) + hash + "\"}\n";
  if (line.size() > kMaxLine) return std::nullopt;
  state.seq += 1;
  state.hash = hash;
  return line;
}

ChainCheck check_chain(std::string_view text, const std::optional<ChainState>& from) {
  ChainCheck c;
  std::optional<ChainState> before = from;
  size_t number = 0;
  while (!text.empty()) {
    ++number;
    const size_t nl = text.find('\n');
    const auto fail = [&](std::string why) {
      c.ok = false;
      c.bad_line = number;
      c.reason = std::move(why);
      return c;
    };
    if (nl == std::string_view::npos) return fail("it is cut off (no line end): a write that did not finish");
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    std::string why;
    const auto p = parse_line(line, why);
    if (!p) return fail(why);
    if (before) {
      if (p->prev != before->hash)
        return fail("it does not follow the line before it (a line was removed, added or moved)");
      if (p->seq != before->seq + 1)
        return fail("its number is " + std::to_string(p->seq) + ", not " + std::to_string(before->seq + 1));
    } else {
      c.started_fresh = p->prev == std::string(kHashHex, '0');
    }
    before = ChainState{p->seq, p->hash};
    ++c.lines;
  }
  if (before) c.end = *before;
  return c;
}

std::optional<ChainState> last_state(std::string_view text) {
  while (!text.empty() && text.back() != '\n') text.remove_suffix(1);  // a cut-off last line
  while (!text.empty()) {
    text.remove_suffix(1);
    const size_t start = text.rfind('\n');
    const std::string_view line = start == std::string_view::npos ? text : text.substr(start + 1);
    std::string why;
    if (const auto p = parse_line(line, why)) return ChainState{p->seq, p->hash};
    text = start == std::string_view::npos ? std::string_view() : text.substr(0, start + 1);
  }
  return std::nullopt;
}

}  // namespace voxl::audit
