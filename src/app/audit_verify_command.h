// `voxl audit-verify FILE...`: checks audit logs (--audit-log) line by
// line: every line's hash against its text, every line against the one
// before it, and each file against the one before it when the rotated
// files are given oldest first (FILE.2 FILE.1 FILE). Says where the first
// broken line is and why. Exit code 0 when intact, 1 when not, 2 for a
// mistake in the command.
//
// Threads: the main thread, instead of the daemon.
#pragma once

#include <span>

namespace voxl::app {

int audit_verify_command(std::span<char* const> args);

}  // namespace voxl::app
