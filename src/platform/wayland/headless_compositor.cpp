#include "platform/wayland/headless_compositor.h"

#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "platform/child_process.h"
#include "platform/owned_file.h"

namespace voxl::platform::wayland {

namespace {

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

// Made in the runtime folder by the compositor once it has started.
constexpr const char* kReadyFile = "ready";

// The Wayland socket among the names created in the folder: "wayland-N",
// not its ".lock".
bool is_socket_name(const std::string& name) {
  return name.rfind("wayland-", 0) == 0 && name.find('.') == std::string::npos;
}

std::string last_lines(const std::string& text, size_t lines) {
  size_t pos = text.size();
  while (lines-- > 0 && pos > 0) {
    const size_t nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) return text;
    pos = nl;
  }
  return text.substr(pos == 0 ? 0 : pos + 1);
}

}  // namespace

HeadlessCompositor::HeadlessCompositor(const HeadlessCompositorOptions& o) {
  if (geteuid() == 0) {
    const passwd* pw = getpwnam(o.user.c_str());
    if (!pw && !o.user.empty() && o.user.find_first_not_of("0123456789") == std::string::npos)
      pw = getpwuid(uid_t(std::stoul(o.user)));
    if (!pw) throw std::runtime_error("cannot run the Wayland compositor as '" + o.user + "': no such user");
    if (pw->pw_uid == 0)
      throw std::runtime_error("the Wayland compositor cannot run as root (sway refuses): name another user");
    uid_ = pw->pw_uid;
    gid_ = pw->pw_gid;
    user_ = std::string(pw->pw_name) + " (uid " + std::to_string(uid_) + ")";
  }
  char dir[] = "/tmp/voxl-wayland-XXXXXX";
  if (!mkdtemp(dir)) throw std::runtime_error(errno_text("cannot make the compositor's runtime folder"));
  runtime_dir_ = dir;
  try {
    if (!user_.empty() && chown(dir, uid_, gid_) != 0)
      throw std::runtime_error(errno_text("cannot give the compositor's runtime folder to " + user_));
    const std::string config = runtime_dir_ + "/sway.config";
    {
      std::ofstream f(config);
      // sway runs a config's exec lines once it has started, its socket
      // listening: the file they make is the sign it is ready. The socket
      // file alone is not (it exists from bind(), before listen()).
      f << "xwayland disable\n"
        << "output * resolution " << o.size.width << "x" << o.size.height << " position 0 0\n"
        << "exec touch " << runtime_dir_ << "/" << kReadyFile << "\n";
      if (!f) throw std::runtime_error("cannot write " + config);
    }
    OwnedFile log(::open((runtime_dir_ + "/sway.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (!log.valid()) throw std::runtime_error(errno_text("cannot make the compositor's log"));
    OwnedFile watch(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
    if (!watch.valid() || inotify_add_watch(watch.get(), dir, IN_CREATE | IN_MOVED_TO) < 0)
      throw std::runtime_error(errno_text("cannot watch the compositor's runtime folder"));

    ChildOptions co;
    co.argv = as_user({o.program, "-c", config});
    co.env = {"XDG_RUNTIME_DIR=" + runtime_dir_, "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1",
              "WAYLAND_DISPLAY=", "DISPLAY="};
    if (!user_.empty()) co.env.push_back("HOME=" + runtime_dir_);  // the user may have no home of their own
    // No GPU is assumed: pixman draws, unless the operator chose a renderer.
    const char* renderer = std::getenv("WLR_RENDERER");
    co.env.push_back(std::string("WLR_RENDERER=") + (renderer && *renderer ? renderer : "pixman"));
    co.fds = {{1, log.get()}, {2, log.get()}};
    compositor_ = std::make_unique<ChildProcess>(co);

    OwnedFile exited(int(syscall(SYS_pidfd_open, compositor_->pid(), 0)));
    const auto deadline = std::chrono::steady_clock::now() + o.ready_timeout;
    bool ready = false;
    while (socket_name_.empty() || !ready) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        throw std::runtime_error(socket_name_.empty() ? "the compositor did not make its socket in time"
                                                      : "the compositor did not finish starting in time");
      pollfd fds[2] = {{watch.get(), POLLIN, 0}, {exited.get(), POLLIN, 0}};
      const int n = poll(fds, exited.valid() ? 2 : 1, int(left.count()));
      if (n < 0 && errno != EINTR) throw std::runtime_error(errno_text("poll"));
      if (n > 0 && (fds[1].revents & POLLIN)) throw std::runtime_error("the compositor exited");
      alignas(inotify_event) char buf[4096];
      for (ssize_t got; (got = read(watch.get(), buf, sizeof buf)) > 0;) {
        for (ssize_t at = 0; at < got;) {
          const auto* ev = reinterpret_cast<const inotify_event*>(buf + at);
          if (ev->len > 0 && is_socket_name(ev->name)) socket_name_ = ev->name;
          if (ev->len > 0 && std::strcmp(ev->name, kReadyFile) == 0) ready = true;
          at += ssize_t(sizeof(inotify_event) + ev->len);
        }
      }
    }
  } catch (const std::runtime_error& e) {
    const std::string said = last_lines(output(), 8);
    compositor_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(runtime_dir_, ignored);
    throw std::runtime_error(std::string("cannot start the Wayland compositor (") + o.program + "): " + e.what() +
                             (said.empty() ? "" : "; it said: " + said));
  }
}

HeadlessCompositor::~HeadlessCompositor() {
  compositor_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(runtime_dir_, ignored);
}

std::vector<std::string> HeadlessCompositor::as_user(std::vector<std::string> argv) const {
  if (user_.empty()) return argv;
  std::vector<std::string> out = {"setpriv", "--reuid=" + std::to_string(uid_), "--regid=" + std::to_string(gid_),
                                  "--init-groups", "--pdeathsig", "SIGTERM", "--"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

std::vector<std::string> HeadlessCompositor::program_environment() const {
  // Toolkits that would otherwise look for an X display are sent here.
  std::vector<std::string> env = {"XDG_RUNTIME_DIR=" + runtime_dir_, "WAYLAND_DISPLAY=" + socket_name_,
                                  "XDG_SESSION_TYPE=wayland", "GDK_BACKEND=wayland", "QT_QPA_PLATFORM=wayland",
                                  "MOZ_ENABLE_WAYLAND=1", "SDL_VIDEODRIVER=wayland",
                                  "ELECTRON_OZONE_PLATFORM_HINT=wayland", "DISPLAY="};
  if (!user_.empty()) env.push_back("HOME=" + runtime_dir_);
  return env;
}

std::string HeadlessCompositor::output() const {
  std::ifstream f(runtime_dir_ + "/sway.log");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace voxl::platform::wayland
