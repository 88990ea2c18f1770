// The test portal's D-Bus side (voxl-test-portal): org.freedesktop.portal.
// ScreenCast and RemoteDesktop at /org/freedesktop/portal/desktop, as
// xdg-desktop-portal documents them, with sessions, requests answered by
// their Response signal after the method's reply, and a D-Bus error (never
// a crash) for a session that is not the caller's, a call out of order or
// a bad argument. What it is asked to do it prints on stdout, a line each
// (see test_portal.cpp).
//
// Threads: one, the portal's loop, which dispatches the bus and PipeWire.
// Ownership: borrows the bus and the PipeWire connection from main; owns
// its sessions and their ScreenStreams.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <pipewire/pipewire.h>
#include <systemd/sd-bus.h>

#include "portal_screen.h"

namespace voxl::testing::portal {

inline constexpr const char* kDesktopPath = "/org/freedesktop/portal/desktop";
inline constexpr const char* kScreenCastInterface = "org.freedesktop.portal.ScreenCast";
inline constexpr const char* kRemoteDesktopInterface = "org.freedesktop.portal.RemoteDesktop";
inline constexpr const char* kSessionInterface = "org.freedesktop.portal.Session";
inline constexpr const char* kRequestInterface = "org.freedesktop.portal.Request";

// RemoteDesktop's device types, ScreenCast's source types and cursor modes.
inline constexpr uint32_t kKeyboard = 1, kPointer = 2, kAllDevices = 3;
inline constexpr uint32_t kMonitor = 1;
inline constexpr uint32_t kCursorHidden = 1, kCursorEmbedded = 2;

struct PortalBehaviour {
  bool remote_desktop = true;      // false: ScreenCast alone, as xdg-desktop-portal-wlr
  bool refuse = false;             // Start answers 1, the user cancelled
  bool close_after_start = false;  // Session.Closed right after Start
};

class PortalService;

struct Session {
  PortalService* service = nullptr;
  std::string path;
  std::string owner;  // the caller's unique name
  bool remote_desktop = false;
  bool devices_selected = false, sources_selected = false;
  bool starting = false, started = false;
  uint32_t devices = kAllDevices;
  uint32_t persist_mode = 0;
  std::string start_request;  // Start's request, answered once the stream has its node
  std::unique_ptr<ScreenStream> stream;
  uint32_t node = 0;
};

class PortalService {
 public:
  // Exports the interfaces on `bus` (not yet the name). Throws
  // std::runtime_error when sd-bus refuses.
  PortalService(sd_bus* bus, pw_core* core, const Picture& picture, PortalBehaviour behaviour);
  ~PortalService();
  PortalService(const PortalService&) = delete;
  PortalService& operator=(const PortalService&) = delete;

  // The picture changed where `region` says: every started stream sends it.
  void changed(Region region);
  // The user stops sharing: every started session is closed (Closed sent)
  // and its stream destroyed, as a desktop's "stop sharing" does.
  void stop_sharing();

  // The method handlers' way in (sd-bus calls them with the service).
  int create_session(sd_bus_message* m, sd_bus_error* e);
  int select_devices(sd_bus_message* m, sd_bus_error* e);
  int select_sources(sd_bus_message* m, sd_bus_error* e);
  int start(sd_bus_message* m, sd_bus_error* e);
  int open_pipewire_remote(sd_bus_message* m, sd_bus_error* e);
  int close_session(sd_bus_message* m, Session* session, sd_bus_error* e);
  int notify(sd_bus_message* m, sd_bus_error* e);
  Session* find_session(const std::string& path);
  void owner_gone(const std::string& name);

  // Destroys the sessions dropped since the last call: not inside their
  // streams' callbacks, from the loop between dispatches.
  void tidy();

 private:
  // The session at `path` when `m`'s sender made it; null with `e` set
  // (AccessDenied) when there is none or it is another's.
  Session* callers_session(sd_bus_message* m, const char* path, sd_bus_error* e);
  void start_stream(Session& session);
  void answer_start(const std::string& path, uint32_t code);
  void drop(const std::string& path);
  void release_slots();

  sd_bus* bus_;
  pw_core* core_;
  const Picture& picture_;
  PortalBehaviour behaviour_;
  sd_bus_slot* screen_cast_slot_ = nullptr;
  sd_bus_slot* remote_desktop_slot_ = nullptr;
  sd_bus_slot* session_slot_ = nullptr;
  sd_bus_slot* owner_match_ = nullptr;
  std::map<std::string, std::unique_ptr<Session>> sessions_;
  std::vector<std::unique_ptr<Session>> dropped_;
  uint32_t next_token_ = 0;
};

}  // namespace voxl::testing::portal
