// A private desktop-portal world for tests, in a folder of its own under
// /tmp: a D-Bus session bus (dbus-daemon), a PipeWire daemon and WirePlumber
// as its session manager (PortalRig), and voxl-test-portal serving
// org.freedesktop.portal.Desktop on that bus (TestPortal, test_portal.cpp).
//
// WirePlumber 0.4 links a consumer stream connected with
// PW_STREAM_FLAG_AUTOCONNECT and a target node id to the portal's video
// source by itself, headless (its policy-node script reads the stream's
// node.target); the rig makes no links. It is ready once WirePlumber has
// published its "default" metadata on the daemon: its scripts then run, and
// a stream made before its policy watched is linked when it does.
//
// Threads: a rig and its portals are made, used and destroyed on one thread
// (the children are told to die with the thread that started them). A
// TestPortal also reads the portal's stdout on a thread of its own, so the
// portal never blocks on a full pipe however little the test reads.
// Ownership: the rig owns its folder and children and removes them when
// destroyed (children first); a TestPortal owns its process, pipes and
// reader thread, and must not outlive the rig it runs on.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "platform/child_process.h"
#include "platform/owned_file.h"

namespace voxl::testing {

class PortalRig {
 public:
  // Starts the bus, PipeWire and WirePlumber, each waited for up to 30 s.
  // Throws std::runtime_error with a readable reason (and the end of the
  // program's log) when one does not come up.
  PortalRig();
  ~PortalRig();
  PortalRig(const PortalRig&) = delete;
  PortalRig& operator=(const PortalRig&) = delete;

  const std::string& bus_address() const { return bus_address_; }  // DBUS_SESSION_BUS_ADDRESS of the private bus
  const std::string& runtime_dir() const { return folder_.path; }   // XDG_RUNTIME_DIR holding pipewire-0
  // "XDG_RUNTIME_DIR=...", "PIPEWIRE_RUNTIME_DIR=...", "DBUS_SESSION_BUS_ADDRESS=..." for children.
  std::vector<std::string> environment() const;

 private:
  struct Folder {
    std::string path;
    Folder();
    ~Folder();  // removes it and everything in it
  };

  void start_bus();
  void start_pipewire();
  void start_wireplumber();
  // The environment of the daemons: the rig's, with their configuration
  // and state kept in the folder.
  std::vector<std::string> daemon_environment() const;
  std::unique_ptr<platform::ChildProcess> start_logged(std::vector<std::string> argv, const std::string& log);
  std::string log_tail(const std::string& log) const;

  Folder folder_;  // first made, last removed
  std::string bus_address_;
  std::unique_ptr<platform::ChildProcess> bus_;
  std::unique_ptr<platform::ChildProcess> pipewire_;
  std::unique_ptr<platform::ChildProcess> wireplumber_;
};

class TestPortal {
 public:
  // Starts voxl-test-portal on `rig` with `args` and waits for its "ready"
  // line (the portal's name owned). Throws std::runtime_error when it does
  // not come.
  explicit TestPortal(const PortalRig& rig, std::vector<std::string> args = {});
  ~TestPortal();  // closes its stdin (it ends; stopped after 10 s if not)
  TestPortal(const TestPortal&) = delete;
  TestPortal& operator=(const TestPortal&) = delete;

  // Sends one stdin command line ("rect 10 20 30 40 ff0000") and waits for
  // its "drawn" answer; throws std::runtime_error when it refuses the line
  // or does not answer. Other lines it prints meanwhile stay for next_line().
  void draw(const std::string& command);
  // The next stdout line starting with `prefix`, skipping others; empty
  // when none comes in `limit`.
  std::string next_line(const std::string& prefix, std::chrono::milliseconds limit = std::chrono::seconds(20));

 private:
  void read_output();  // the reader thread: lines_ until the portal's stdout ends
  void stop();         // ends the portal and joins the reader

  platform::OwnedFile to_portal_;
  platform::OwnedFile from_portal_;
  std::unique_ptr<platform::ChildProcess> process_;
  std::thread reader_;
  std::mutex mutex_;  // guards lines_ and ended_
  std::condition_variable changed_;
  std::deque<std::string> lines_;
  bool ended_ = false;  // the portal's stdout ended
};

}  // namespace voxl::testing
