#include "platform/wayland/keymap_table.h"

#include <cstdio>
#include <string_view>

#include "input/keysyms.h"

namespace voxl::platform::wayland {

namespace {

struct Modifier {
  uint32_t keysym;
  const char* map;  // the XKB modifier it sets
};

constexpr Modifier kModifiers[] = {
    {input::keysym::kShiftL, "Shift"},      {input::keysym::kShiftR, "Shift"},
    {input::keysym::kControlL, "Control"},  {input::keysym::kControlR, "Control"},
    {input::keysym::kAltL, "Mod1"},         {input::keysym::kAltR, "Mod1"},
    {input::keysym::kMetaL, "Mod1"},        {input::keysym::kSuperL, "Mod4"},
    {input::keysym::kSuperR, "Mod4"},       {input::keysym::kIsoLevel3Shift, "Mod5"},
    {input::keysym::kCapsLock, "Lock"},     {input::keysym::kNumLock, "Mod2"},
};

const char* modifier_of(uint32_t keysym) {
  for (const Modifier& m : kModifiers)
    if (m.keysym == keysym) return m.map;
  return nullptr;
}

}  // namespace

KeymapTable::KeymapTable() : slots_(kLastKeycode - kFirstKeycode + 1) {
  size_t i = 0;
  for (const Modifier& m : kModifiers) slots_[i++] = Slot{m.keysym, 0, false, true};
  // What people type most: printable ASCII and the named keys of a
  // keyboard's edges, so the keymap seldom changes under their fingers.
  const uint32_t named[] = {input::keysym::kReturn,   input::keysym::kTab,      input::keysym::kBackSpace,
                            input::keysym::kEscape,   input::keysym::kDelete,   input::keysym::kLeft,
                            input::keysym::kUp,       input::keysym::kRight,    input::keysym::kDown,
                            input::keysym::kHome,     input::keysym::kEnd,      input::keysym::kPageUp,
                            input::keysym::kPageDown, input::keysym::kInsert,   input::keysym::kMenu};
  for (uint32_t k : named) slots_[i++].keysym = k;
  for (uint32_t f = 0; f < 12; ++f) slots_[i++].keysym = input::keysym::kF1 + f;
  for (uint32_t c = 0x20; c < 0x7f; ++c) slots_[i++].keysym = c;
}

KeymapTable::Slot* KeymapTable::find(uint32_t keysym) {
  for (Slot& s : slots_)
    if (s.keysym == keysym) return &s;
  return nullptr;
}

const KeymapTable::Slot* KeymapTable::find(uint32_t keysym) const {
  for (const Slot& s : slots_)
    if (s.keysym == keysym) return &s;
  return nullptr;
}

std::optional<KeymapTable::Binding> KeymapTable::bind(uint32_t keysym) {
  Binding b;
  Slot* slot = keysym ? find(keysym) : nullptr;
  if (!slot) {
    // A free keycode, else the one used longest ago that is not held.
    for (Slot& s : slots_) {
      if (s.pinned || s.down) continue;
      if (s.keysym == 0) {
        slot = &s;
        break;
      }
      if (!slot || s.last_used < slot->last_used) slot = &s;
    }
    if (!slot || keysym == 0) return std::nullopt;
    *slot = Slot{keysym, 0, false, false};
    b.keymap_changed = true;
  }
  slot->last_used = ++clock_;
  b.evdev_code = uint32_t(slot - slots_.data()) + kFirstKeycode - 8;
  return b;
}

void KeymapTable::set_down(uint32_t keysym, bool down) {
  if (Slot* s = find(keysym)) s->down = down;
}

bool KeymapTable::is_down(uint32_t keysym) const {
  const Slot* s = find(keysym);
  return s && s->down;
}

uint32_t KeymapTable::modifier_mask(const char* name) {
  static constexpr const char* kReal[] = {"Shift", "Lock", "Control", "Mod1", "Mod2", "Mod3", "Mod4", "Mod5"};
  for (uint32_t i = 0; i < 8; ++i)
    if (std::string_view(kReal[i]) == name) return 1u << i;
  return 0;
}

uint32_t KeymapTable::depressed_modifiers() const {
  uint32_t mask = 0;
  for (const Slot& s : slots_) {
    if (!s.down) continue;
    // The lock keys lock rather than hold: their state is the injector's.
    if (s.keysym == input::keysym::kCapsLock || s.keysym == input::keysym::kNumLock) continue;
    if (const char* m = modifier_of(s.keysym)) mask |= modifier_mask(m);
  }
  return mask;
}

size_t KeymapTable::bound() const {
  size_t n = 0;
  for (const Slot& s : slots_) n += s.keysym != 0;
  return n;
}

std::string KeymapTable::text() const {
  std::string keycodes, symbols, modmap;
  char line[96];
  for (size_t i = 0; i < slots_.size(); ++i) {
    const uint32_t code = uint32_t(i) + kFirstKeycode;
    std::snprintf(line, sizeof line, "    <K%u> = %u;\n", code, code);
    keycodes += line;
    if (slots_[i].keysym == 0) continue;
    std::snprintf(line, sizeof line, "    key <K%u> { [ 0x%x ] };\n", code, slots_[i].keysym);
    symbols += line;
    if (const char* m = modifier_of(slots_[i].keysym)) {
      std::snprintf(line, sizeof line, "    modifier_map %s { <K%u> };\n", m, code);
      modmap += line;
    }
  }
  return "xkb_keymap {\n  xkb_keycodes \"voxl\" {\n    minimum = 8;\n    maximum = 255;\n" + keycodes +
         "  };\n  xkb_types \"voxl\" { include \"complete\" };\n"
         "  xkb_compat \"voxl\" { include \"complete\" };\n  xkb_symbols \"voxl\" {\n" +
         symbols + modmap + "  };\n};\n";
}

}  // namespace voxl::platform::wayland
