#include "platform/atspi/atspi_connection.h"

#include <cstdlib>
#include <stdexcept>
#include <system_error>

namespace voxl::platform::atspi {
namespace {

std::string errno_text(int r) { return std::system_category().message(-r); }

}  // namespace

AtspiConnection::AtspiConnection(RootProperty root_property) : root_property_(std::move(root_property)) {}

AtspiConnection::~AtspiConnection() { reset(); }

void AtspiConnection::reset() {
  direct_.reset();
  if (bus_) bus_ = sd_bus_flush_close_unref(bus_);
}

std::optional<std::string> AtspiConnection::session_bus_address(std::string& why) const {
  sd_bus* session = nullptr;
  int r = sd_bus_open_user(&session);
  if (r < 0) {
    why = "no session bus (" + errno_text(r) + ")";
    return std::nullopt;
  }
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message* reply = nullptr;
  r = sd_bus_call_method(session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", &error, &reply, "");
  std::optional<std::string> out;
  const char* address = nullptr;
  if (r < 0)
    why = std::string("the session bus has no accessibility bus (") + (error.message ? error.message : errno_text(r)) + ")";
  else if (sd_bus_message_read(reply, "s", &address) < 0 || !address || !*address)
    why = "the session bus gave no accessibility bus address";
  else
    out = address;
  sd_bus_error_free(&error);
  sd_bus_message_unref(reply);
  sd_bus_flush_close_unref(session);
  return out;
}

sd_bus* AtspiConnection::get() {
  if (bus_) return bus_;
  std::string address;
  std::string root_why, session_why;
  if (const char* env = std::getenv("AT_SPI_BUS_ADDRESS"); env && *env)
    address = env;
  else if (auto a = root_property_ ? root_property_(root_why) : std::nullopt)
    address = *a;
  else if (auto s = session_bus_address(session_why))
    address = *s;
  else
    throw std::runtime_error("no accessibility bus: the display has no AT_SPI_BUS property (" + root_why + ") and " +
                             session_why);
  sd_bus* bus = nullptr;
  int r = sd_bus_new(&bus);
  if (r >= 0) r = sd_bus_set_address(bus, address.c_str());
  if (r >= 0) r = sd_bus_set_bus_client(bus, 1);
  if (r >= 0) r = sd_bus_start(bus);
  if (r < 0) {
    sd_bus_flush_close_unref(bus);
    throw std::runtime_error("the accessibility bus at " + address + " cannot be reached (" + errno_text(r) + ")");
  }
  bus_ = bus;
  return bus_;
}

}  // namespace voxl::platform::atspi
