#include "platform/portal/restore_token_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "platform/owned_file.h"
#include "platform/portal/portal_results.h"

namespace voxl::platform::portal {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v && v[0] == '/' ? v : "";
}

// Makes `dir` (0700) where it is missing; true when it exists.
bool make_dir(const std::string& dir) { return dir.empty() || mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST; }

}  // namespace

std::string restore_token_path() {
  std::string state = env("XDG_STATE_HOME");
  if (state.empty()) {
    const std::string home = env("HOME");
    if (home.empty()) return "";
    state = home + "/.local/state";
  }
  return state + "/voxl/portal-restore-token";
}

bool plausible_token(const std::string& text) {
  if (text.empty() || text.size() > kMaxTokenBytes) return false;
  for (unsigned char c : text)
    if (c < 0x21 || c > 0x7e) return false;
  return true;
}

std::string read_restore_token(const std::string& path) {
  if (path.empty()) return "";
  OwnedFile f(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!f.valid()) return "";
  struct stat st {};
  if (fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) return "";
  char buffer[kMaxTokenBytes + 2];
  const ssize_t n = read(f.get(), buffer, sizeof buffer);
  if (n <= 0) return "";
  std::string token(buffer, size_t(n));
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  return plausible_token(token) ? token : "";
}

bool write_restore_token(const std::string& path, const std::string& token, std::string& why) {
  if (path.empty() || !plausible_token(token)) {
    why = path.empty() ? "no folder to keep it in (HOME is not set)" : "the portal's token is not plain text";
    return false;
  }
  const std::string dir = path.substr(0, path.rfind('/'));
  const std::string parent = dir.substr(0, dir.rfind('/'));
  const std::string grandparent = parent.substr(0, parent.rfind('/'));
  if (!make_dir(grandparent) || !make_dir(parent) || !make_dir(dir)) {
    why = "cannot make " + dir + ": " + std::strerror(errno);
    return false;
  }
  const std::string fresh = path + ".new";
  unlink(fresh.c_str());
  OwnedFile f(open(fresh.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
  const std::string text = token + "\n";
  if (!f.valid() || write(f.get(), text.data(), text.size()) != ssize_t(text.size()) || fsync(f.get()) != 0 ||
      rename(fresh.c_str(), path.c_str()) != 0) {
    why = "cannot write " + path + ": " + std::strerror(errno);
    unlink(fresh.c_str());
    return false;
  }
  return true;
}

}  // namespace voxl::platform::portal
