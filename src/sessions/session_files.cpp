#include "sessions/session_files.h"

#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "base/json_fields.h"
#include "base/json_text.h"

namespace voxl::sessions {

using json = nlohmann::json;

namespace {

constexpr size_t kMaxDocumentBytes = 256 * 1024;  // a head or a sidecar, at most
constexpr size_t kMaxDepth = 8;
constexpr int64_t kMaxMs = int64_t(1) << 50;       // about 35000 years
constexpr uint64_t kMaxBytes = uint64_t(1) << 50;

bool digits(std::string_view s) {
  for (const char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool lower_hex(std::string_view s) {
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string numbered(int index, const char* suffix) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%s", index, suffix);
  return buf;
}

// The object `text` holds, or a discarded value with `error` set.
json object_of(std::string_view text, std::string& error) {
  if (text.size() > kMaxDocumentBytes) {
    error = "larger than " + std::to_string(kMaxDocumentBytes) + " bytes";
    return json(json::value_t::discarded);
  }
  if (!json_depth_within(text, kMaxDepth)) {
    error = "nested too deeply";
    return json(json::value_t::discarded);
  }
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not a JSON object";
    return json(json::value_t::discarded);
  }
  return j;
}

}  // namespace

bool valid_session_id(std::string_view id) {
  return id.size() == 23 && digits(id.substr(0, 8)) && id[8] == 'T' && digits(id.substr(9, 6)) && id[15] == 'Z' &&
         id[16] == '-' && lower_hex(id.substr(17));
}

std::string session_id(int64_t unix_ms, uint32_t random) {
  const std::time_t t = std::time_t(unix_ms / 1000);
  std::tm tm{};
#ifdef _WIN32
  gmtime_s(&tm, &t);
#else
  gmtime_r(&t, &tm);
#endif
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d%02d%02dT%02d%02d%02dZ-%06x", (tm.tm_year + 1900) % 10000, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, unsigned(random & 0xffffffu));
  return buf;
}

std::string segment_video(int index) { return numbered(index, ".mp4"); }
std::string segment_part(int index) { return numbered(index, ".mp4.part"); }
std::string segment_sidecar(int index) { return numbered(index, ".json"); }

std::optional<int> segment_index(std::string_view name, std::string_view suffix) {
  if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) return std::nullopt;
  const std::string_view number = name.substr(0, name.size() - suffix.size());
  if (number.size() < 4 || number.size() > 5 || !digits(number)) return std::nullopt;
  const int n = std::stoi(std::string(number));
  if (n < 1 || n > kMaxSegments || numbered(n, "") != number) return std::nullopt;
  return n;
}

std::string head_text(const SessionHead& head) {
  return json_text(json{{"id", head.id}, {"started_ms", head.started_ms}}) + "\n";
}

std::string sidecar_text(const SegmentInfo& s) {
  return json_text(json{{"index", s.index},
                        {"start_ms", s.start_ms},
                        {"duration_ms", s.duration_ms},
                        {"bytes", s.bytes},
                        {"frames", s.frames},
                        {"width", s.width},
                        {"height", s.height},
                        {"users", s.users},
                        {"ended", s.ended}}) +
         "\n";
}

std::optional<SessionHead> parse_head(std::string_view text, std::string& error) {
  const json j = object_of(text, error);
  if (j.is_discarded()) return std::nullopt;
  JsonFields f(j);
  const auto id = f.string("id", 64);
  const auto started = f.integer("started_ms", 0, kMaxMs);
  if (!f.ok() || !id || !started || !valid_session_id(*id)) {
    error = "not a session's head (id and started_ms)";
    return std::nullopt;
  }
  return SessionHead{std::string(*id), *started};
}

std::optional<SegmentInfo> parse_sidecar(std::string_view text, std::string& error) {
  const json j = object_of(text, error);
  if (j.is_discarded()) return std::nullopt;
  JsonFields f(j);
  SegmentInfo s;
  const auto index = f.integer("index", 1, kMaxSegments);
  const auto start = f.integer("start_ms", 0, kMaxMs);
  const auto duration = f.integer("duration_ms", 0, kMaxMs);
  const auto bytes = f.integer("bytes", 0, int64_t(kMaxBytes));
  const auto frames = f.integer("frames", 0, int64_t(kMaxBytes));
  const auto width = f.integer("width", 0, 1 << 16);
  const auto height = f.integer("height", 0, 1 << 16);
  const auto ended = f.string("ended", 64);
  if (!f.ok() || !index || !start || !duration || !bytes || !frames || !width || !height) {
    error = "not a segment's sidecar" + std::string(f.ok() ? "" : std::string(" (") + f.bad_field() + ")");
    return std::nullopt;
  }
  s.index = int(*index);
  s.start_ms = *start;
  s.duration_ms = *duration;
  s.bytes = uint64_t(*bytes);
  s.frames = uint64_t(*frames);
  s.width = int(*width);
  s.height = int(*height);
  if (ended) s.ended = std::string(*ended);
  if (const auto it = j.find("users"); it != j.end()) {
    if (!it->is_array() || it->size() > kMaxUsers) {
      error = "a segment's users are not a list of at most " + std::to_string(kMaxUsers) + " names";
      return std::nullopt;
    }
    for (const json& u : *it) {
      if (!u.is_string() || u.get_ref<const std::string&>().size() > kMaxUserBytes) {
        error = "a segment's user is not a name";
        return std::nullopt;
      }
      s.users.push_back(u.get<std::string>());
    }
  }
  return s;
}

std::string event_line(int64_t t_ms, std::string_view event, const json& fields) {
  json line = json::object();
  line["t_ms"] = t_ms;
  line["event"] = std::string(event);
  if (fields.is_object())
    for (const auto& [k, v] : fields.items())
      if (k != "t_ms" && k != "event") line[k] = v;
  // nlohmann keeps keys sorted; the reader does not care about the order.
  return json_text(line) + "\n";
}

EventsRead parse_events(std::string_view text, size_t max_events) {
  EventsRead r;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty()) continue;
    if (r.events.size() >= max_events) {
      r.truncated = true;
      break;
    }
    std::string error;
    json j = object_of(line, error);
    if (j.is_discarded()) {
      ++r.skipped;
      continue;
    }
    JsonFields f(j);
    const auto t = f.integer("t_ms", 0, kMaxMs);
    const auto event = f.string("event", 64);
    if (!f.ok() || !t || !event) {
      ++r.skipped;
      continue;
    }
    r.events.push_back(std::move(j));
  }
  return r;
}

}  // namespace voxl::sessions
