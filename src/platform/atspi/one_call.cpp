#include "platform/atspi/one_call.h"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace voxl::platform::atspi {

OneCall::OneCall(sd_bus* bus, const BusObject& o, const char* interface, const char* member, A11yDeadline deadline)
    : bus_(bus), deadline_(deadline) {
  check(sd_bus_message_new_method_call(bus, &call_, o.name.c_str(), o.path.c_str(), interface, member));
}

OneCall::~OneCall() {
  sd_bus_message_unref(call_);
  sd_bus_message_unref(reply_);
  sd_bus_error_free(&error_);
}

sd_bus_message* OneCall::send() {
  const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline_ - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    sd_bus_error_set_const(&error_, SD_BUS_ERROR_TIMEOUT, "the deadline passed");
    return nullptr;
  }
  return sd_bus_call(bus_, call_, uint64_t(left.count()), &error_, &reply_) < 0 ? nullptr : reply_;
}

std::string OneCall::error() const {
  return error_.message ? error_.message : (error_.name ? error_.name : "failed");
}

bool OneCall::gone() const {
  return error_.name && (std::strcmp(error_.name, SD_BUS_ERROR_UNKNOWN_OBJECT) == 0 ||
                         std::strcmp(error_.name, SD_BUS_ERROR_NAME_HAS_NO_OWNER) == 0 ||
                         std::strcmp(error_.name, SD_BUS_ERROR_SERVICE_UNKNOWN) == 0);
}

bool OneCall::no_method() const {
  return error_.name && (std::strcmp(error_.name, SD_BUS_ERROR_UNKNOWN_METHOD) == 0 ||
                         std::strcmp(error_.name, SD_BUS_ERROR_UNKNOWN_INTERFACE) == 0);
}

void OneCall::check(int r) {
  if (r < 0) throw std::runtime_error("the accessibility bus: " + std::system_category().message(-r));
}

A11yActed boolean_answer(OneCall& c, sd_bus_message* reply, const std::string& what) {
  A11yActed out;
  int ok = 0;
  if (!reply) {
    out.gone = c.gone();
    out.how = what + " failed: " + c.error();
  } else if (sd_bus_message_read(reply, "b", &ok) < 0 || !ok) {
    out.how = what + " was refused by the application";
  } else {
    out.done = true;
    out.how = what;
  }
  return out;
}

A11yActed boolean_call(OneCall& c, const std::string& what) { return boolean_answer(c, c.send(), what); }

}  // namespace voxl::platform::atspi
