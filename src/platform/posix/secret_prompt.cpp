#include "platform/secret_prompt.h"

#include <termios.h>
#include <unistd.h>

#include <iostream>

#include "base/bounded_line.h"

namespace voxl::platform {
namespace {

// Echo off for as long as it lives, and back as it was after.
class EchoOff {
 public:
  EchoOff() {
    if (tcgetattr(STDIN_FILENO, &saved_) != 0) return;
    termios quiet = saved_;
    quiet.c_lflag &= ~tcflag_t(ECHO);
    quiet.c_lflag |= ECHONL;
    active_ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0;
  }
  ~EchoOff() {
    if (active_) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
  }
  EchoOff(const EchoOff&) = delete;
  EchoOff& operator=(const EchoOff&) = delete;

 private:
  termios saved_{};
  bool active_ = false;
};

}  // namespace

bool stdin_is_terminal() { return isatty(STDIN_FILENO) == 1; }

std::optional<std::string> read_secret_line(std::string_view prompt, size_t max_bytes) {
  std::optional<EchoOff> quiet;
  if (stdin_is_terminal()) {
    std::cerr << prompt << std::flush;
    quiet.emplace();
  }
  return read_bounded_line(stdin, max_bytes);
}

}  // namespace voxl::platform
