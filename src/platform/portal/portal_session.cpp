#include "platform/portal/portal_session.h"

#include <fcntl.h>

#include <stdexcept>

#include "platform/portal/pipewire_stream.h"
#include "platform/portal/portal_bus.h"

namespace voxl::platform::portal {

namespace {

// A dialog on the desktop waits for its user.
constexpr std::chrono::minutes kConsentLimit{5};
constexpr std::chrono::seconds kCallLimit{20};
// How long a new stream may take to agree its format.
constexpr std::chrono::seconds kStreamLimit{10};

constexpr uint32_t kSourceMonitor = 1;
constexpr uint32_t kCursorEmbedded = 2;
constexpr uint32_t kCursorMetadata = 4;
constexpr uint32_t kCursorHidden = 1;
// Until the user revokes it.
constexpr uint32_t kPersistUntilRevoked = 2;

std::string refusal(const char* step, uint32_t code) {
  if (code == 1) return std::string("the desktop's user declined to share the screen (") + step + ")";
  return std::string("the desktop portal ended the request (") + step + ", response " + std::to_string(code) + ")";
}

LeadingArgs session_arg(const std::string& session) {
  return [session](sd_bus_message* m) {
    if (sd_bus_message_append(m, "o", session.c_str()) < 0) throw std::runtime_error("D-Bus: a bad session path");
  };
}

}  // namespace

PortalSession::PortalSession(const PortalSessionOptions& options, Logger log) : log_(std::move(log)) {
  bus_ = std::make_unique<PortalBus>(options.bus_address, log_);
  const auto cast_version = bus_->property_u(kScreenCast, "version");
  if (!cast_version)
    throw std::runtime_error("the desktop portal offers no ScreenCast: this desktop cannot share its screen");
  const auto remote_version = bus_->property_u(kRemoteDesktop, "version");
  const uint32_t modes = bus_->property_u(kScreenCast, "AvailableCursorModes").value_or(0);
  const uint32_t cursor = (modes & kCursorEmbedded)   ? kCursorEmbedded
                          : (modes & kCursorMetadata) ? kCursorMetadata
                                                      : kCursorHidden;
  if (!remote_version)
    input_refusal_ = "the desktop portal offers no RemoteDesktop (xdg-desktop-portal-wlr has none): the picture only";
  kind_ = remote_version ? "RemoteDesktop and ScreenCast" : "ScreenCast";
  create(remote_version.has_value(), cursor, options.restore_token);
  log_->info("asking the desktop to share its screen{}{}", remote_version ? " and take keyboard and pointer" : "",
             options.restore_token.empty() ? ": answer its dialog on the desktop (voxl waits up to 5 minutes)"
                                           : " (with the token of an earlier session)");
  // Watched before Start: the desktop may end the session at any time.
  bus_->watch_session(session_, [this] { closed_ = true; });
  start(remote_version.has_value());
}

PortalSession::~PortalSession() {
  picture_.reset();
  if (!bus_ || session_.empty() || closed_) return;
  bus_->close_session(session_);
}

void PortalSession::create(bool remote_desktop, uint32_t cursor_mode, const std::string& restore_token) {
  const char* iface = remote_desktop ? kRemoteDesktop : kScreenCast;
  auto created = bus_->request(iface, "CreateSession", nullptr, {{"session_handle_token", bus_->token()}}, kCallLimit);
  if (created.code != 0) throw std::runtime_error(refusal("CreateSession", created.code));
  session_ = read_session_handle(created.results.get());
  if (session_.empty()) throw std::runtime_error("the desktop portal created a session without naming it");

  PortalOptions sources{{"types", kSourceMonitor}, {"multiple", false}, {"cursor_mode", cursor_mode}};
  if (remote_desktop) {
    PortalOptions devices{{"types", kDeviceKeyboard | kDevicePointer}, {"persist_mode", kPersistUntilRevoked}};
    if (!restore_token.empty()) devices.push_back({"restore_token", restore_token});
    auto r = bus_->request(kRemoteDesktop, "SelectDevices", session_arg(session_), devices, kCallLimit);
    if (r.code != 0) throw std::runtime_error(refusal("SelectDevices", r.code));
  } else {
    // A ScreenCast session keeps its own token; a RemoteDesktop one keeps it with the devices.
    sources.push_back({"persist_mode", kPersistUntilRevoked});
    if (!restore_token.empty()) sources.push_back({"restore_token", restore_token});
  }
  auto r = bus_->request(kScreenCast, "SelectSources", session_arg(session_), sources, kCallLimit);
  if (r.code != 0) throw std::runtime_error(refusal("SelectSources", r.code));
}

void PortalSession::start(bool remote_desktop) {
  const std::string session = session_;
  auto leading = [session](sd_bus_message* m) {
    if (sd_bus_message_append(m, "os", session.c_str(), "") < 0) throw std::runtime_error("D-Bus: a bad session path");
  };
  auto r = bus_->request(remote_desktop ? kRemoteDesktop : kScreenCast, "Start", leading, {}, kConsentLimit);
  if (r.code != 0) throw std::runtime_error(refusal("Start", r.code));
  StartResults results = read_start_results(r.results.get());
  if (results.streams.empty()) throw std::runtime_error("the desktop portal started a session that casts no screen");
  stream_ = results.streams.front();
  devices_ = remote_desktop ? results.devices : 0;
  restore_token_ = results.restore_token;
  if (remote_desktop && !input()) input_refusal_ = "the desktop's user did not let voxl take keyboard and pointer";
}

bool PortalSession::closed() {
  std::lock_guard lock(mutex_);
  if (!closed_) bus_->process();
  return closed_;
}

Size PortalSession::size() {
  {
    std::lock_guard making(stream_mutex_);
    if (picture_ && picture_->size().width > 0) return picture_->size();
  }
  return stream_.size.value_or(Size{});
}

std::string PortalSession::describe() const {
  std::string s = "the desktop portal's " + kind_ + " (PipeWire node " + std::to_string(stream_.node);
  if (stream_.size) s += ", " + std::to_string(stream_.size->width) + "x" + std::to_string(stream_.size->height);
  return s + ")";
}

std::shared_ptr<PipewireStream> PortalSession::picture_stream() {
  std::lock_guard making(stream_mutex_);
  if (closed()) throw std::runtime_error("the desktop ended the screen-sharing session");
  if (picture_ && !picture_->failed()) return picture_;
  picture_.reset();
  picture_ = std::make_shared<PipewireStream>(open_pipewire_remote(), stream_.node, kStreamLimit);
  return picture_;
}

OwnedFile PortalSession::open_pipewire_remote() {
  std::lock_guard lock(mutex_);
  if (closed_) throw std::runtime_error("the desktop ended the screen-sharing session");
  auto args = [session = session_](sd_bus_message* m) {
    if (sd_bus_message_append(m, "o", session.c_str()) < 0) throw std::runtime_error("D-Bus: a bad session path");
    append_options(m, {});
  };
  MessagePtr reply = bus_->call(kScreenCast, "OpenPipeWireRemote", args, kCallLimit);
  int fd = -1;
  if (sd_bus_message_read(reply.get(), "h", &fd) < 0 || fd < 0)
    throw std::runtime_error("the desktop portal answered OpenPipeWireRemote without a socket");
  // The message owns its descriptor: a copy of our own outlives it.
  OwnedFile own(fcntl(fd, F_DUPFD_CLOEXEC, 3));
  if (!own.valid()) throw std::runtime_error("cannot keep the portal's PipeWire socket");
  return own;
}

// A RemoteDesktop Notify call on this session: `types` follow its "oa{sv}"
// (the session and no options), `args` fill them.
template <class... Args>
bool PortalSession::notify(const char* method, const char* types, Args... args) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  const std::string signature = std::string("oa{sv}") + types;
  return bus_->send(kRemoteDesktop, method, [&](sd_bus_message* m) {
    if (sd_bus_message_append(m, signature.c_str(), session_.c_str(), 0, args...) < 0)
      throw std::runtime_error(std::string("D-Bus: ") + method);
  });
}

bool PortalSession::keysym(uint32_t keysym, bool down) {
  return notify("NotifyKeyboardKeysym", "iu", int32_t(keysym), uint32_t(down));
}

bool PortalSession::pointer_motion(double x, double y) {
  return notify("NotifyPointerMotionAbsolute", "udd", stream_.node, x, y);
}

bool PortalSession::pointer_button(int32_t evdev_code, bool down) {
  return notify("NotifyPointerButton", "iu", evdev_code, uint32_t(down));
}

bool PortalSession::pointer_axis_discrete(uint32_t axis, int32_t steps) {
  return notify("NotifyPointerAxisDiscrete", "ui", axis, steps);
}

}  // namespace voxl::platform::portal
