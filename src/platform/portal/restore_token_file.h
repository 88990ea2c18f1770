// Where the desktop portal's restore token is kept between runs, so that
// the desktop asks its user once: $XDG_STATE_HOME/voxl/portal-restore-token
// (~/.local/state/voxl/... when XDG_STATE_HOME is unset), the folder 0700
// and the file 0600. The file is another's input on the next run: a token
// is taken only when it is printable ASCII of at most kMaxTokenBytes.
//
// Threads: any. Blocking: a small file's read or write.
#pragma once

#include <string>

namespace voxl::platform::portal {

// The token file's path; empty when neither XDG_STATE_HOME nor HOME is an
// absolute path.
std::string restore_token_path();
// The kept token, or empty (no file, unreadable, or not a token).
std::string read_restore_token(const std::string& path);
// Keeps `token` (written whole beside the old file, then renamed over it);
// false with `why` when it cannot be.
bool write_restore_token(const std::string& path, const std::string& token, std::string& why);
// Whether `text` may be a token: 1 to kMaxTokenBytes printable ASCII bytes.
bool plausible_token(const std::string& text);

}  // namespace voxl::platform::portal
