// Private per-user places for voxl's sockets, FIFOs and secrets: the user's
// $XDG_RUNTIME_DIR when it is usable, otherwise a directory under /tmp
// created and checked by us. "Private" means a real directory (not a
// symbolic link) owned by voxl's user with no group or other permissions.
//
// Pure file-system checks and creation; any thread. Reads the environment
// (XDG_RUNTIME_DIR, TMPDIR) at each call.
#pragma once

#include <optional>
#include <string>

namespace voxl {

// Empty when `path` is a private directory, else why not ("is a symbolic
// link", "is owned by uid 0", "mode 0755 lets others in", ...).
std::string private_dir_problem(const std::string& path);

// $XDG_RUNTIME_DIR when it is set, absolute and private; nullopt otherwise.
std::optional<std::string> usable_xdg_runtime_dir();

// $XDG_RUNTIME_DIR when usable, else /tmp/voxl-<uid>, created with mode 0700
// when missing and refused (std::runtime_error saying why) when it exists
// but is not private (another user may have made it first).
std::string user_runtime_dir();

// A new directory of mode 0700 (mkdtemp) named `prefix`XXXXXX under
// $XDG_RUNTIME_DIR when usable, else under $TMPDIR or /tmp. Throws
// std::runtime_error when it cannot be made.
std::string make_private_temp_dir(const std::string& prefix);

}  // namespace voxl
