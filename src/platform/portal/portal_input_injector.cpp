#include "platform/portal/portal_input_injector.h"

#include <algorithm>
#include <stdexcept>

#include "input/keysym_typing.h"
#include "input/keysyms.h"
#include "platform/evdev_buttons.h"
#include "platform/portal/portal_session.h"

namespace voxl::platform::portal {

namespace {

constexpr uint32_t kAxisVertical = 0;
constexpr uint32_t kAxisHorizontal = 1;

}  // namespace

PortalInputInjector::PortalInputInjector(std::shared_ptr<PortalSession> session, Logger log)
    : log_(std::move(log)), session_(std::move(session)) {
  if (!session_->input()) throw std::runtime_error(session_->input_refusal());
}

input::InputStatus PortalInputInjector::key(uint32_t keysym, bool down) {
  if (failed_ || !session_->keysym(keysym, down)) {
    failed_ = true;
    return input::InputStatus::kFailed;
  }
  if (down && keysym == input::keysym::kCapsLock) caps_ = !caps_;
  if (down && keysym == input::keysym::kNumLock) num_ = !num_;
  return input::InputStatus::kOk;
}

input::InputStatus PortalInputInjector::type_text(std::string_view utf8) {
  // Typed text comes out as written, whatever the lock keys say.
  return input::type_by_keysyms(*this, utf8);
}

Size PortalInputInjector::desktop_size() const { return session_->size(); }

void PortalInputInjector::move(int x, int y) {
  const Size size_ = desktop_size();
  if (failed_ || size_.width <= 0 || size_.height <= 0) return;
  x = std::clamp(x, 0, size_.width - 1);
  y = std::clamp(y, 0, size_.height - 1);
  if (!session_->pointer_motion(x, y)) failed_ = true;
  pointer_ = Point{x, y};
}

void PortalInputInjector::button(int n, bool down) {
  if (failed_) return;
  if (n >= 4 && n <= 7) {  // the wheel, as X numbers it
    if (down) scroll_notches(n == 6 ? -1 : n == 7 ? 1 : 0, n == 4 ? -1 : n == 5 ? 1 : 0);
    return;
  }
  const auto code = evdev_button(n);
  if (!code) return;
  if (!session_->pointer_button(int32_t(*code), down)) failed_ = true;
}

void PortalInputInjector::scroll_notches(int dx, int dy) {
  if (failed_) return;
  if (dy != 0 && !session_->pointer_axis_discrete(kAxisVertical, dy)) failed_ = true;
  if (dx != 0 && !session_->pointer_axis_discrete(kAxisHorizontal, dx)) failed_ = true;
}

}  // namespace voxl::platform::portal
