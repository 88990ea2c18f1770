#include "platform/wayland/virtual_input_injector.h"

#include <linux/input-event-codes.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include <wayland-client.h>

#include "input/keysym_typing.h"
#include "platform/evdev_buttons.h"
#include "input/key_mapping.h"
#include "input/keysyms.h"
#include "platform/owned_file.h"
#include "platform/wayland/wayland_display.h"
#include "virtual-keyboard-unstable-v1-client.h"
#include "wlr-virtual-pointer-unstable-v1-client.h"

namespace voxl::platform::wayland {

VirtualInputInjector::VirtualInputInjector(const std::string& display, Logger log)
    : log_(std::move(log)), display_(std::make_unique<WaylandDisplay>(display)) {
  if (!display_->seat()) throw std::runtime_error("the Wayland compositor has no seat to send input to");
  if (!display_->virtual_keyboard() || !display_->virtual_pointer())
    throw std::runtime_error("the Wayland compositor at " + display_->path() +
                             " takes no input from clients (no virtual keyboard or pointer protocol): it is not a "
                             "wlroots compositor");
  keyboard_ = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(display_->virtual_keyboard(), display_->seat());
  if (display_->virtual_pointer_version() >= 2)
    pointer_device_ = zwlr_virtual_pointer_manager_v1_create_virtual_pointer_with_output(
        display_->virtual_pointer(), display_->seat(), display_->output());
  else
    pointer_device_ = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(display_->virtual_pointer(),
                                                                             display_->seat());
  if (!upload_keymap()) throw std::runtime_error("cannot give the compositor a keymap");
  if (!display_->roundtrip())
    throw std::runtime_error("the Wayland compositor refused the virtual keyboard: " + display_->error());
}

VirtualInputInjector::~VirtualInputInjector() {
  if (pointer_device_) zwlr_virtual_pointer_v1_destroy(pointer_device_);
  if (keyboard_) zwp_virtual_keyboard_v1_destroy(keyboard_);
  if (display_ && !display_->failed()) display_->roundtrip();
}

bool VirtualInputInjector::failed() const { return display_->failed(); }

Size VirtualInputInjector::desktop_size() const { return display_->output_size(); }

uint32_t VirtualInputInjector::now_ms() const {
  return uint32_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

void VirtualInputInjector::flush() {
  // Reads what the compositor said (errors among it) without waiting.
  display_->dispatch_ready();
}

bool VirtualInputInjector::upload_keymap() {
  const std::string text = keymap_.text();
  OwnedFile fd(memfd_create("voxl-keymap", MFD_CLOEXEC));
  if (!fd.valid() || ftruncate(fd.get(), off_t(text.size() + 1)) != 0) return false;
  void* m = mmap(nullptr, text.size() + 1, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (m == MAP_FAILED) return false;
  std::memcpy(m, text.c_str(), text.size() + 1);
  munmap(m, text.size() + 1);
  zwp_virtual_keyboard_v1_keymap(keyboard_, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd.get(), uint32_t(text.size() + 1));
  return true;
}

void VirtualInputInjector::send_key(uint32_t evdev_code, bool down) {
  zwp_virtual_keyboard_v1_key(keyboard_, now_ms(), evdev_code,
                              down ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
}

void VirtualInputInjector::send_modifiers() {
  // wlroots does not work a virtual keyboard's modifiers out from its keys:
  // they are sent whenever they change.
  const uint32_t locked = (caps_ ? KeymapTable::modifier_mask("Lock") : 0) |
                          (num_ ? KeymapTable::modifier_mask("Mod2") : 0);
  const uint32_t depressed = keymap_.depressed_modifiers();
  if (depressed == sent_depressed_ && locked == sent_locked_) return;
  zwp_virtual_keyboard_v1_modifiers(keyboard_, depressed, 0, locked, 0);
  sent_depressed_ = depressed;
  sent_locked_ = locked;
}

input::InputStatus VirtualInputInjector::key(uint32_t keysym, bool down) {
  if (failed()) return input::InputStatus::kFailed;
  if (!down && !keymap_.is_down(keysym)) return input::InputStatus::kOk;  // never pressed here
  const auto binding = keymap_.bind(keysym);
  if (!binding) return input::InputStatus::kNoSpareKeycode;
  if (binding->keymap_changed && !upload_keymap()) return input::InputStatus::kFailed;
  send_key(binding->evdev_code, down);
  keymap_.set_down(keysym, down);
  if (down && keysym == input::keysym::kCapsLock) caps_ = !caps_;
  if (down && keysym == input::keysym::kNumLock) num_ = !num_;
  send_modifiers();
  flush();
  return failed() ? input::InputStatus::kFailed : input::InputStatus::kOk;
}

input::InputStatus VirtualInputInjector::type_text(std::string_view utf8) {
  // Typed text comes out as written, whatever the lock keys say.
  return input::type_by_keysyms(*this, utf8);
}

void VirtualInputInjector::move(int x, int y) {
  if (failed()) return;
  const Size s = desktop_size();
  if (s.width <= 0 || s.height <= 0) return;
  x = std::clamp(x, 0, s.width - 1);
  y = std::clamp(y, 0, s.height - 1);
  zwlr_virtual_pointer_v1_motion_absolute(pointer_device_, now_ms(), uint32_t(x), uint32_t(y), uint32_t(s.width),
                                          uint32_t(s.height));
  zwlr_virtual_pointer_v1_frame(pointer_device_);
  pointer_ = Point{x, y};
  flush();
}

void VirtualInputInjector::button(int n, bool down) {
  if (failed()) return;
  if (n >= 4 && n <= 7) {  // the wheel, as X numbers it
    if (down) scroll_notches(n == 6 ? -1 : n == 7 ? 1 : 0, n == 4 ? -1 : n == 5 ? 1 : 0);
    return;
  }
  const auto code = evdev_button(n);
  if (!code) return;
  zwlr_virtual_pointer_v1_button(pointer_device_, now_ms(), *code,
                                 down ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
  zwlr_virtual_pointer_v1_frame(pointer_device_);
  flush();
}

void VirtualInputInjector::scroll_notches(int dx, int dy) {
  if (failed() || (dx == 0 && dy == 0)) return;
  // A notch is 15 units of scroll, as libinput reports a wheel's click.
  const uint32_t t = now_ms();
  zwlr_virtual_pointer_v1_axis_source(pointer_device_, WL_POINTER_AXIS_SOURCE_WHEEL);
  if (dy != 0)
    zwlr_virtual_pointer_v1_axis_discrete(pointer_device_, t, WL_POINTER_AXIS_VERTICAL_SCROLL,
                                          wl_fixed_from_int(15 * dy), dy);
  if (dx != 0)
    zwlr_virtual_pointer_v1_axis_discrete(pointer_device_, t, WL_POINTER_AXIS_HORIZONTAL_SCROLL,
                                          wl_fixed_from_int(15 * dx), dx);
  zwlr_virtual_pointer_v1_frame(pointer_device_);
  flush();
}

}  // namespace voxl::platform::wayland
