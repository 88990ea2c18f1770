#include "platform/atspi/call_batch.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace voxl::platform::atspi {
namespace {

[[noreturn]] void bus_failed(int r) {
  throw std::runtime_error("the accessibility bus failed: " + std::system_category().message(-r));
}

}  // namespace

CallBatch::CallBatch(sd_bus* bus, std::chrono::steady_clock::time_point deadline, DirectBuses* direct)
    : bus_(bus), deadline_(deadline), direct_(direct) {}

void CallBatch::call(const BusObject& to, const char* interface, const char* member, Answer answer,
                     Arguments arguments) {
  Call& c = calls_.emplace_back();
  c.batch = this;
  c.to = to;
  c.interface = interface;
  c.member = member;
  c.answer = std::move(answer);
  c.arguments = std::move(arguments);
  send_waiting();
}

void CallBatch::send_waiting() {
  while (next_to_send_ < calls_.size() && in_flight_ < kMaxInFlight) send(calls_[next_to_send_++]);
}

void CallBatch::send(Call& c) {
  sd_bus* direct = direct_ ? direct_->find(c.to.name) : nullptr;
  c.via = direct ? direct : bus_;
  sd_bus_message* m = nullptr;
  int r = sd_bus_message_new_method_call(c.via, &m, c.to.name.c_str(), c.to.path.c_str(), c.interface, c.member);
  if (r >= 0 && c.arguments) r = c.arguments(m);
  const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline_ - std::chrono::steady_clock::now());
  // A floating slot: the connection owns the pending call; a deadline
  // passed with it pending closes the connection, which drops it.
  if (r >= 0)
    r = sd_bus_call_async(c.via, nullptr, m, &CallBatch::on_reply, &c, uint64_t(std::max<int64_t>(1, left.count())));
  sd_bus_message_unref(m);
  if (r < 0 && direct) {
    // The direct connection is closing: the bus, then, for this call and
    // those waiting there.
    c.via = nullptr;
    abandon(direct);
    send(c);
    return;
  }
  if (r < 0) {
    c.answered = true;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    sd_bus_error_set_errno(&e, r);
    Answer answer = std::move(c.answer);
    answer(nullptr, &e);
    sd_bus_error_free(&e);
    return;
  }
  ++in_flight_;
}

int CallBatch::on_reply(sd_bus_message* m, void* userdata, sd_bus_error*) {
  Call& c = *static_cast<Call*>(userdata);
  CallBatch& b = *c.batch;
  // An answer from where the call no longer waits: it was sent again.
  if (sd_bus_message_get_bus(m) != c.via) return 0;
  if (c.via != b.bus_ && sd_bus_message_is_method_error(m, nullptr) && sd_bus_is_open(c.via) <= 0) {
    // Not the application's answer: its direct connection closed (or it
    // refused us). This question and the others waiting there go on the bus.
    b.abandon(c.via);
    return 0;
  }
  --b.in_flight_;
  c.answered = true;
  Answer answer = std::move(c.answer);
  c.arguments = nullptr;
  if (sd_bus_message_is_method_error(m, nullptr))
    answer(nullptr, sd_bus_message_get_error(m));
  else
    answer(m, nullptr);
  b.send_waiting();
  return 0;
}

void CallBatch::abandon(sd_bus* direct) {
  direct_->fail(direct);
  for (Call& c : calls_) {
    if (c.answered || c.via != direct) continue;
    --in_flight_;
    send(c);
  }
}

bool CallBatch::process() {
  // Each connection until it has nothing, then a wait for all: asking one
  // that has nothing costs a read.
  bool did = false;
  int r;
  while ((r = sd_bus_process(bus_, nullptr)) > 0) did = true;
  if (r < 0) bus_failed(r);
  if (!direct_) return did;
  for (sd_bus* d : direct_->all()) {
    while ((r = sd_bus_process(d, nullptr)) > 0) did = true;
    if (r < 0) {
      abandon(d);
      did = true;
    }
  }
  return did;
}

void CallBatch::wait() {
  std::vector<sd_bus*> buses{bus_};
  if (direct_) {
    const auto more = direct_->all();
    buses.insert(buses.end(), more.begin(), more.end());
  }
  const auto to_usec = [](std::chrono::steady_clock::time_point t) {
    return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count());
  };
  const uint64_t now = to_usec(std::chrono::steady_clock::now());
  uint64_t until = to_usec(deadline_);
  std::vector<pollfd> fds;
  for (sd_bus* b : buses) {
    const int fd = sd_bus_get_fd(b);
    const int events = sd_bus_get_events(b);
    if (fd < 0 || events < 0) {
      if (b == bus_) bus_failed(fd < 0 ? fd : events);
      abandon(b);
      return;
    }
    fds.push_back(pollfd{fd, short(events), 0});
    uint64_t t = 0;
    if (sd_bus_get_timeout(b, &t) >= 0) until = std::min(until, t);
  }
  // Milliseconds, rounded up: poll() returning early only loops again.
  const int ms = until <= now ? 0 : int(std::min<uint64_t>((until - now + 999) / 1000, 60'000));
  if (poll(fds.data(), fds.size(), ms) < 0 && errno != EINTR) bus_failed(-errno);
}

bool CallBatch::run() {
  struct CloseFailed {
    DirectBuses* direct;
    ~CloseFailed() {
      if (direct) direct->close_failed();
    }
  } close_failed{direct_};
  for (;;) {
    process();
    if (in_flight_ == 0 && next_to_send_ == calls_.size()) return true;
    if (std::chrono::steady_clock::now() >= deadline_) return false;
    wait();
  }
}

std::map<std::string, size_t> CallBatch::unanswered() const {
  std::map<std::string, size_t> out;
  for (const Call& c : calls_)
    if (!c.answered) ++out[c.to.name];
  return out;
}

}  // namespace voxl::platform::atspi
