// A private Xvfb: started on a free display number (-displayfd), with its
// framebuffer in shared memory (-shmem) and -noreset (so RandR modes added
// later survive clients coming and going). Used by the tests, the benchmarks
// and the daemon when no DISPLAY is given.
//
// With `private_authority` the server admits only clients that present a
// fresh MIT-MAGIC-COOKIE-1 (see x_authority.h): authority_file() is the
// file to put in XAUTHORITY. The -shmem framebuffer segment, which Xvfb
// creates with mode 0777, is set to 0600 right after start, so other local
// users can neither read nor write the pixels.
//
// The destructor stops the server (SIGTERM, SIGKILL after a grace period)
// and removes its framebuffer segment, which Xvfb leaves behind when killed.
//
// Threads: construct and destroy on the same thread. The server is told to
// die with the thread that started it (PR_SET_PDEATHSIG), so a crashed test
// leaves no Xvfb running: start it from a thread that outlives its use.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/child_process.h"
#include "base/geometry.h"
#include "platform/x11/x_authority.h"

namespace voxl::platform::x11 {

struct VirtualDisplayOptions {
  // The largest size RandR can later switch to: Xvfb's framebuffer (4
  // bytes a pixel at depth 24) keeps this size whatever the screen's.
  Size size{1920, 1080};
  int depth = 24;
  bool shmem_framebuffer = true;     // -shmem
  bool mit_shm = true;               // false: -extension MIT-SHM
  bool listen_tcp = false;           // -listen tcp (port 6000 + display)
  bool private_authority = false;    // -auth with a new cookie
  // Serve this display number (a server coming back where one was);
  // nullopt: the first free one, which Xvfb picks.
  std::optional<int> number;
  std::vector<std::string> extra_args;
  std::string program = "Xvfb";
  std::chrono::milliseconds ready_timeout{30000};
};

class VirtualDisplay {
 public:
  // Starts the server and waits until it accepts connections. Throws
  // std::runtime_error with the server's own output when it cannot start.
  explicit VirtualDisplay(const VirtualDisplayOptions& options = {});
  ~VirtualDisplay();
  VirtualDisplay(const VirtualDisplay&) = delete;
  VirtualDisplay& operator=(const VirtualDisplay&) = delete;

  int number() const { return number_; }
  std::string name() const { return ":" + std::to_string(number_); }
  // 127.0.0.1:N, when started with listen_tcp.
  std::string tcp_name() const { return "127.0.0.1:" + std::to_string(number_); }
  pid_t pid() const;
  // The framebuffer segment Xvfb announced, when started with -shmem.
  std::optional<int> framebuffer_shmid() const { return shmid_; }
  // The Xauthority file clients need, with private_authority; else empty.
  std::string authority_file() const;
  // Why the framebuffer segment could not be made private (or was attached
  // by someone else before it was); empty when all is well.
  const std::string& framebuffer_warning() const { return framebuffer_warning_; }
  // Everything the server printed so far.
  std::string output() const;

 private:
  std::unique_ptr<PrivateAuthority> authority_;  // outlives the server
  std::unique_ptr<ChildProcess> server_;
  int number_ = -1;
  int log_fd_ = -1;
  std::optional<int> shmid_;
  std::string framebuffer_warning_;
};

// Sets segment `shmid` to mode 0600 and checks it took, and that only
// `expected_attaches` processes have it attached; empty when so, else what
// is wrong.
std::string make_segment_private(int shmid, unsigned expected_attaches);

// Parses the "screen 0 shmid N" line Xvfb -shmem prints.
std::optional<int> parse_xvfb_shmid(const std::string& output);

}  // namespace voxl::platform::x11
