// InputInjector for Windows: SendInput.
//
// Keys: named keysyms (Return, arrows, F1-F24, modifiers, the keypad...)
// become their virtual key with its scan code (MapVirtualKey) and the
// extended-key flag where the key has an E0 scan code. Character keysyms
// (Latin-1, 0x01xxxxxx Unicode) are looked up in the keyboard layout of
// the foreground window's thread (VkKeyScanEx): a character the layout
// types with the modifiers held now (a shortcut's letter under Ctrl, AltGr
// characters under AltGr) is sent as that key; any other character, or one
// the layout lacks, as KEYEVENTF_UNICODE (a press and its release, a
// surrogate pair for characters past U+FFFF). type_text() adds Shift
// around shifted characters when the caller does not hold it.
// Windows does not repeat injected keys: a second press of a held key is
// sent again, as a repeat.
//
// Pointer: absolute moves over the virtual desktop
// (MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK). Desktop pixel (0,0) is
// the top-left corner of `area` (the streamed monitor, in virtual-screen
// coordinates) when one is given, else of the whole virtual desktop; buttons in X11 numbering (4-7 are wheel
// notches, 8/9 the X buttons); WHEEL_DELTA per notch, MOUSEEVENTF_HWHEEL for
// horizontal ones.
//
// Keys and buttons held are recorded (at most kMaxHeldKeys keys, the oldest
// released first beyond that) so that releases match presses; the
// destructor releases all of them.
//
// Threads: construct, use and destroy on one thread (the loop thread).
// Blocking: none (SendInput queues the events).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/logging.h"
#include "input/input_injector.h"

struct tagINPUT;

namespace voxl::platform::windows {

class SendInputInjector final : public input::InputInjector {
 public:
  // `area`: the part of the virtual screen the picture shows (a monitor);
  // nullopt: all of it.
  explicit SendInputInjector(Logger log, std::optional<Rect> area = std::nullopt);
  ~SendInputInjector() override;
  SendInputInjector(const SendInputInjector&) = delete;
  SendInputInjector& operator=(const SendInputInjector&) = delete;

  input::InputStatus key(uint32_t keysym, bool down) override;
  input::InputStatus type_text(std::string_view utf8) override;
  void move(int x, int y) override;
  void button(int n, bool down) override;
  void scroll_notches(int dx, int dy) override;
  Size desktop_size() const override;
  bool caps_lock() override;
  bool num_lock() override;
  std::optional<Point> pointer_position() override;
  // SendInput has no connection to lose.
  bool failed() const override { return false; }

  static constexpr size_t kMaxHeldKeys = 32;
  // Notches per axis sent by one scroll_notches() call, at most.
  static constexpr int kMaxNotches = 100;

 private:
  // What was pressed for a keysym, to release it the same way.
  struct Held {
    uint32_t keysym = 0;
    uint16_t vk = 0;            // 0: Unicode units instead
    bool extended = false;
    std::u16string units;       // KEYEVENTF_UNICODE code units
  };

  // The modifiers held through this injector, as VkKeyScan's high byte
  // (1 Shift, 2 Ctrl, 4 Alt; AltGr counts as Ctrl+Alt).
  unsigned held_modifiers() const;
  // The virtual key and modifiers that type `cp` in the foreground layout.
  bool layout_key(char32_t cp, uint16_t& vk, unsigned& modifiers) const;
  // Appends the events of Held `h` going down or up.
  static void append(std::vector<tagINPUT>& out, const Held& h, bool down);
  bool send(std::vector<tagINPUT>& inputs);
  void release_all();

  Logger log_;
  std::optional<Rect> area_;  // virtual-screen coordinates
  std::vector<Held> held_keys_;  // oldest first
  std::vector<int> held_buttons_;
};

}  // namespace voxl::platform::windows
