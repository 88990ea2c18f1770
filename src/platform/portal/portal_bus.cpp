#include "platform/portal/portal_bus.h"

#include <cstring>
#include <stdexcept>

namespace voxl::platform::portal {

namespace {

constexpr const char* kRequestInterface = "org.freedesktop.portal.Request";
constexpr int kMaxSendErrorsLogged = 5;

void check(int r, const char* what) {
  if (r < 0) throw std::runtime_error(std::string("D-Bus: ") + what + ": " + std::strerror(-r));
}

std::string error_text(const sd_bus_error& e, int r) {
  if (sd_bus_error_is_set(&e)) return std::string(e.name) + (e.message ? std::string(": ") + e.message : "");
  return std::strerror(-r);
}

struct ResponseSlot {
  const std::string* portal = nullptr;  // the portal's unique name: others may not answer for it
  MessagePtr message;
  bool arrived = false;
};

bool from(sd_bus_message* m, const std::string& owner) {
  const char* sender = sd_bus_message_get_sender(m);
  return sender && owner == sender;
}

int on_response(sd_bus_message* m, void* userdata, sd_bus_error*) {
  auto* slot = static_cast<ResponseSlot*>(userdata);
  if (slot->arrived || !from(m, *slot->portal)) return 0;
  slot->arrived = true;
  slot->message.reset(sd_bus_message_ref(m));
  return 0;
}

}  // namespace

void append_options(sd_bus_message* m, const PortalOptions& options) {
  check(sd_bus_message_open_container(m, 'a', "{sv}"), "options");
  for (const PortalOption& o : options) {
    if (const auto* u = std::get_if<uint32_t>(&o.value))
      check(sd_bus_message_append(m, "{sv}", o.key.c_str(), "u", *u), "options");
    else if (const auto* b = std::get_if<bool>(&o.value))
      check(sd_bus_message_append(m, "{sv}", o.key.c_str(), "b", int(*b)), "options");
    else
      check(sd_bus_message_append(m, "{sv}", o.key.c_str(), "s", std::get<std::string>(o.value).c_str()), "options");
  }
  check(sd_bus_message_close_container(m), "options");
}

PortalBus::PortalBus(const std::string& address, Logger log) : log_(std::move(log)) {
  int r = 0;
  if (address.empty()) {
    r = sd_bus_open_user(&bus_);
  } else {
    r = sd_bus_new(&bus_);
    if (r >= 0) r = sd_bus_set_address(bus_, address.c_str());
    if (r >= 0) r = sd_bus_set_bus_client(bus_, 1);
    if (r >= 0) r = sd_bus_start(bus_);
  }
  if (r < 0) {
    if (bus_) sd_bus_unref(bus_);
    bus_ = nullptr;
    throw std::runtime_error(std::string("the desktop portal needs the session bus, which cannot be reached: ") +
                             std::strerror(-r));
  }
  try {
    const char* unique = nullptr;
    check(sd_bus_get_unique_name(bus_, &unique), "the bus named no unique name");
    sender_ = unique[0] == ':' ? unique + 1 : unique;
    for (char& c : sender_)
      if (c == '.') c = '_';
    find_portal();
  } catch (...) {
    sd_bus_flush_close_unref(bus_);  // no destructor runs for a constructor that throws
    bus_ = nullptr;
    throw;
  }
}

void PortalBus::find_portal() {
  const auto owner_of_name = [this](sd_bus_error& e) {
    sd_bus_message* reply = nullptr;
    int r = sd_bus_call_method(bus_, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "GetNameOwner", &e, &reply, "s", kPortalName);
    const char* owner = nullptr;
    if (r >= 0 && sd_bus_message_read(reply, "s", &owner) >= 0 && owner) portal_owner_ = owner;
    sd_bus_message_unref(reply);
    return r;
  };
  sd_bus_error e = SD_BUS_ERROR_NULL;
  int r = owner_of_name(e);
  if (portal_owner_.empty()) {
    // Not running: the bus starts it where it can (D-Bus activation).
    sd_bus_error_free(&e);
    sd_bus_message* reply = nullptr;
    r = sd_bus_call_method(bus_, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                           "StartServiceByName", &e, &reply, "su", kPortalName, 0u);
    sd_bus_message_unref(reply);
    if (r >= 0) r = owner_of_name(e);
  }
  std::string why = r < 0 ? error_text(e, r) : "";
  sd_bus_error_free(&e);
  if (portal_owner_.empty())
    throw std::runtime_error("no desktop portal answers on the session bus (is xdg-desktop-portal installed, with "
                             "the desktop's backend?): " + why);
}

PortalBus::~PortalBus() {
  if (closed_slot_) sd_bus_slot_unref(closed_slot_);
  if (bus_) sd_bus_flush_close_unref(bus_);
}

std::string PortalBus::token() { return "voxl" + std::to_string(++next_token_); }

std::optional<uint32_t> PortalBus::property_u(const char* interface, const char* name) {
  sd_bus_error e = SD_BUS_ERROR_NULL;
  uint32_t value = 0;
  const int r = sd_bus_get_property_trivial(bus_, kPortalName, kPortalPath, interface, name, &e, 'u', &value);
  sd_bus_error_free(&e);
  if (r < 0) return std::nullopt;
  return value;
}

bool PortalBus::run_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    int r = 0;
    while ((r = sd_bus_process(bus_, nullptr)) > 0) {
    }
    if (r < 0) throw std::runtime_error(std::string("D-Bus: the session bus failed: ") + std::strerror(-r));
    if (done()) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - now).count();
    const int w = sd_bus_wait(bus_, uint64_t(left));
    if (w < 0 && w != -EINTR) check(w, "waiting for the portal");  // a signal is no failure
  }
}

