// A screen-sharing session with the desktop portal: how voxl reaches GNOME's
// and KDE Plasma's Wayland desktops, whose compositors let no client capture
// or drive the screen directly.
//
// With the RemoteDesktop portal (GNOME, KDE): one session that casts a
// monitor and takes keyboard and pointer. Without it
// (xdg-desktop-portal-wlr): a ScreenCast session, the picture alone. The
// desktop asks its user once, in a dialog on the desktop; the restore token
// it grants lets the next session start without asking (persist mode 2,
// until the user revokes it).
//
// The picture comes as a PipeWire stream (pipewire_stream.h) over a socket
// the portal opens to the desktop's PipeWire daemon; input goes to the
// portal as Notify calls, sent without waiting.
//
// Threads: any; calls are serialised by a lock (the video thread opens the
// stream, the loop thread sends input). Blocking: the constructor waits for
// the user's answer (up to 5 minutes), picture_stream() for the portal's and
// PipeWire's; input never waits. The stream lives as long as the session:
// a compositor sends nothing to a consumer that joins while the screen is
// still, so the newest picture is kept for every capturer made later. Ownership: owns its bus connection; the
// session is closed on destruction.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "base/geometry.h"
#include "base/logging.h"
#include "platform/owned_file.h"
#include "platform/portal/portal_results.h"

namespace voxl::platform::portal {

class PipewireStream;
class PortalBus;

struct PortalSessionOptions {
  std::string bus_address;    // empty: the user's session bus
  std::string restore_token;  // from an earlier session: the desktop need not ask
};

class PortalSession {
 public:
  // Creates the session and starts it (the desktop may ask its user).
  // Throws std::runtime_error saying why when there is no portal, the user
  // refuses, or the portal casts no monitor.
  PortalSession(const PortalSessionOptions& options, Logger log);
  ~PortalSession();
  PortalSession(const PortalSession&) = delete;
  PortalSession& operator=(const PortalSession&) = delete;

  // The monitor's stream: its PipeWire node and size as the portal said.
  const PortalStream& stream() const { return stream_; }
  // The token to start the next session without asking; empty when none.
  const std::string& restore_token() const { return restore_token_; }
  // Whether the portal took keyboard and pointer, and why not where not.
  bool input() const { return (devices_ & (kDeviceKeyboard | kDevicePointer)) != 0; }
  const std::string& input_refusal() const { return input_refusal_; }
  // The session ended (the user stopped sharing, the portal went away):
  // reads what the bus has for it, without waiting.
  bool closed();
  // The monitor's size now: the stream's once it agreed one, else what the
  // portal said; zero when neither is known.
  Size size();
  std::string describe() const;

  // The monitor's PipeWire stream, one for the session's consumers, made at
  // the first call and again after it failed. Throws std::runtime_error
  // when the portal refuses a PipeWire connection, the session has ended,
  // or the stream cannot be connected.
  std::shared_ptr<PipewireStream> picture_stream();

  // Input, in the stream's coordinates; false once the session has ended.
  bool keysym(uint32_t keysym, bool down);
  bool pointer_motion(double x, double y);
  bool pointer_button(int32_t evdev_code, bool down);
  bool pointer_axis_discrete(uint32_t axis, int32_t steps);  // axis 0 vertical, 1 horizontal

 private:
  void create(bool remote_desktop, uint32_t cursor_mode, const std::string& restore_token);
  void start(bool remote_desktop);
  // A socket to the desktop's PipeWire daemon.
  OwnedFile open_pipewire_remote();
  template <class... Args>
  bool notify(const char* method, const char* types, Args... args);

  Logger log_;
  std::mutex mutex_;
  std::unique_ptr<PortalBus> bus_;
  std::string session_;  // the session's object path
  PortalStream stream_;
  uint32_t devices_ = 0;
  std::string restore_token_;
  std::string input_refusal_;
  std::string kind_;  // for describe(): "RemoteDesktop and ScreenCast"
  std::atomic<bool> closed_{false};
  std::mutex stream_mutex_;  // held while the stream is made, apart from the bus's
  std::shared_ptr<PipewireStream> picture_;
};

}  // namespace voxl::platform::portal
