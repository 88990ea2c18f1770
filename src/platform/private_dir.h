// Private per-user places for voxl's sockets, FIFOs and secrets.
//
// POSIX: the user's $XDG_RUNTIME_DIR when it is usable, otherwise a
// directory under /tmp created and checked by us. "Private" means a real
// directory (not a symbolic link) owned by voxl's user with no group or
// other permissions.
// Windows: directories under the user's %LOCALAPPDATA%\Temp (GetTempPathW),
// created with CreateDirectoryW and the default security, which in the user
// profile grants only the user, SYSTEM and Administrators. The check there
// is: a real directory, not a reparse point (junction or symbolic link),
// owned by the current user's SID (GetNamedSecurityInfoW); ACL entries are
// not inspected. usable_xdg_runtime_dir() is always nullopt there.
//
// Pure file-system checks and creation; any thread. Reads the environment
// (XDG_RUNTIME_DIR, TMPDIR; TMP/TEMP on Windows) at each call. Paths are UTF-8.
#pragma once

#include <optional>
#include <string>

namespace voxl::platform {

// Empty when `path` is a private directory, else why not ("is a symbolic
// link", "is owned by uid 0", "mode 0755 lets others in", ...).
std::string private_dir_problem(const std::string& path);

// $XDG_RUNTIME_DIR when it is set, absolute and private; nullopt otherwise
// (always on Windows).
std::optional<std::string> usable_xdg_runtime_dir();

// POSIX: $XDG_RUNTIME_DIR when usable, else /tmp/voxl-<uid>, created with
// mode 0700 when missing. Windows: <temp>\voxl. Refused (std::runtime_error
// saying why) when it exists but is not private (another user may have made
// it first).
std::string user_runtime_dir();

// A new private directory named `prefix` plus a random suffix under
// $XDG_RUNTIME_DIR when usable, else under $TMPDIR or /tmp (POSIX: mkdtemp,
// mode 0700; Windows: under the user's temporary folder). Throws
// std::runtime_error when it cannot be made.
std::string make_private_temp_dir(const std::string& prefix);

}  // namespace voxl::platform
