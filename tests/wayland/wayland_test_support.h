// Helpers for tests against voxl's own headless sway: the compositor
// started small, and voxl-wayland-probe (wayland_probe.cpp) in it, told
// what to draw through its stdin and read for the input it got.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "capture/capturer.h"
#include "../common/capture_checks.h"
#include "base/logging.h"
#include "capture/frame_pool.h"
#include "platform/child_process.h"
#include "platform/owned_file.h"
#include "platform/wayland/headless_compositor.h"

namespace voxl::testing {

// Headless sway of `size` (as nobody when the tests run as root).
std::unique_ptr<platform::wayland::HeadlessCompositor> start_sway(Size size);

class ProbeProgram {
 public:
  // Starts the probe in `sway`, filled with `colour`, and waits for its
  // "ready" line. Throws std::runtime_error when it does not come.
  ProbeProgram(const platform::wayland::HeadlessCompositor& sway, uint32_t colour);
  ~ProbeProgram();

  // Sends one command line ("rect 10 20 30 40 ff0000") and waits for its
  // "drawn" answer.
  void draw(const std::string& command);
  // The next line it prints that starts with `prefix`, skipping others;
  // empty when none comes in `limit`.
  std::string next_line(const std::string& prefix, std::chrono::milliseconds limit = std::chrono::seconds(20));
  // Lines starting with `prefix` until `count` came or `limit` passed.
  std::vector<std::string> lines(const std::string& prefix, size_t count,
                                 std::chrono::milliseconds limit = std::chrono::seconds(20));

 private:
  platform::OwnedFile to_probe_;
  platform::OwnedFile from_probe_;
  std::unique_ptr<platform::ChildProcess> process_;
  std::string buffered_;
};

// Runs `argv` in `sway` as its user and returns what it printed (stdout),
// with `input` on its stdin; empty after `limit`.
std::string run_in(const platform::wayland::HeadlessCompositor& sway, std::vector<std::string> argv,
                   const std::string& input = "", std::chrono::milliseconds limit = std::chrono::seconds(30));

// Starts `argv` in `sway` as its user, `input` on its stdin, its output
// on the tests' own; it stops with the returned process.
std::unique_ptr<platform::ChildProcess> start_in(const platform::wayland::HeadlessCompositor& sway,
                                                 std::vector<std::string> argv, const std::string& input = "");

// A logger for the code under test that says only warnings and worse.
Logger quiet_log();

}  // namespace voxl::testing
