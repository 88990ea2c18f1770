#include "platform/atspi/call_batch.h"

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace voxl::platform::atspi {

CallBatch::CallBatch(sd_bus* bus, std::chrono::steady_clock::time_point deadline) : bus_(bus), deadline_(deadline) {}

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
  sd_bus_message* m = nullptr;
  int r = sd_bus_message_new_method_call(bus_, &m, c.to.name.c_str(), c.to.path.c_str(), c.interface, c.member);
  if (r >= 0 && c.arguments) r = c.arguments(m);
  const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline_ - std::chrono::steady_clock::now());
  // A floating slot: the connection owns the pending call; a deadline
  // passed with it pending closes the connection, which drops it.
  if (r >= 0) r = sd_bus_call_async(bus_, nullptr, m, &CallBatch::on_reply, &c, uint64_t(std::max<int64_t>(1, left.count())));
  sd_bus_message_unref(m);
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
  c.answered = true;
  --b.in_flight_;
  Answer answer = std::move(c.answer);
  c.arguments = nullptr;
  if (sd_bus_message_is_method_error(m, nullptr))
    answer(nullptr, sd_bus_message_get_error(m));
  else
    answer(m, nullptr);
  b.send_waiting();
  return 0;
}

bool CallBatch::run() {
  while (in_flight_ > 0 || next_to_send_ < calls_.size()) {
    const int r = sd_bus_process(bus_, nullptr);
    if (r < 0) throw std::runtime_error("the accessibility bus failed: " + std::system_category().message(-r));
    if (r > 0) continue;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline_) return false;
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline_ - now);
    const int w = sd_bus_wait(bus_, uint64_t(left.count()) + 1);
    if (w < 0 && w != -EINTR)
      throw std::runtime_error("the accessibility bus failed: " + std::system_category().message(-w));
  }
  return true;
}

std::map<std::string, size_t> CallBatch::unanswered() const {
  std::map<std::string, size_t> out;
  for (const Call& c : calls_)
    if (!c.answered) ++out[c.to.name];
  return out;
}

}  // namespace voxl::platform::atspi
