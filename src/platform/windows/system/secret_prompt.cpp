#include "platform/secret_prompt.h"

#include <windows.h>

#include <io.h>
#include <iostream>

#include "base/bounded_line.h"

namespace voxl::platform {
namespace {

// Echo off on the console for as long as it lives, and back after.
class EchoOff {
 public:
  EchoOff() : input_(GetStdHandle(STD_INPUT_HANDLE)) {
    if (input_ == INVALID_HANDLE_VALUE || !GetConsoleMode(input_, &saved_)) return;
    active_ = SetConsoleMode(input_, saved_ & ~DWORD(ENABLE_ECHO_INPUT)) != 0;
  }
  ~EchoOff() {
    if (!active_) return;
    SetConsoleMode(input_, saved_);
    std::cerr << "\n";  // the Enter that was not echoed
  }
  EchoOff(const EchoOff&) = delete;
  EchoOff& operator=(const EchoOff&) = delete;

 private:
  HANDLE input_;
  DWORD saved_ = 0;
  bool active_ = false;
};

}  // namespace

bool stdin_is_terminal() { return _isatty(_fileno(stdin)) != 0; }

std::optional<std::string> read_secret_line(std::string_view prompt, size_t max_bytes) {
  std::optional<EchoOff> quiet;
  if (stdin_is_terminal()) {
    std::cerr << prompt << std::flush;
    quiet.emplace();
  }
  return read_bounded_line(stdin, max_bytes);
}

}  // namespace voxl::platform
