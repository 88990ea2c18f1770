#include "portal_service.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <systemd/sd-id128.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "portal_dbus.h"

namespace voxl::testing::portal {

namespace {

template <int (PortalService::*Method)(sd_bus_message*, sd_bus_error*)>
int handle(sd_bus_message* m, void* service, sd_bus_error* e) {
  return (static_cast<PortalService*>(service)->*Method)(m, e);
}

int handle_notify(sd_bus_message* m, void* service, sd_bus_error* e) {
  return static_cast<PortalService*>(service)->notify(m, e);
}

int handle_close(sd_bus_message* m, void* session, sd_bus_error* e) {
  auto* s = static_cast<Session*>(session);
  return s->service->close_session(m, s, e);
}

int property_u(sd_bus*, const char*, const char* interface, const char* property, sd_bus_message* reply, void*,
               sd_bus_error*) {
  uint32_t value = 0;
  const std::string name(property);
  if (name == "AvailableSourceTypes") value = kMonitor;
  else if (name == "AvailableCursorModes") value = kCursorHidden | kCursorEmbedded;
  else if (name == "AvailableDeviceTypes") value = kAllDevices;
  else if (std::strcmp(interface, kScreenCastInterface) == 0) value = 4;
  else if (std::strcmp(interface, kRemoteDesktopInterface) == 0) value = 2;
  else value = 1;  // Session's version
  return sd_bus_message_append(reply, "u", value);
}

int find_session(sd_bus*, const char* path, const char*, void* service, void** found, sd_bus_error*) {
  Session* s = static_cast<PortalService*>(service)->find_session(path);
  if (!s) return 0;
  *found = s;
  return 1;
}

int name_owner_changed(sd_bus_message* m, void* service, sd_bus_error*) {
  const char *name = nullptr, *old_owner = nullptr, *new_owner = nullptr;
  if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0) return 0;
  if (name[0] == ':' && new_owner[0] == '\0') static_cast<PortalService*>(service)->owner_gone(name);
  return 0;
}

constexpr auto kConst = SD_BUS_VTABLE_PROPERTY_CONST;

const sd_bus_vtable kScreenCastTable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("CreateSession", "a{sv}", "o", &handle<&PortalService::create_session>, 0),
    SD_BUS_METHOD("SelectSources", "oa{sv}", "o", &handle<&PortalService::select_sources>, 0),
    SD_BUS_METHOD("Start", "osa{sv}", "o", &handle<&PortalService::start>, 0),
    SD_BUS_METHOD("OpenPipeWireRemote", "oa{sv}", "h", &handle<&PortalService::open_pipewire_remote>, 0),
    SD_BUS_PROPERTY("AvailableSourceTypes", "u", &property_u, 0, kConst),
    SD_BUS_PROPERTY("AvailableCursorModes", "u", &property_u, 0, kConst),
    SD_BUS_PROPERTY("version", "u", &property_u, 0, kConst),
    SD_BUS_VTABLE_END};

const sd_bus_vtable kRemoteDesktopTable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("CreateSession", "a{sv}", "o", &handle<&PortalService::create_session>, 0),
    SD_BUS_METHOD("SelectDevices", "oa{sv}", "o", &handle<&PortalService::select_devices>, 0),
    SD_BUS_METHOD("Start", "osa{sv}", "o", &handle<&PortalService::start>, 0),
    SD_BUS_METHOD("NotifyPointerMotion", "oa{sv}dd", "", &handle_notify, 0),
    SD_BUS_METHOD("NotifyPointerMotionAbsolute", "oa{sv}udd", "", &handle_notify, 0),
    SD_BUS_METHOD("NotifyPointerButton", "oa{sv}iu", "", &handle_notify, 0),
    SD_BUS_METHOD("NotifyPointerAxis", "oa{sv}dd", "", &handle_notify, 0),
    SD_BUS_METHOD("NotifyPointerAxisDiscrete", "oa{sv}ui", "", &handle_notify, 0),
    SD_BUS_METHOD("NotifyKeyboardKeycode", "oa{sv}iu", "", &handle_notify, 0),
    SD_BUS_METHOD("NotifyKeyboardKeysym", "oa{sv}iu", "", &handle_notify, 0),
    SD_BUS_PROPERTY("AvailableDeviceTypes", "u", &property_u, 0, kConst),
    SD_BUS_PROPERTY("version", "u", &property_u, 0, kConst),
    SD_BUS_VTABLE_END};

