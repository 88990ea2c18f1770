#include "sessions/retention.h"

#include <algorithm>

namespace voxl::sessions {

namespace {

std::string size_text(uint64_t bytes) {
  if (bytes % (uint64_t(1) << 30) == 0) return std::to_string(bytes >> 30) + " GB";
  return std::to_string(bytes >> 20) + " MB";
}

}  // namespace

std::vector<Removal> plan_retention(std::vector<StoredSession> sessions, std::string_view live, int64_t now_ms,
                                    const RetentionRules& rules) {
  std::sort(sessions.begin(), sessions.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  uint64_t total = 0;
  for (const StoredSession& s : sessions) {
    total += s.other_bytes;
    for (const StoredSegment& g : s.segments) total += g.bytes;
  }
  const std::string age_text = "older than " + std::to_string(rules.max_age_ms / 86400000) + " days";
  std::vector<Removal> out;
  for (StoredSession& s : sessions) {
    const bool is_live = s.id == live;
    std::sort(s.segments.begin(), s.segments.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
    size_t removed = 0;
    std::string why;
    std::vector<Removal> mine;
    for (const StoredSegment& g : s.segments) {
      const bool old = rules.max_age_ms > 0 && now_ms - g.modified_ms > rules.max_age_ms;
      const bool over = rules.max_bytes > 0 && total > rules.max_bytes;
      if (!old && !over) break;  // the rest are newer
      why = old ? age_text : "the recordings passed " + size_text(rules.max_bytes);
      mine.push_back(Removal{Removal::Kind::kSegment, s.id, g.index, {}, why});
      total -= std::min(total, g.bytes);
      ++removed;
    }
    if (!is_live && s.segments.empty()) {
      const bool old = rules.max_age_ms > 0 && now_ms - s.modified_ms > rules.max_age_ms;
      const bool over = rules.max_bytes > 0 && total > rules.max_bytes;
      if (old || over) {
        total -= std::min(total, s.other_bytes);
        out.push_back(Removal{Removal::Kind::kSession, s.id, 0, {},
                              old ? age_text : "the recordings passed " + size_text(rules.max_bytes)});
        continue;
      }
    } else if (!is_live && removed == s.segments.size()) {
      total -= std::min(total, s.other_bytes);
      out.push_back(Removal{Removal::Kind::kSession, s.id, 0, {}, why});
      continue;
    }
    out.insert(out.end(), mine.begin(), mine.end());
    if (!is_live)
      for (const std::string& f : s.leftovers)
        out.push_back(Removal{Removal::Kind::kLeftover, s.id, 0, f, "an unfinished segment (voxl stopped while writing it)"});
  }
  return out;
}

}  // namespace voxl::sessions
