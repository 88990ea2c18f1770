#include "input/recovering_injector.h"

#include <optional>
#include <string>
#include <utility>

namespace voxl::input {

RecoveringInjector::RecoveringInjector(std::unique_ptr<InputInjector> first, Factory make, Logger log,
                                       std::function<Clock::time_point()> now)
    : current_(std::move(first)), make_(std::move(make)), log_(std::move(log)), now_(std::move(now)) {
  if (current_) last_size_ = current_->desktop_size();
}

InputInjector* RecoveringInjector::live() {
  if (current_ && !current_->failed()) return current_.get();
  const auto now = now_();
  if (current_) {
    log_->warn("input lost: the desktop's connection failed; making a new one");
    current_.reset();
    next_try_ = now;  // the desktop may be back already
    reconnector_.restart();
  }
  if (now < next_try_) return nullptr;
  const auto back = reconnector_.try_once(
      [this]() -> std::optional<InputInjector*> {
        auto fresh = make_();
        if (!fresh || fresh->failed()) return std::nullopt;
        log_->info("input is back");
        current_ = std::move(fresh);
        last_size_ = current_->desktop_size();
        return current_.get();
      },
      [this](const std::string& why) { log_->warn("input: still cannot reach the desktop: {}", why); });
  if (back) return *back;
  next_try_ = now + reconnector_.next_wait();
  return nullptr;
}

template <class Call>
auto RecoveringInjector::with_live(Call call, decltype(call(std::declval<InputInjector&>())) none) {
  InputInjector* i = live();
  if (!i) return none;
  auto result = call(*i);
  // The call is what showed the connection dead (a write to a server that
  // is gone): it did nothing, so it goes to the new desktop instead.
  if (i->failed()) {
    i = live();
    if (!i) return none;
    result = call(*i);
  }
  return result;
}

InputStatus RecoveringInjector::key(uint32_t keysym, bool down) {
  return with_live([&](InputInjector& i) { return i.key(keysym, down); }, InputStatus::kFailed);
}

InputStatus RecoveringInjector::type_text(std::string_view utf8) {
  return with_live([&](InputInjector& i) { return i.type_text(utf8); }, InputStatus::kFailed);
}

void RecoveringInjector::move(int x, int y) {
  with_live([&](InputInjector& i) { return (i.move(x, y), true); }, false);
}

void RecoveringInjector::button(int n, bool down) {
  with_live([&](InputInjector& i) { return (i.button(n, down), true); }, false);
}

void RecoveringInjector::scroll_notches(int dx, int dy) {
  with_live([&](InputInjector& i) { return (i.scroll_notches(dx, dy), true); }, false);
}

Size RecoveringInjector::desktop_size() const {
  return current_ && !current_->failed() ? current_->desktop_size() : last_size_;
}

bool RecoveringInjector::caps_lock() {
  return with_live([](InputInjector& i) { return i.caps_lock(); }, false);
}

std::optional<Point> RecoveringInjector::pointer_position() {
  return with_live([](InputInjector& i) { return i.pointer_position(); }, std::optional<Point>{});
}

bool RecoveringInjector::num_lock() {
  return with_live([](InputInjector& i) { return i.num_lock(); }, false);
}

}  // namespace voxl::input
