// Keeps an X display number taken while its server is away, so a test can
// start a server on the same number again: a socket bound (not listening)
// to the X server's abstract address for the number makes an Xvfb of a test
// running in parallel, looking for a free number (-displayfd), pass it by
// (an X lock file does not), and a client trying the display meanwhile is
// refused at once, as with no server at all.
//
// A server that comes back on its number can still lose it to a test that
// starts a server in the moment between the hold's release and the bind,
// and the first numbers are the ones every -displayfd search tries: such
// a test starts its first server on unsearched_display_number().
//
// Threads: the test's. Header-only.
#pragma once

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <optional>

#include <cstddef>
#include <cstring>
#include <string>

namespace voxl::testing {

class DisplayNumberHold {
 public:
  DisplayNumberHold() = default;
  ~DisplayNumberHold() { release(); }
  DisplayNumberHold(const DisplayNumberHold&) = delete;
  DisplayNumberHold& operator=(const DisplayNumberHold&) = delete;

  // Takes `number` (just freed by its server); false when something else
  // has it already (the restart will then say so).
  bool hold(int number) {
    release();
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const std::string name = "/tmp/.X11-unix/X" + std::to_string(number);
    std::memcpy(a.sun_path + 1, name.data(), name.size());  // sun_path[0] = 0: abstract
    const auto length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (fd_ >= 0 && ::bind(fd_, reinterpret_cast<const sockaddr*>(&a), length) == 0) return true;
    release();
    return false;
  }
  // Gives it up, for the server that comes back.
  void release() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// A free display number far above those that servers looking for a free
// one (-displayfd counts up from 0) reach while a few tests run at once;
// where the search starts depends on the process, so tests side by side
// pick different ones. nullopt when none of the 400 is free.
inline std::optional<int> unsearched_display_number() {
  constexpr int kFirst = 200, kCount = 400;
  const int start = int(::getpid() % kCount);
  for (int i = 0; i < kCount; ++i) {
    const int n = kFirst + (start + i) % kCount;
    if (::access(("/tmp/.X" + std::to_string(n) + "-lock").c_str(), F_OK) == 0) continue;
    DisplayNumberHold probe;
    if (probe.hold(n)) return n;
  }
  return std::nullopt;
}

}  // namespace voxl::testing
