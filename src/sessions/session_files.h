// What a recorded session (--record-sessions DIR) leaves on the disk, and
// reading it back. Each session is a folder of DIR named by its id, the UTC
// time it began and a random suffix ("20261205T101500Z-3f2a9c"), holding:
//   session.json    {"id", "started_ms"}: written once, when it begins
//   events.jsonl    one line per event, {"t_ms": since the start, "event", ...}
//   0001.mp4 ...    the segments: each a complete MP4 of a stretch of the
//                   stream, written as NNNN.mp4.part and renamed when its
//                   index is written, so a segment that is there plays
//   0001.json ...   each segment's sidecar, written before the rename:
//                   {"index", "start_ms", "duration_ms", "bytes", "frames",
//                    "width", "height", "users", "ended"}
// Nothing is ever rewritten, so a crash costs at most the segment being
// written. The parsers take what they read as hostile (an edited file, a
// planted one): they never throw, and bound every count and length.
//
// Pure; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace voxl::sessions {

inline constexpr std::string_view kHeadFile = "session.json";
inline constexpr std::string_view kEventsFile = "events.jsonl";
inline constexpr size_t kMaxUsers = 256;       // names kept per segment
inline constexpr size_t kMaxUserBytes = 256;   // a name's length at most
inline constexpr int kMaxSegments = 99999;     // per session

// 8 digits, 'T', 6 digits, 'Z', '-', 6 lower-case hex digits.
bool valid_session_id(std::string_view id);
// The id of a session begun at `unix_ms` (UTC), `random` giving its suffix.
std::string session_id(int64_t unix_ms, uint32_t random);

// "0001.mp4", "0001.mp4.part", "0001.json" for segment 1.
std::string segment_video(int index);
std::string segment_part(int index);
std::string segment_sidecar(int index);
// The index a name like "0001.mp4" (with `suffix` ".mp4") holds, or nullopt.
std::optional<int> segment_index(std::string_view name, std::string_view suffix);

struct SessionHead {
  std::string id;
  int64_t started_ms = 0;  // Unix time
};

struct SegmentInfo {
  int index = 0;
  int64_t start_ms = 0;     // from the session's start
  int64_t duration_ms = 0;
  uint64_t bytes = 0;
  uint64_t frames = 0;
  int width = 0, height = 0;
  std::vector<std::string> users;  // who watched during it ("" the built-in user)
  std::string ended;               // why it ended: "length", "resize", "end", "low-disk-space", ...
};

std::string head_text(const SessionHead& head);
std::string sidecar_text(const SegmentInfo& segment);
// nullopt, with `error` saying why, for anything but what the writers
// above write (extra fields are ignored; a wrong type, a bad id, a number
// out of range or too many users is not).
std::optional<SessionHead> parse_head(std::string_view text, std::string& error);
std::optional<SegmentInfo> parse_sidecar(std::string_view text, std::string& error);

// One line of events.jsonl (with its '\n'): `fields` with "t_ms" and
// "event" put first. Invalid UTF-8 in a field is replaced, never thrown.
std::string event_line(int64_t t_ms, std::string_view event, const nlohmann::json& fields);

struct EventsRead {
  std::vector<nlohmann::json> events;  // objects with an integer t_ms and a string event
  size_t skipped = 0;                  // lines that were not such an object (a torn last line)
  bool truncated = false;              // more than max_events
};
// The events of an events.jsonl text, at most `max_events`, in order.
EventsRead parse_events(std::string_view text, size_t max_events);

}  // namespace voxl::sessions