PortalResponse PortalBus::request(const char* interface, const char* method, const LeadingArgs& leading,
                                  PortalOptions options, std::chrono::milliseconds limit) {
  const std::string handle = token();
  const std::string path = std::string(kPortalPath) + "/request/" + sender_ + "/" + handle;
  ResponseSlot slot;
  slot.portal = &portal_owner_;
  sd_bus_slot* match = nullptr;
  check(sd_bus_match_signal(bus_, &match, nullptr, path.c_str(), kRequestInterface, "Response", on_response, &slot),
        "subscribing to the portal's answer");
  struct SlotUnref {
    void operator()(sd_bus_slot* s) const { sd_bus_slot_unref(s); }
  };
  std::unique_ptr<sd_bus_slot, SlotUnref> match_owner(match);

  options.push_back({"handle_token", handle});
  sd_bus_message* raw = nullptr;
  check(sd_bus_message_new_method_call(bus_, &raw, kPortalName, kPortalPath, interface, method), "a call");
  MessagePtr m(raw);
  if (leading) leading(m.get());
  append_options(m.get(), options);
  sd_bus_error e = SD_BUS_ERROR_NULL;
  sd_bus_message* reply = nullptr;
  const int r = sd_bus_call(bus_, m.get(), uint64_t(limit.count()) * 1000, &e, &reply);
  MessagePtr reply_owner(reply);
  if (r < 0) {
    std::string why = error_text(e, r);
    sd_bus_error_free(&e);
    throw std::runtime_error(std::string("the desktop portal refused ") + method + ": " + why);
  }
  const char* returned = nullptr;
  check(sd_bus_message_read(reply, "o", &returned), "the portal's answer");
  std::unique_ptr<sd_bus_slot, SlotUnref> late_match;
  if (path != returned) {  // a portal older than handle_token: follow the path it gave
    sd_bus_slot* other = nullptr;
    check(sd_bus_match_signal(bus_, &other, nullptr, returned, kRequestInterface, "Response", on_response, &slot),
          "subscribing to the portal's answer");
    late_match.reset(other);
  }
  if (!run_until([&] { return slot.arrived; }, std::chrono::steady_clock::now() + limit))
    throw std::runtime_error(std::string("the desktop portal did not answer ") + method + " in " +
                             std::to_string(limit.count() / 1000) + " s");
  PortalResponse out;
  check(sd_bus_message_read(slot.message.get(), "u", &out.code), "the portal's answer");
  out.results = std::move(slot.message);
  return out;
}

MessagePtr PortalBus::call(const char* interface, const char* method, const LeadingArgs& args,
                           std::chrono::milliseconds limit) {
  sd_bus_message* raw = nullptr;
  check(sd_bus_message_new_method_call(bus_, &raw, kPortalName, kPortalPath, interface, method), "a call");
  MessagePtr m(raw);
  if (args) args(m.get());
  sd_bus_error e = SD_BUS_ERROR_NULL;
  sd_bus_message* reply = nullptr;
  const int r = sd_bus_call(bus_, m.get(), uint64_t(limit.count()) * 1000, &e, &reply);
  if (r < 0) {
    std::string why = error_text(e, r);
    sd_bus_error_free(&e);
    throw std::runtime_error(std::string("the desktop portal refused ") + method + ": " + why);
  }
  return MessagePtr(reply);
}

bool PortalBus::send(const char* interface, const char* method, const LeadingArgs& args) {
  sd_bus_message* raw = nullptr;
  if (sd_bus_message_new_method_call(bus_, &raw, kPortalName, kPortalPath, interface, method) < 0) return false;
  MessagePtr m(raw);
  try {
    if (args) args(m.get());
  } catch (const std::runtime_error&) {
    return false;
  }
  auto on_reply = [](sd_bus_message* reply, void* userdata, sd_bus_error*) -> int {
    auto* self = static_cast<PortalBus*>(userdata);
    const sd_bus_error* e = sd_bus_message_get_error(reply);
    if (e && self->send_errors_logged_ < kMaxSendErrorsLogged) {
      ++self->send_errors_logged_;
      self->log_->warn("the desktop portal refused input: {}: {}", e->name ? e->name : "?", e->message ? e->message : "");
    }
    return 0;
  };
  // A floating slot: sd-bus frees it with the answer, or with the bus.
  if (sd_bus_call_async(bus_, nullptr, m.get(), on_reply, this, 0) < 0) return false;
  process();
  return true;
}

void PortalBus::process() {
  int r = 0;
  while ((r = sd_bus_process(bus_, nullptr)) > 0) {
  }
}

void PortalBus::close_session(const std::string& path) {
  sd_bus_message* raw = nullptr;
  if (sd_bus_message_new_method_call(bus_, &raw, kPortalName, path.c_str(), "org.freedesktop.portal.Session",
                                     "Close") < 0)
    return;
  MessagePtr m(raw);
  sd_bus_error e = SD_BUS_ERROR_NULL;
  sd_bus_message* reply = nullptr;
  sd_bus_call(bus_, m.get(), 2'000'000, &e, &reply);
  sd_bus_message_unref(reply);
  sd_bus_error_free(&e);
}

void PortalBus::watch_session(const std::string& path, std::function<void()> on_closed) {
  on_closed_ = std::move(on_closed);
  auto handler = [](sd_bus_message* m, void* userdata, sd_bus_error*) -> int {
    auto* self = static_cast<PortalBus*>(userdata);
    if (self->on_closed_ && from(m, self->portal_owner_)) self->on_closed_();
    return 0;
  };
  check(sd_bus_match_signal(bus_, &closed_slot_, nullptr, path.c_str(), "org.freedesktop.portal.Session", "Closed",
                            handler, this),
        "subscribing to the session's end");
}

}  // namespace voxl::platform::portal