const sd_bus_vtable kSessionTable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Close", "", "", &handle_close, 0),
    SD_BUS_SIGNAL("Closed", "a{sv}", 0),
    SD_BUS_PROPERTY("version", "u", &property_u, 0, kConst),
    SD_BUS_VTABLE_END};

bool is_remote_desktop_call(sd_bus_message* m) {
  const char* interface = sd_bus_message_get_interface(m);
  return interface && std::strcmp(interface, kRemoteDesktopInterface) == 0;
}

// A token of the caller's when it gave one, else one of ours.
std::string token_or(const std::optional<std::string>& given, const char* prefix, uint32_t& counter) {
  return given ? *given : prefix + std::to_string(++counter);
}

std::string new_restore_token() {
  sd_id128_t id{};
  if (sd_id128_randomize(&id) < 0) return "voxl-test-restore";
  char text[SD_ID128_STRING_MAX];
  return sd_id128_to_string(id, text);
}

}  // namespace

PortalService::PortalService(sd_bus* bus, pw_core* core, const Picture& picture, PortalBehaviour behaviour)
    : bus_(bus), core_(core), picture_(picture), behaviour_(behaviour) {
  int r = sd_bus_add_object_vtable(bus_, &screen_cast_slot_, kDesktopPath, kScreenCastInterface, kScreenCastTable,
                                   this);
  if (r >= 0 && behaviour_.remote_desktop)
    r = sd_bus_add_object_vtable(bus_, &remote_desktop_slot_, kDesktopPath, kRemoteDesktopInterface,
                                 kRemoteDesktopTable, this);
  if (r >= 0)
    r = sd_bus_add_fallback_vtable(bus_, &session_slot_, "/org/freedesktop/portal/desktop/session",
                                   kSessionInterface, kSessionTable, &portal::find_session, this);
  if (r >= 0)
    r = sd_bus_match_signal(bus_, &owner_match_, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus", "NameOwnerChanged", &name_owner_changed, this);
  if (r < 0) {
    release_slots();
    throw std::runtime_error(std::string("cannot export the portal: ") + std::strerror(-r));
  }
}

PortalService::~PortalService() {
  sessions_.clear();
  dropped_.clear();
  release_slots();
}

void PortalService::release_slots() {
  for (sd_bus_slot** slot : {&screen_cast_slot_, &remote_desktop_slot_, &session_slot_, &owner_match_})
    *slot = sd_bus_slot_unref(*slot);
}

void PortalService::changed(Region region) {
  for (auto& [path, session] : sessions_)
    if (session->stream && session->started) session->stream->changed(region);
}

Session* PortalService::find_session(const std::string& path) {
  const auto it = sessions_.find(path);
  return it == sessions_.end() ? nullptr : it->second.get();
}

Session* PortalService::callers_session(sd_bus_message* m, const char* path, sd_bus_error* e) {
  Session* s = find_session(path);
  const char* sender = sd_bus_message_get_sender(m);
  if (!s || !sender || s->owner != sender) {
    access_denied(e, "Invalid session");
    return nullptr;
  }
  return s;
}

int PortalService::create_session(sd_bus_message* m, sd_bus_error* e) {
  CallOptions o;
  if (const int r = read_options(m, o, e); r < 0) return r;
  const char* sender = sd_bus_message_get_sender(m);
  if (!sender) return access_denied(e, "no sender");
  const std::string request = handle_path("request", sender, token_or(o.handle_token, "r", next_token_));
  const std::string path = handle_path("session", sender, token_or(o.session_handle_token, "s", next_token_));
  if (sessions_.count(path)) return invalid_args(e, "a session of that token exists");
  auto session = std::make_unique<Session>();
  session->service = this;
  session->path = path;
  session->owner = sender;
  session->remote_desktop = is_remote_desktop_call(m);
  sessions_[path] = std::move(session);
  const int r = sd_bus_reply_method_return(m, "o", request.c_str());
  emit_response(bus_, sender, request, 0, [&](sd_bus_message* results) {
    return sd_bus_message_append(results, "{sv}", "session_handle", "s", path.c_str());
  });
  return r;
}

int PortalService::select_devices(sd_bus_message* m, sd_bus_error* e) {
  const char* path = nullptr;
  if (sd_bus_message_read(m, "o", &path) < 0) return invalid_args(e, "no session");
  Session* s = callers_session(m, path, e);
  if (!s) return -EACCES;
  if (!s->remote_desktop) return access_denied(e, "Invalid session");
  CallOptions o;
  if (const int r = read_options(m, o, e); r < 0) return r;
  if (s->starting || s->started) return access_denied(e, "the session has started");
  if (s->devices_selected) return access_denied(e, "devices are already selected");
  if (o.types && (*o.types & ~kAllDevices) != 0) return invalid_args(e, "unsupported device types");
  if (o.persist_mode && *o.persist_mode > 2) return invalid_args(e, "persist_mode must be 0, 1 or 2");
  s->devices = o.types && *o.types ? *o.types : kAllDevices;
  s->persist_mode = o.persist_mode.value_or(0);
  s->devices_selected = true;
  if (o.restore_token) say("restore %s", o.restore_token->c_str());
  const std::string request = handle_path("request", s->owner.c_str(), token_or(o.handle_token, "r", next_token_));
  const int r = sd_bus_reply_method_return(m, "o", request.c_str());
  emit_response(bus_, s->owner, request, 0);
  return r;
}

int PortalService::select_sources(sd_bus_message* m, sd_bus_error* e) {
  const char* path = nullptr;
  if (sd_bus_message_read(m, "o", &path) < 0) return invalid_args(e, "no session");
  Session* s = callers_session(m, path, e);
  if (!s) return -EACCES;
  CallOptions o;
  if (const int r = read_options(m, o, e); r < 0) return r;
  if (s->starting || s->started) return access_denied(e, "the session has started");
  if (s->sources_selected) return access_denied(e, "sources are already selected");
  if (o.types && (*o.types == 0 || (*o.types & ~kMonitor) != 0)) return invalid_args(e, "unsupported source types");
  if (o.cursor_mode && *o.cursor_mode != kCursorHidden && *o.cursor_mode != kCursorEmbedded)
    return invalid_args(e, "unsupported cursor mode");
  if (o.persist_mode && *o.persist_mode > 2) return invalid_args(e, "persist_mode must be 0, 1 or 2");
  // As xdg-desktop-portal: a remote desktop session persists through
  // SelectDevices, not here.
  if (s->remote_desktop && (o.persist_mode || o.restore_token))
    return invalid_args(e, "Remote desktop sessions cannot persist");
  if (!s->remote_desktop) s->persist_mode = o.persist_mode.value_or(0);
  s->sources_selected = true;
  if (o.restore_token) say("restore %s", o.restore_token->c_str());
  const std::string request = handle_path("request", s->owner.c_str(), token_or(o.handle_token, "r", next_token_));
  const int r = sd_bus_reply_method_return(m, "o", request.c_str());
  emit_response(bus_, s->owner, request, 0);
  return r;
}

int PortalService::start(sd_bus_message* m, sd_bus_error* e) {
  const char *path = nullptr, *parent_window = nullptr;
  if (sd_bus_message_read(m, "os", &path, &parent_window) < 0) return invalid_args(e, "no session");
  Session* s = callers_session(m, path, e);
  if (!s) return -EACCES;
  if (s->remote_desktop != is_remote_desktop_call(m)) return access_denied(e, "Invalid session");
  CallOptions o;
  if (const int r = read_options(m, o, e); r < 0) return r;
  if (s->starting || s->started) return access_denied(e, "the session has started");
  if (!s->sources_selected && !(s->remote_desktop && s->devices_selected))
    return access_denied(e, "nothing is selected to start");
  const std::string request = handle_path("request", s->owner.c_str(), token_or(o.handle_token, "r", next_token_));
  const int r = sd_bus_reply_method_return(m, "o", request.c_str());
  s->starting = true;
  s->start_request = request;
  if (behaviour_.refuse) {
    answer_start(s->path, 1);
  } else if (s->sources_selected) {
    start_stream(*s);
  } else {
    answer_start(s->path, 0);
  }
  return r;
}

void PortalService::start_stream(Session& session) {
  const std::string path = session.path;
  ScreenStream::Events events;
  events.ready = [this, path](uint32_t node) {
    if (Session* s = find_session(path)) {
      s->node = node;
      if (s->starting) answer_start(path, 0);
    }
  };
  events.failed = [this, path](const std::string& why) {
    std::fprintf(stderr, "voxl-test-portal: %s\n", why.c_str());
    if (Session* s = find_session(path); s && s->starting) answer_start(path, 2);
  };
  try {
    session.stream = std::make_unique<ScreenStream>(core_, picture_, std::move(events));
  } catch (const std::exception& x) {
    std::fprintf(stderr, "voxl-test-portal: %s\n", x.what());
    answer_start(path, 2);
  }
}

void PortalService::answer_start(const std::string& path, uint32_t code) {
  Session* s = find_session(path);
  if (!s) return;
  s->starting = false;
  if (code != 0) {
    emit_response(bus_, s->owner, s->start_request, code);
    say(code == 1 ? "refused" : "failed");
    drop(path);
    return;
  }
  const std::string restore = s->persist_mode == 2 ? new_restore_token() : std::string();
  emit_response(bus_, s->owner, s->start_request, 0, [&](sd_bus_message* results) {
    int r = 0;
    if (s->remote_desktop) r = sd_bus_message_append(results, "{sv}", "devices", "u", s->devices);
    if (r >= 0 && s->sources_selected) {
      r = sd_bus_message_open_container(results, 'e', "sv");
      if (r >= 0) r = sd_bus_message_append(results, "s", "streams");
      if (r >= 0) r = sd_bus_message_open_container(results, 'v', "a(ua{sv})");
      if (r >= 0) r = sd_bus_message_open_container(results, 'a', "(ua{sv})");
      if (r >= 0)
        r = sd_bus_message_append(results, "(ua{sv})", s->node, 3, "size", "(ii)", picture_.width(), picture_.height(),
                                  "position", "(ii)", 0, 0, "source_type", "u", kMonitor);
      for (int i = 0; i < 3 && r >= 0; ++i) r = sd_bus_message_close_container(results);
    }
    if (r >= 0 && !restore.empty()) r = sd_bus_message_append(results, "{sv}", "restore_token", "s", restore.c_str());
    return r;
  });
  s->started = true;
  if (s->sources_selected) say("started %u %dx%d", s->node, picture_.width(), picture_.height());
  else say("started 0 0x0");
  if (behaviour_.close_after_start) {
    emit_closed(bus_, s->owner, path);
    say("revoked");
    drop(path);
  }
}

int PortalService::open_pipewire_remote(sd_bus_message* m, sd_bus_error* e) {
  const char* path = nullptr;
  if (sd_bus_message_read(m, "o", &path) < 0) return invalid_args(e, "no session");
  Session* s = callers_session(m, path, e);
  if (!s) return -EACCES;
  CallOptions o;
  if (const int r = read_options(m, o, e); r < 0) return r;
  if (!s->started || !s->sources_selected) return access_denied(e, "the screen cast has not started");
  const char* dir = std::getenv("PIPEWIRE_RUNTIME_DIR");
  if (!dir || !*dir) dir = std::getenv("XDG_RUNTIME_DIR");
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = std::string(dir ? dir : "") + "/pipewire-0";
  if (socket_path.size() >= sizeof address.sun_path) return refuse(e, SD_BUS_ERROR_FAILED, "the socket's path is long");
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) close(fd);
    return refuse(e, SD_BUS_ERROR_FAILED, "cannot reach PipeWire: " + why);
  }
  const int r = sd_bus_reply_method_return(m, "h", fd);  // sd-bus sends a copy
  close(fd);
  return r;
}

int PortalService::close_session(sd_bus_message* m, Session* session, sd_bus_error* e) {
  const char* sender = sd_bus_message_get_sender(m);
  if (!sender || session->owner != sender) return access_denied(e, "Invalid session");
  const int r = sd_bus_reply_method_return(m, "");
  say("closed");
  drop(session->path);
  return r;
}

void PortalService::owner_gone(const std::string& name) {
  std::vector<std::string> gone;
  for (const auto& [path, session] : sessions_)
    if (session->owner == name) gone.push_back(path);
  for (const std::string& path : gone) {
    say("dropped");
    drop(path);
  }
}

void PortalService::drop(const std::string& path) {
  const auto it = sessions_.find(path);
  if (it == sessions_.end()) return;
  dropped_.push_back(std::move(it->second));
  sessions_.erase(it);
}

void PortalService::tidy() { dropped_.clear(); }

void PortalService::stop_sharing() {
  std::vector<std::string> started;
  for (const auto& [path, session] : sessions_)
    if (session->started) started.push_back(path);
  for (const std::string& path : started) {
    emit_closed(bus_, sessions_[path]->owner, path);
    drop(path);
  }
  tidy();
}

}  // namespace voxl::testing::portal
