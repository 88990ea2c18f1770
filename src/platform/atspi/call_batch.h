// Many D-Bus method calls in flight at once on one sd-bus connection, each
// answered to a function, run until every one is answered or a deadline
// passes: an application that answers slowly or never costs the deadline,
// not a timeout per call. A function may send more calls into the batch.
//
// A call to an application with a direct connection (direct_buses.h) goes
// there; when that connection fails or is refused, the call is sent again
// on the bus, and the application is asked on the bus from then on.
//
// Threads: one thread, the one that owns the connections. Ownership: the
// batch borrows them; when run() returns false (the deadline passed with
// calls unanswered) their replies may still come, so the caller must close
// them all (AtspiConnection::reset) before the batch goes.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <string>

#include <systemd/sd-bus.h>

#include "platform/atspi/direct_buses.h"

namespace voxl::platform::atspi {

// An object on the bus: a connection's unique name and an object path.
struct BusObject {
  std::string name;
  std::string path;
};

class CallBatch {
 public:
  // The reply, or null when the call failed (`error` says why).
  using Answer = std::function<void(sd_bus_message* reply, const sd_bus_error* error)>;
  // Fills a method call's arguments; returns sd-bus's result (< 0: failed).
  using Arguments = std::function<int(sd_bus_message*)>;
  // At most this many calls wait for an answer; the rest wait to be sent.
  static constexpr size_t kMaxInFlight = 256;

  // `direct` may be null: every call then goes on `bus`.
  CallBatch(sd_bus* bus, std::chrono::steady_clock::time_point deadline, DirectBuses* direct = nullptr);
  CallBatch(const CallBatch&) = delete;
  CallBatch& operator=(const CallBatch&) = delete;

  void call(const BusObject& to, const char* interface, const char* member, Answer answer,
            Arguments arguments = {});
  // Answers calls until none is left (true) or the deadline (false).
  // Throws std::runtime_error when the bus connection fails.
  bool run();
  // The names of the connections that still owe an answer.
  std::map<std::string, size_t> unanswered() const;

 private:
  struct Call {
    CallBatch* batch = nullptr;
    BusObject to;
    sd_bus* via = nullptr;  // the connection it was sent on
    const char* interface = nullptr;
    const char* member = nullptr;
    Answer answer;
    Arguments arguments;
    bool answered = false;
  };
  static int on_reply(sd_bus_message* m, void* userdata, sd_bus_error* error);
  void send(Call& c);
  void send_waiting();
  // Processes what every connection has; true when it did something.
  bool process();
  // Waits for any connection, the deadline at most.
  void wait();
  // Stops using `direct` and sends again on the bus what waits for an
  // answer there (answers that come from it later are dropped).
  void abandon(sd_bus* direct);

  sd_bus* bus_;
  std::chrono::steady_clock::time_point deadline_;
  DirectBuses* direct_;
  std::deque<Call> calls_;  // stable addresses: sd-bus holds pointers to them
  size_t next_to_send_ = 0;
  size_t in_flight_ = 0;
};

}  // namespace voxl::platform::atspi
