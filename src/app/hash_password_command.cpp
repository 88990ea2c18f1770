#include "app/hash_password_command.h"

#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "net/password_hash.h"
#include "net/rights.h"
#include "net/users_file.h"
#include "platform/secret_prompt.h"

namespace voxl::app {
namespace {

constexpr int kMistake = 2;

int refuse_hash(const std::string& why) {
  std::cerr << "voxl hash-password: " << why << "\n";
  return kMistake;
}

constexpr const char* kUsage =
    "usage: voxl hash-password [NAME [RIGHTS]]\n"
    "Asks for a password (or reads one line of standard input) and writes its Argon2id hash for\n"
    "--users-file; with NAME, the whole line NAME:HASH:RIGHTS (RIGHTS: view unless given; a comma\n"
    "list of view, control, clipboard-in, clipboard-out, clipboard, files-up, files-down, files,\n"
    "record, admin, all).\n";

}  // namespace

int hash_password_command(std::span<char* const> args) {
  if (!args.empty() && (std::string(args[0]) == "-h" || std::string(args[0]) == "--help")) {
    std::cout << kUsage;
    return 0;
  }
  if (args.size() > 2) return refuse_hash("too many words\n" + std::string(kUsage));
  const std::string name = args.empty() ? "" : args[0];
  if (!args.empty() && !net::is_valid_user_name(name))
    return refuse_hash("the name '" + name.substr(0, 64) + "' is not 1 to 64 of A-Z a-z 0-9 . _ @ + -");
  std::string why;
  const auto rights = net::parse_rights(args.size() == 2 ? args[1] : "view", why);
  if (!rights) return refuse_hash(why);

  const bool asking = platform::stdin_is_terminal();
  const auto password = platform::read_secret_line("Password: ", net::kMaxPassword);
  if (!password)
    return refuse_hash("no password was read (at most " + std::to_string(net::kMaxPassword) + " bytes, one line)");
  if (password->empty()) return refuse_hash("the password is empty");
  if (asking) {
    const auto again = platform::read_secret_line("The same again: ", net::kMaxPassword);
    if (!again || *again != *password) return refuse_hash("the two passwords differ; nothing was written");
  }
  try {
    const std::string hash = net::hash_password(*password);
    if (name.empty())
      std::cout << hash << "\n";
    else
      std::cout << name << ":" << hash << ":" << net::rights_text(*rights) << "\n";
  } catch (const std::exception& e) {
    return refuse_hash(e.what());
  }
  return 0;
}

}  // namespace voxl::app
