// One AT-SPI method call, answered within a deadline, for the actions on
// an element (the tree is read with CallBatch, many calls at once).
//
// Threads: the thread that owns the connection. Ownership: the call
// borrows the bus; it owns its message, its reply and its error.
#pragma once

#include <string>

#include <systemd/sd-bus.h>

#include "platform/accessibility.h"
#include "platform/atspi/call_batch.h"

namespace voxl::platform::atspi {

class OneCall {
 public:
  // Throws std::runtime_error when the message cannot be made.
  OneCall(sd_bus* bus, const BusObject& o, const char* interface, const char* member, A11yDeadline deadline);
  ~OneCall();
  OneCall(const OneCall&) = delete;
  OneCall& operator=(const OneCall&) = delete;

  // To append the call's arguments to, before send().
  sd_bus_message* args() { return call_; }
  // The reply, or null with error() set.
  sd_bus_message* send();
  std::string error() const;
  // The element (or its application) no longer exists.
  bool gone() const;
  // The element has no such method: it lacks the interface.
  bool no_method() const;
  // Throws std::runtime_error for a negative sd-bus result.
  static void check(int r);

 private:
  sd_bus* bus_;
  A11yDeadline deadline_;
  sd_bus_message* call_ = nullptr;
  sd_bus_message* reply_ = nullptr;
  sd_bus_error error_ = SD_BUS_ERROR_NULL;
};

// The answer of a call that answers one boolean ("b"): done, or refused.
A11yActed boolean_answer(OneCall& c, sd_bus_message* reply, const std::string& what);
A11yActed boolean_call(OneCall& c, const std::string& what);

}  // namespace voxl::platform::atspi
