// voxl's own Wayland desktop (--wayland): headless sway, one output of a
// given size, no Xwayland, in a private runtime folder (mode 0700) that
// holds its socket, its config and its log. sway refuses to run as root,
// so when voxl is root the compositor (and every program started in it)
// runs as an unprivileged user (setpriv), `nobody` unless told otherwise.
//
// The compositor is told to die with the thread that started it, and is
// stopped (then its folder removed) with this object.
//
// Threads: construct and destroy on the same thread, one that outlives
// the compositor's use.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/geometry.h"

namespace voxl::platform {
class ChildProcess;
}

namespace voxl::platform::wayland {

struct HeadlessCompositorOptions {
  Size size{1920, 1080};
  std::string program = "sway";
  // Who the compositor runs as when voxl is root (a name or a number).
  std::string user = "nobody";
  std::chrono::milliseconds ready_timeout{30000};
};

class HeadlessCompositor {
 public:
  // Starts the compositor and waits until its socket is there. Throws
  // std::runtime_error with the compositor's own last lines when it cannot
  // start.
  explicit HeadlessCompositor(const HeadlessCompositorOptions& options);
  ~HeadlessCompositor();
  HeadlessCompositor(const HeadlessCompositor&) = delete;
  HeadlessCompositor& operator=(const HeadlessCompositor&) = delete;

  // The socket's full path, its name ("wayland-1") and its folder.
  std::string socket_path() const { return runtime_dir_ + "/" + socket_name_; }
  const std::string& socket_name() const { return socket_name_; }
  const std::string& runtime_dir() const { return runtime_dir_; }
  // The user the compositor runs as, in words for the log: "nobody (uid
  // 65534)", or empty when it runs as voxl's own user.
  const std::string& user() const { return user_; }
  // `argv` made to run as the compositor's user (unchanged when that is
  // voxl's own), and the environment a program needs to join the desktop.
  std::vector<std::string> as_user(std::vector<std::string> argv) const;
  std::vector<std::string> program_environment() const;
  // What the compositor printed so far (its log file).
  std::string output() const;

 private:
  std::string runtime_dir_;
  std::string socket_name_;
  std::string user_;
  unsigned uid_ = 0;  // with user_ set
  unsigned gid_ = 0;
  std::unique_ptr<ChildProcess> compositor_;
};

}  // namespace voxl::platform::wayland
