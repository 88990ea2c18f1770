// libFuzzer target: what the recorded sessions' readers make of files in
// the sessions folder (sessions/session_files.h), which anyone with access
// to the folder may have edited. The same bytes are read as a head, a
// sidecar, an events file and a segment's file name. Checks that nothing
// throws, that whatever is accepted stays within the bounds the readers
// promise, and that what the writers make of an accepted value reads back
// the same.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_target.h"
#include "fuzz_check.h"
#include "sessions/session_files.h"

VOXL_FUZZ_TARGET(session_files) {
  using namespace voxl::sessions;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (const auto head = parse_head(text, error)) {
    FUZZ_CHECK(valid_session_id(head->id));
    const auto again = parse_head(head_text(*head), error);
    FUZZ_CHECK(again && again->id == head->id && again->started_ms == head->started_ms);
  } else {
    FUZZ_CHECK(!error.empty());
  }
  error.clear();
  if (const auto s = parse_sidecar(text, error)) {
    FUZZ_CHECK(s->index >= 1 && s->index <= kMaxSegments);
    FUZZ_CHECK(s->users.size() <= kMaxUsers);
    const auto again = parse_sidecar(sidecar_text(*s), error);
    FUZZ_CHECK(again && again->index == s->index && again->duration_ms == s->duration_ms &&
               again->users == s->users && again->bytes == s->bytes);
  } else {
    FUZZ_CHECK(!error.empty());
  }
  const EventsRead events = parse_events(text, 64);
  FUZZ_CHECK(events.events.size() <= 64);
  for (const auto& e : events.events) {
    FUZZ_CHECK(e.is_object() && e["t_ms"].is_number_integer() && e["event"].is_string());
    // Written out again, an event reads back (numbers may be written a
    // little longer than they came: far from the line's bound).
    const std::string line = event_line(e["t_ms"].get<int64_t>(), e["event"].get<std::string>(), e);
    FUZZ_CHECK(line.size() > 128 * 1024 || parse_events(line, 1).events.size() == 1);
  }
  for (const std::string_view suffix : {std::string_view(".mp4"), std::string_view(".json")}) {
    if (const auto i = segment_index(text, suffix)) {
      FUZZ_CHECK(*i >= 1 && *i <= kMaxSegments);
      FUZZ_CHECK((suffix == ".mp4" ? segment_video(*i) : segment_sidecar(*i)) == text);
    }
  }
  if (valid_session_id(text)) FUZZ_CHECK(size == 23 && text.find('/') == std::string_view::npos);
  return 0;
}
