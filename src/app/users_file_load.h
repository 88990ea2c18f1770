// The users file (--users-file) read from the disk and checked as a whole:
// a regular file of at most Users::kMaxFile bytes that no other user may
// read and only its owner may write (it decides who controls the desktop),
// every line well formed (net/users_file.h), and no user named as the
// built-in Basic user (--basic-auth-user) when that is on. Every refusal
// names the flag, the file and, for a line, the line.
//
// Threads: any; blocking file reads.
#pragma once

#include <memory>
#include <string>

#include "app/config.h"
#include "net/users_file.h"

namespace voxl::app {

struct LoadedUsers {
  std::shared_ptr<const net::Users> users;  // null on error
  std::string error;
};

LoadedUsers load_users_file(const Config& config);

}  // namespace voxl::app
