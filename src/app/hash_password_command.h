// `voxl hash-password [NAME [RIGHTS]]`: the tool that makes a users file's
// lines. The password is asked for twice without echo on a terminal, or
// read as one line of standard input; what is written to standard output
// is its Argon2id hash, or with NAME the whole line "NAME:HASH:RIGHTS"
// (RIGHTS "view" unless given). A mistake is said on standard error with
// exit code 2; nothing is written then.
//
// Threads: the main thread, instead of the daemon.
#pragma once

#include <span>

namespace voxl::app {

// `args` are the words after "hash-password". Returns the exit code.
int hash_password_command(std::span<char* const> args);

}  // namespace voxl::app
