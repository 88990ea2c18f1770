#include "platform/private_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace voxl::platform {

std::string private_dir_problem(const std::string& path) {
  struct stat st{};
  if (lstat(path.c_str(), &st) != 0) return std::string("cannot be examined: ") + std::strerror(errno);
  if (S_ISLNK(st.st_mode)) return "is a symbolic link";
  if (!S_ISDIR(st.st_mode)) return "is not a directory";
  if (st.st_uid != geteuid()) return "is owned by uid " + std::to_string(st.st_uid) + ", not by voxl's user";
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    return std::string("has mode ") + mode + ", which lets other users in";
  }
  return {};
}

std::optional<std::string> usable_xdg_runtime_dir() {
  const char* dir = std::getenv("XDG_RUNTIME_DIR");
  if (!dir || dir[0] != '/') return std::nullopt;
  std::string path(dir);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (!private_dir_problem(path).empty()) return std::nullopt;
  return path;
}

std::string user_runtime_dir() {
  if (auto xdg = usable_xdg_runtime_dir()) return *xdg;
  const std::string path = "/tmp/voxl-" + std::to_string(geteuid());
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
  if (const std::string why = private_dir_problem(path); !why.empty())
    throw std::runtime_error(path + " " + why + "; remove it or set XDG_RUNTIME_DIR");
  return path;
}

std::string make_private_temp_dir(const std::string& prefix) {
  std::string base;
  if (auto xdg = usable_xdg_runtime_dir()) {
    base = *xdg;
  } else {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp && tmp[0] == '/' ? tmp : "/tmp";
  }
  std::string templ = base + "/" + prefix + "XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw std::runtime_error("cannot create a private directory in " + base + ": " + std::strerror(errno));
  return buf.data();  // mkdtemp makes it 0700
}

}  // namespace voxl::platform
