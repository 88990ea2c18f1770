// Which recorded sessions and segments go (--record-sessions-days,
// --record-sessions-max-gb): the oldest first. A segment older than the
// age limit goes; while everything kept passes the size limit, the oldest
// segments go, the live session's too (but never the live session itself
// or the segment it is writing, which is not listed). A session whose
// segments went by the rules goes whole; one that never had a segment (its
// viewers left before the first picture, or the recording stopped at
// once) keeps its events until the same rules take it by its newest file;
// the live session never goes whole. A finished session's unfinished
// segment (a crash) goes with a note.
//
// Pure; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace voxl::sessions {

struct StoredSegment {
  int index = 0;
  uint64_t bytes = 0;       // its MP4 and its sidecar
  int64_t modified_ms = 0;  // when its MP4 was last written (Unix time)
};

struct StoredSession {
  std::string id;  // sessions sort by id, which begins with the UTC time
  std::vector<StoredSegment> segments;  // by index
  uint64_t other_bytes = 0;  // the head, the events, leftovers
  std::vector<std::string> leftovers;  // unfinished segments' files (NNNN.mp4.part)
  int64_t modified_ms = 0;  // the newest of its files (Unix time)
};

struct RetentionRules {
  int64_t max_age_ms = 0;  // 0: no limit
  uint64_t max_bytes = 0;  // 0: no limit
};

struct Removal {
  enum class Kind { kSession, kSegment, kLeftover } kind = Kind::kSession;
  std::string id;
  int segment = 0;    // kSegment
  std::string file;   // kLeftover
  std::string why;    // for the log: "older than 30 days", "over 50 GB", ...
};

// `sessions` in any order; `live` the session being recorded ("" none).
std::vector<Removal> plan_retention(std::vector<StoredSession> sessions, std::string_view live, int64_t now_ms,
                                    const RetentionRules& rules);

}  // namespace voxl::sessions
