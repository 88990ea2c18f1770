#include "sessions/session_store.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

namespace voxl::sessions {

using json = nlohmann::json;
using platform::DirEntry;
using platform::FileInfo;
using platform::FileJail;

namespace {

constexpr size_t kMaxSmallFile = 256 * 1024;

// The session folders there are, by id; a symlink named like one (planted:
// voxl makes none) is left alone, so no removal reaches through it.
std::vector<std::string> session_ids(const FileJail& jail) {
  std::vector<DirEntry> entries;
  bool truncated = false;
  std::vector<std::string> ids;
  if (!jail.list("", kMaxFolderEntries, entries, truncated)) return ids;
  for (const DirEntry& e : entries) {
    if (e.info.kind != FileInfo::Kind::kDirectory || !valid_session_id(e.name)) continue;
    std::error_code ec;
    if (std::filesystem::is_symlink(std::filesystem::path(jail.root()) / e.name, ec) || ec) continue;
    ids.push_back(e.name);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<DirEntry> entries_of(const FileJail& jail, const std::string& id) {
  std::vector<DirEntry> entries;
  bool truncated = false;
  (void)jail.list(id, kMaxEntriesPerSession, entries, truncated);
  return entries;
}

// A session's segments as their sidecars say, by index; those without a
// playable MP4 beside them are left out.
std::vector<SegmentInfo> segments_of(const FileJail& jail, const std::string& id, const std::vector<DirEntry>& entries) {
  std::set<int> videos;
  for (const DirEntry& e : entries)
    if (e.info.kind == FileInfo::Kind::kFile)
      if (const auto i = segment_index(e.name, ".mp4")) videos.insert(*i);
  std::vector<SegmentInfo> out;
  for (const int i : videos) {
    std::string error;
    const auto text = read_small_file(jail, id + "/" + segment_sidecar(i), kMaxSmallFile, error);
    if (!text) continue;
    auto s = parse_sidecar(*text, error);
    if (s && s->index == i) out.push_back(std::move(*s));
  }
  return out;
}

json segment_json(const SegmentInfo& s) {
  return json{{"index", s.index},   {"start_ms", s.start_ms}, {"duration_ms", s.duration_ms},
              {"bytes", s.bytes},   {"width", s.width},       {"height", s.height},
              {"frames", s.frames}, {"ended", s.ended}};
}

// The fields /sessions/list and /sessions/info share; nullopt when the
// session has no readable head.
std::optional<json> summary(const FileJail& jail, const std::string& id, const LiveState& live,
                            std::vector<SegmentInfo>& segments) {
  std::string error;
  const auto text = read_small_file(jail, id + "/" + std::string(kHeadFile), kMaxSmallFile, error);
  if (!text) return std::nullopt;
  const auto head = parse_head(*text, error);
  if (!head || head->id != id) return std::nullopt;
  const auto entries = entries_of(jail, id);
  segments = segments_of(jail, id, entries);
  uint64_t bytes = 0;
  for (const DirEntry& e : entries)
    if (e.info.kind == FileInfo::Kind::kFile) bytes += e.info.size;
  std::set<std::string> users;
  int64_t end_ms = 0;
  for (const SegmentInfo& s : segments) {
    users.insert(s.users.begin(), s.users.end());
    end_ms = std::max(end_ms, s.start_ms + s.duration_ms);
  }
  const bool is_live = id == live.id || live.writing.count(id) > 0;
  std::string stopped = id == live.id ? live.stopped : "";
  static const std::set<std::string> kUsual = {"end", "length", "resize", "stream", "stop"};
  if (!is_live && !segments.empty() && !kUsual.count(segments.back().ended))
    stopped = "the recording stopped early (" + segments.back().ended + ")";
  return json{{"id", id},
              {"started_ms", head->started_ms},
              {"ended_ms", is_live ? json(nullptr) : json(head->started_ms + end_ms)},
              {"duration_ms", end_ms},
              {"bytes", bytes},
              {"users", json(std::vector<std::string>(users.begin(), users.end()))},
              {"segments", segments.size()},
              {"live", is_live},
              {"stopped", stopped.empty() ? json(nullptr) : json(stopped)}};
}

}  // namespace

std::optional<std::string> read_small_file(const FileJail& jail, const std::string& rel, size_t max_bytes,
                                           std::string& error, bool* cut) {
  platform::OwnedFile file;
  FileInfo info;
  if (const auto st = jail.open_read(rel, file, info); !st) {
    error = st.message;
    return std::nullopt;
  }
  if (cut) *cut = info.size > max_bytes;
  if (info.size > max_bytes && !cut) {
    error = "'" + rel + "' is larger than " + std::to_string(max_bytes) + " bytes";
    return std::nullopt;
  }
  std::string text(size_t(std::min<uint64_t>(info.size, max_bytes)), '\0');
  size_t got = 0;
  if (!text.empty() && !platform::read_at(file.get(), text.data(), text.size(), 0, got, error)) return std::nullopt;
  text.resize(got);
  return text;
}

std::vector<StoredSession> scan_sessions(const FileJail& jail) {
  std::vector<StoredSession> out;
  for (const std::string& id : session_ids(jail)) {
    StoredSession s;
    s.id = id;
    std::map<int, StoredSegment> segments;
    for (const DirEntry& e : entries_of(jail, id)) {
      if (e.info.kind != FileInfo::Kind::kFile) continue;
      if (const auto i = segment_index(e.name, ".mp4")) {
        StoredSegment& g = segments[*i];
        g.index = *i;
        g.bytes += e.info.size;
        g.modified_ms = e.info.modified_ms;
      } else if (const auto j = segment_index(e.name, ".json"); j && segments.count(*j)) {
        segments[*j].bytes += e.info.size;
      } else if (segment_index(e.name, ".mp4.part")) {
        s.leftovers.push_back(e.name);
        s.other_bytes += e.info.size;
      } else {
        s.other_bytes += e.info.size;  // a sidecar listed before its MP4 is counted here: close enough
      }
      s.modified_ms = std::max(s.modified_ms, e.info.modified_ms);
    }
    for (auto& [i, g] : segments) s.segments.push_back(g);
    out.push_back(std::move(s));
  }
  return out;
}

void apply_removals(const FileJail& jail, const std::vector<Removal>& removals, const Logger& log) {
  for (const Removal& r : removals) {
    if (!valid_session_id(r.id)) continue;
    switch (r.kind) {
      case Removal::Kind::kSegment: {
        const auto st = jail.remove(r.id + "/" + segment_video(r.segment));
        (void)jail.remove(r.id + "/" + segment_sidecar(r.segment));
        if (!st) log->warn("recorded sessions: cannot remove segment {} of {}: {}", r.segment, r.id, st.message);
        else log->info("recorded sessions: removed segment {} of {} ({})", r.segment, r.id, r.why);
        break;
      }
      case Removal::Kind::kLeftover:
        if (segment_index(r.file, ".mp4.part")) {
          (void)jail.remove(r.id + "/" + r.file);
          log->info("recorded sessions: removed {}/{} ({})", r.id, r.file, r.why);
        }
        break;
      case Removal::Kind::kSession: {
        for (const DirEntry& e : entries_of(jail, r.id))
          if (e.info.kind == FileInfo::Kind::kFile) (void)jail.remove(r.id + "/" + e.name);
        std::error_code ec;
        std::filesystem::remove(std::filesystem::path(jail.root()) / r.id, ec);
        if (ec) log->warn("recorded sessions: cannot remove the session {}: {}", r.id, ec.message());
        else log->info("recorded sessions: removed the session {} ({})", r.id, r.why);
        break;
      }
    }
  }
}

json list_sessions(const FileJail& jail, const LiveState& live) {
  auto ids = session_ids(jail);
  const bool truncated = ids.size() > kMaxSessionsListed;
  json sessions = json::array();
  for (auto it = ids.rbegin(); it != ids.rend() && sessions.size() < kMaxSessionsListed; ++it) {
    std::vector<SegmentInfo> segments;
    if (auto s = summary(jail, *it, live, segments)) sessions.push_back(std::move(*s));
  }
  return json{{"sessions", std::move(sessions)}, {"truncated", truncated}};
}

std::optional<json> session_info(const FileJail& jail, const std::string& id, const LiveState& live,
                                 std::string& error) {
  std::vector<SegmentInfo> segments;
  auto s = valid_session_id(id) ? summary(jail, id, live, segments) : std::nullopt;
  if (!s) {
    error = "no recorded session '" + id + "'";
    return std::nullopt;
  }
  json list = json::array();
  for (const SegmentInfo& g : segments) list.push_back(segment_json(g));
  (*s)["segments"] = std::move(list);
  std::string why;
  bool cut = false;
  const auto text = read_small_file(jail, id + "/" + std::string(kEventsFile), kMaxEventsBytes, why, &cut);
  EventsRead events = text ? parse_events(*text, kMaxEventsRead) : EventsRead{};
  (*s)["events"] = std::move(events.events);
  (*s)["events_truncated"] = events.truncated || cut;
  return s;
}

}  // namespace voxl::sessions
