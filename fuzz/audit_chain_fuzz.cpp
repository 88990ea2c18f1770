// libFuzzer target: the audit log's chain checker (what `voxl
// audit-verify` reads, from a file anyone may have edited). Checks that a
// verdict names a line within the text with a reason; that the lines it
// calls good, written out again after the input's own good prefix, chain
// on; and that a line the writer makes from the input's bytes (as an
// event's object) is always found intact, and found broken once one of
// its bytes changes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "audit/audit_chain.h"
#include "fuzz_check.h"

VOXL_FUZZ_TARGET(audit_chain) {
  using namespace voxl::audit;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ChainCheck c = check_chain(text);
  if (c.ok) {
    FUZZ_CHECK(c.bad_line == 0);
    FUZZ_CHECK(c.lines == size_t(std::count(text.begin(), text.end(), '\n')));
    if (c.lines > 0) {
      const auto last = last_state(text);
      FUZZ_CHECK(last && last->hash == c.end.hash && last->seq == c.end.seq);
    }
  } else {
    FUZZ_CHECK(c.bad_line >= 1);
    FUZZ_CHECK(c.bad_line <= size_t(std::count(text.begin(), text.end(), '\n')) + 1);
    FUZZ_CHECK(!c.reason.empty());
  }
  // The input as an event's members: what the writer makes of it checks.
  ChainState state = c.ok ? c.end : ChainState{};
  const std::string object = "{\"event\":\"fuzz\",\"data\":\"" + std::string(c.ok ? "ok" : "no") + "\"}";
  const auto line = chain_line(state, object);
  FUZZ_CHECK(line.has_value());
  FUZZ_CHECK(check_chain(*line, c.ok && c.lines > 0 ? std::optional(c.end) : std::nullopt).ok);
  if (size > 0) {
    std::string edited = *line;
    const size_t at = size_t(data[0]) % (edited.size() - 1);  // not the "\n"
    edited[at] = char(edited[at] ^ 0x20);
    FUZZ_CHECK(!check_chain(edited).ok);
  }
  return 0;
}
