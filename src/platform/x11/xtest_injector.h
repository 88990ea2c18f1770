// input::InputInjector for X11: XTest fake input on its own XCB connection.
//
// Keys are found in the server's core keymap at the shift level the keys
// already held select; a keysym that is not there (a letter of another
// script, a symbol, an emoji) is bound to a spare keycode (one with no
// keysym at all) with ChangeKeyboardMapping, in every column so that no
// modifier changes it. Bindings are reused for the same keysym and kept
// until the keycode is needed for another keysym (least recently used
// first), so a client that reads the event late still translates it right;
// the destructor unbinds them all, releases every key and button still
// held, and so leaves the keymap as it found it.
//
// Threads: construct, use and destroy on one thread (the loop thread).
// Blocking: the constructor makes round trips; key() and type_text() make
// one when they change the keymap, caps_lock()/num_lock()/desktop_size()
// one each; the rest only write.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/logging.h"
#include "input/input_injector.h"

namespace voxl::platform::x11 {
class XcbConnection;
}

namespace voxl::platform::x11 {

class XTestInjector final : public input::InputInjector {
 public:
  // Throws std::runtime_error when the display cannot be opened or lacks XTEST.
  XTestInjector(const std::string& display, Logger log);
  ~XTestInjector() override;
  XTestInjector(const XTestInjector&) = delete;
  XTestInjector& operator=(const XTestInjector&) = delete;

  input::InputStatus key(uint32_t keysym, bool down) override;
  input::InputStatus type_text(std::string_view utf8) override;
  void move(int x, int y) override;
  void button(int n, bool down) override;
  void scroll_notches(int dx, int dy) override;
  Size desktop_size() const override;
  bool caps_lock() override;
  bool num_lock() override;
  std::optional<Point> pointer_position() override;
  bool failed() const override;

  // Keycodes with no keysym at start, available for binding.
  size_t spare_keycodes() const { return spares_.size(); }

 private:
  struct Spare {
    uint8_t keycode = 0;
    uint32_t keysym = 0;  // 0: unbound
    uint64_t used = 0;    // last use, for least-recently-used reuse
  };

  void load_keymap();
  void load_modifiers();
  // The keycode that types `keysym` at `level` (0 plain, 1 shifted).
  std::optional<uint8_t> find(uint32_t keysym, int level) const;
  std::optional<uint8_t> find_any_level(uint32_t keysym) const;
  // The keycode to press for `keysym` with the keys held now; binds a
  // spare when needed.
  std::optional<uint8_t> keycode_for(uint32_t keysym, bool for_typing);
  std::optional<uint8_t> bind_spare(uint32_t keysym);
  void set_mapping(uint8_t keycode, uint32_t keysym);
  void fake(uint8_t type, uint8_t detail, int x = 0, int y = 0);
  void tap(uint8_t keycode);
  uint16_t pointer_mask();
  bool shift_held() const;
  bool level3_held() const;

  std::unique_ptr<platform::x11::XcbConnection> conn_;
  Logger log_;
  uint8_t min_keycode_ = 8;
  uint8_t max_keycode_ = 255;
  int per_keycode_ = 0;                 // keysyms per keycode in the core map
  std::vector<uint32_t> keymap_;        // (keycode - min) * per_keycode_ + column
  std::vector<Spare> spares_;
  uint64_t uses_ = 0;
  std::map<uint32_t, uint8_t> held_keys_;  // keysym -> keycode pressed for it
  std::vector<int> held_buttons_;
  uint16_t num_lock_mask_ = 0;
};

}  // namespace voxl::platform::x11
