// The voxl binary run as a child process for end-to-end tests: started on a
// given display with --port=0, its port read from the line it logs at start,
// its stderr kept for assertions and failure reports.
//
// Threads: construct, stop and destroy on one thread (the child is told to
// die with the thread that started it). The log accessors may be called
// from any thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "platform/child_process.h"

namespace voxl::testing {

class VoxlProcess {
 public:
  // Starts `voxl --display=<display> --addr=<addr> --port=0 <extra_args>`
  // (without the --addr when `extra_args` has one of its own) and waits up
  // to `limit` for it to say where it serves. Throws
  // std::runtime_error with its output when it exits or stays silent.
  // `env` ("NAME=value") is added to the child's environment. An empty
  // `display` leaves --display out (for --xvfb). Loopback (the default
  // address) needs no access token; another address such as 0.0.0.0 makes
  // voxl generate one (see token()) unless the arguments give a credential.
  VoxlProcess(const std::string& display, const std::vector<std::string>& extra_args,
              std::chrono::milliseconds limit = std::chrono::seconds(60), const std::vector<std::string>& env = {},
              const std::string& addr = "127.0.0.1");
  ~VoxlProcess();  // stop()
  VoxlProcess(const VoxlProcess&) = delete;
  VoxlProcess& operator=(const VoxlProcess&) = delete;

  uint16_t port() const { return port_; }
  // The access token voxl generated and logged in its address; empty when
  // it generated none.
  const std::string& token() const { return token_; }
  pid_t pid() const;
  bool running() const { return child_ != nullptr; }

  // Everything it has logged so far.
  std::string log() const;
  // Waits until the log contains `text`; true once it does.
  bool wait_for_log(std::string_view text, std::chrono::milliseconds limit) const;

  // Resident memory in KiB from /proc/<pid>/status; -1 when unreadable.
  long rss_kib() const;

  // Sends `signal` (SIGTERM unless told), then waits up to `limit` for it
  // to exit. Returns its exit code, 128 + the signal that ended it, or -1
  // when it had to be killed. Repeated calls return the first result.
  int stop(std::chrono::milliseconds limit = std::chrono::seconds(30), int signal = SIGTERM);

 private:
  void read_log();
  void shut_down();

  std::unique_ptr<platform::ChildProcess> child_;
  int log_fd_ = -1;   // read end of the child's stderr
  int wake_fd_ = -1;  // eventfd that ends the reader early
  std::thread reader_;
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  std::string log_;
  bool log_ended_ = false;
  uint16_t port_ = 0;
  std::string token_;
  int exit_status_ = -1;
};

}  // namespace voxl::testing
