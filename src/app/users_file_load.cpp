#include "app/users_file_load.h"

#include "platform/file_head.h"

namespace voxl::app {

LoadedUsers load_users_file(const Config& c) {
  LoadedUsers out;
  const auto fail = [&](const std::string& why) {
    out.error = "--users-file: '" + c.users_file + "' " + why;
    return out;
  };
  const platform::FileHead file =
      platform::read_file_head(c.users_file, net::Users::kMaxFile, platform::FileExtent::kWhole);
  if (!file.text) return fail("cannot be read: " + file.error);
  if (file.world_readable) return fail("may be read by any user of this machine: chmod o-rwx it (600 or 640)");
  if (file.shared_write) return fail("may be written by users other than its owner: chmod go-w it (600 or 640)");
  net::UsersFileError error;
  auto users = net::parse_users_file(*file.text, error);
  if (!users)
    return fail(error.line > 0 ? "line " + std::to_string(error.line) + ": " + error.message : error.message);
  if (c.basic_auth && users->find(c.basic_auth_user))
    return fail("names '" + c.basic_auth_user + "', the built-in user of --enable-basic-auth (--basic-auth-user): "
                "rename one of them");
  out.users = std::make_shared<const net::Users>(std::move(*users));
  return out;
}

}  // namespace voxl::app
