// The audit log's lines, each chained to the one before by a hash, so that
// a line edited, removed, added or moved is found (voxl audit-verify). A
// line is one JSON object:
//
//   {"seq":12,"prev":"<64 hex>",<the event's members>,"hash":"<64 hex>"}
//
// where "hash" is SHA-256 (libsodium) over the line's bytes before
// `,"hash":` and "prev" is the line before's "hash" (64 zeros for the
// first line of a chain). The hash covers the exact bytes, so no JSON has
// to be written again the same way to check it. Rotation keeps one chain
// across files: a new file's first line follows the old file's last.
//
// Pure functions and data; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace voxl::audit {

inline constexpr size_t kHashHex = 64;
inline constexpr size_t kMaxLine = 64 * 1024;  // an event's line at most; longer is not written

// Where a chain stands: the last line's number and hash.
struct ChainState {
  uint64_t seq = 0;
  std::string hash = std::string(kHashHex, '0');
};

// The line (with its "\n") for an event given as a JSON object's text
// (`{"time":...,"event":...}`, members not named seq, prev or hash), and
// the state moved on to it. nullopt, the state unchanged, when `object` is
// not an object's text or the line would pass kMaxLine.
std::optional<std::string> chain_line(ChainState& state, std::string_view object);

struct ChainCheck {
  bool ok = true;
  size_t lines = 0;        // lines checked and found good
  size_t bad_line = 0;     // 1-based, in the text given; 0 when ok
  std::string reason;      // why that line is bad
  ChainState end;          // where the chain stands after the good lines
  bool started_fresh = false;  // the first line began a chain (prev of zeros)
};

// Checks `text`, whole lines each ending in "\n" (a last line without one
// is reported as cut off). With `from`, the first line must follow it (the
// file before, in a rotation); without, the first line is taken as it is.
ChainCheck check_chain(std::string_view text, const std::optional<ChainState>& from = std::nullopt);

// The chain state after the last line of `text` that is whole and well
// formed (its own hash right), for appending after a restart; nullopt when
// there is none.
std::optional<ChainState> last_state(std::string_view text);

}  // namespace voxl::audit
