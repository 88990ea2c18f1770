#include "app/config_check.h"

#include <filesystem>
#include <system_error>

#include "app/access_wiring.h"
#include "app/users_file_load.h"
#include "net/server.h"

namespace voxl::app {

namespace {

std::string listen_line(const Config& c) {
  const bool v6 = c.addr.find(':') != std::string::npos;
  return std::string("listen: ") + (c.https ? "https://" : "http://") + (v6 ? "[" + c.addr + "]" : c.addr) + ":" +
         (c.port == 0 ? std::string("a free port") : std::to_string(c.port)) + "/";
}

std::string access_line(const Config& c) {
  if (!c.users_file.empty()) {
    const LoadedUsers loaded = load_users_file(c);
    const size_t n = loaded.users ? loaded.users->all().size() : 0;
    return "access: " + std::to_string(n) + " user" + (n == 1 ? "" : "s") + " of " + c.users_file +
           (c.basic_auth ? ", and basic auth as " + c.basic_auth_user : "") +
           (c.auth_token.empty() ? "" : ", and the access token");
  }
  if (c.basic_auth)
    return "access: basic auth as " + c.basic_auth_user +
           (c.basic_auth_viewonly_password.empty() ? "" : ", with a view-only password") +
           (c.auth_token.empty() ? "" : ", and the access token");
  if (!c.auth_token.empty()) return "access: the access token given";
  if (c.insecure_no_auth) return "access: anyone who reaches the port (--insecure-no-auth)";
  if (listens_beyond_loopback(c)) return "access: a token made at start, logged in the address to open";
  return "access: this machine's users (loopback only, no credential)";
}

std::string display_line(const Config& c) {
  if (!c.display.empty()) return "display: " + c.display;
  if (c.xvfb) return "display: a private Xvfb of " + std::to_string(c.xvfb->width) + "x" + std::to_string(c.xvfb->height);
  if (c.wayland)
    return "display: voxl's own headless Wayland compositor of " + std::to_string(c.wayland->width) + "x" +
           std::to_string(c.wayland->height);
  return "display: $DISPLAY (or $WAYLAND_DISPLAY where only it is set), or a private Xvfb when neither is";
}

}  // namespace

ConfigReport check_config(const Config& c) {
  ConfigReport r;
  if (c.https) {
    if (auto error = net::check_tls_files(c.https_cert, c.https_key)) r.problems.push_back(*error);
  }
  const bool transfers = c.file_transfers.upload || c.file_transfers.download;
  if (transfers && !c.files_root.empty()) {
    std::error_code ec;
    // The flag is UTF-8; a plain std::string would be read in the system's
    // code page on Windows.
    const std::filesystem::path root(std::u8string(c.files_root.begin(), c.files_root.end()));
    if (!std::filesystem::is_directory(root, ec))
      r.problems.push_back("--files-root: '" + c.files_root + "' is not a folder" +
                           (ec ? " (" + ec.message() + ")" : ""));
  }
  if (!c.users_file.empty()) {
    if (const LoadedUsers loaded = load_users_file(c); !loaded.users) r.problems.push_back(loaded.error);
  }
  r.summary.push_back(listen_line(c));
  r.summary.push_back(access_line(c));
  r.summary.push_back(display_line(c));
  std::string files = "files: ";
  if (!transfers || c.files_root.empty()) files += "off";
  else files += std::string(c.file_transfers.upload && c.file_transfers.download ? "upload and download"
                            : c.file_transfers.upload                            ? "upload only"
                                                                                 : "download only") +
                " under " + c.files_root;
  r.summary.push_back(files);
  return r;
}

}  // namespace voxl::app
