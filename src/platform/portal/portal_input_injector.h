// input::InputInjector for a desktop reached through the portal: keys by
// keysym (the compositor finds the key, so any character its keymap has
// types), the pointer in the shared monitor's coordinates, buttons, and
// both wheels in notches, each sent to the RemoteDesktop portal without
// waiting for its answer.
//
// The portal cannot be asked where the pointer is or what the lock keys
// say: pointer_position() is where this injector last put the pointer, and
// Caps Lock and Num Lock follow its own presses.
//
// Threads: see input::InputInjector (the loop thread). Shares the portal
// session with the desktop's other products.
#pragma once

#include <memory>
#include <optional>

#include "base/logging.h"
#include "input/input_injector.h"

namespace voxl::platform::portal {

class PortalSession;

class PortalInputInjector final : public input::InputInjector {
 public:
  // Throws std::runtime_error when the session took no keyboard or pointer.
  PortalInputInjector(std::shared_ptr<PortalSession> session, Logger log);

  input::InputStatus key(uint32_t keysym, bool down) override;
  input::InputStatus type_text(std::string_view utf8) override;
  void move(int x, int y) override;
  void button(int n, bool down) override;
  void scroll_notches(int dx, int dy) override;
  // The stream's size (it follows the monitor's), else the portal's.
  Size desktop_size() const override;
  bool caps_lock() override { return caps_; }
  bool num_lock() override { return num_; }
  std::optional<Point> pointer_position() override { return pointer_; }
  bool failed() const override { return failed_; }

 private:
  Logger log_;
  std::shared_ptr<PortalSession> session_;
  bool caps_ = false;
  bool num_ = false;
  bool failed_ = false;
  std::optional<Point> pointer_;
};

}  // namespace voxl::platform::portal
