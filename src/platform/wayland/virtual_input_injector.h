// input::InputInjector for a wlroots compositor: a virtual keyboard whose
// keymap voxl writes (keymap_table.h: one key per keysym, so any character
// types whatever the layout) and a virtual pointer on the output, moved in
// absolute coordinates, with buttons and both wheels.
//
// The compositor cannot be asked where its pointer is: pointer_position()
// says where this injector last put it. Caps Lock and Num Lock likewise
// follow this injector's own presses.
//
// Threads: see input::InputInjector (the loop thread). Owns its own
// Wayland connection; requests are sent at once, never waited on.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/logging.h"
#include "input/input_injector.h"
#include "platform/wayland/keymap_table.h"

struct zwp_virtual_keyboard_v1;
struct zwlr_virtual_pointer_v1;

namespace voxl::platform::wayland {

class WaylandDisplay;

class VirtualInputInjector final : public input::InputInjector {
 public:
  // Throws std::runtime_error when the compositor cannot be reached or
  // lacks the virtual keyboard or pointer protocols.
  VirtualInputInjector(const std::string& display, Logger log);
  ~VirtualInputInjector() override;

  input::InputStatus key(uint32_t keysym, bool down) override;
  input::InputStatus type_text(std::string_view utf8) override;
  void move(int x, int y) override;
  void button(int n, bool down) override;
  void scroll_notches(int dx, int dy) override;
  Size desktop_size() const override;
  bool caps_lock() override { return caps_; }
  bool num_lock() override { return num_; }
  std::optional<Point> pointer_position() override { return pointer_; }
  bool failed() const override;

 private:
  // Sends the keymap when it changed; false when it could not be made.
  bool upload_keymap();
  void send_key(uint32_t evdev_code, bool down);
  // Tells the compositor the modifiers when they changed.
  void send_modifiers();
  void flush();
  uint32_t now_ms() const;

  Logger log_;
  std::unique_ptr<WaylandDisplay> display_;
  zwp_virtual_keyboard_v1* keyboard_ = nullptr;
  zwlr_virtual_pointer_v1* pointer_device_ = nullptr;
  KeymapTable keymap_;
  bool caps_ = false;
  bool num_ = false;
  uint32_t sent_depressed_ = 0;
  uint32_t sent_locked_ = 0;
  std::optional<Point> pointer_;
};

}  // namespace voxl::platform::wayland
