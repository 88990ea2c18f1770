// The recorded sessions' folder as the disk holds it (sessions/session_files.h
// describes the layout): reading a file whole within a bound, scanning it
// for the retention rules, removing what they say, and the JSON answers of
// /sessions/list and /sessions/info. Every path goes through the folder's
// FileJail; ids and names are checked before they are used.
//
// Threads: blocking; call on a disk thread. Keeps no state.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/logging.h"
#include "platform/file_jail.h"
#include "sessions/retention.h"
#include "sessions/session_files.h"

namespace voxl::sessions {

inline constexpr size_t kMaxSessionsListed = 2000;   // the newest
// Entries of the sessions folder looked at, at most: far more sessions than
// any retention keeps. Past it, the entries the system lists last are not
// seen by the list or by retention (nothing says so yet).
inline constexpr size_t kMaxFolderEntries = 1000000;
inline constexpr size_t kMaxEntriesPerSession = 4 * kMaxSegments;
inline constexpr size_t kMaxEventsRead = 20000;
inline constexpr size_t kMaxEventsBytes = 8 << 20;

// `rel` beneath the jail's root, at most `max_bytes` (nullopt with `error`
// when it is missing, not a file, or longer and `cut` is null; with `cut`,
// a longer file's first `max_bytes` and *cut set).
std::optional<std::string> read_small_file(const platform::FileJail& jail, const std::string& rel, size_t max_bytes,
                                           std::string& error, bool* cut = nullptr);

// Every session there is, for the retention rules.
std::vector<StoredSession> scan_sessions(const platform::FileJail& jail);

// Removes what plan_retention chose, logging each; a removal that fails is
// logged and the rest go on.
void apply_removals(const platform::FileJail& jail, const std::vector<Removal>& removals, const Logger& log);

// What the live session is doing, from the recorder (loop side).
struct LiveState {
  std::string id;       // "" when none
  std::string stopped;  // why it stopped recording early, "" when it did not
  // Sessions whose last segments are still being written (the live one's
  // viewers left a moment ago): listed as live until they are on the disk.
  std::set<std::string> writing;
};

// GET /sessions/list's answer: the newest kMaxSessionsListed sessions.
nlohmann::json list_sessions(const platform::FileJail& jail, const LiveState& live);

// GET /sessions/info's answer for `id` (checked), or nullopt with a 404's
// `error`.
std::optional<nlohmann::json> session_info(const platform::FileJail& jail, const std::string& id,
                                           const LiveState& live, std::string& error);

}  // namespace voxl::sessions
