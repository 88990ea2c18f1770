#include "input/key_mapping.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "base/utf8.h"
#include "input/keysyms.h"

namespace voxl::input {

namespace {

namespace ks = keysym;

struct Named {
  std::string_view name;
  uint32_t keysym;
};

// Browser `key` values (KeyboardEvent.key) with no single character.
constexpr auto kBrowserKeys = std::to_array<Named>({
    {"Enter", ks::kReturn},          {"Tab", ks::kTab},
    {"Backspace", ks::kBackSpace},   {"Escape", ks::kEscape},
    {"Delete", ks::kDelete},         {"Insert", ks::kInsert},
    {"Home", ks::kHome},             {"End", ks::kEnd},
    {"PageUp", ks::kPageUp},         {"PageDown", ks::kPageDown},
    {"ArrowLeft", ks::kLeft},        {"ArrowUp", ks::kUp},
    {"ArrowRight", ks::kRight},      {"ArrowDown", ks::kDown},
    {"Shift", ks::kShiftL},          {"Control", ks::kControlL},
    {"Alt", ks::kAltL},              {"AltGraph", ks::kIsoLevel3Shift},
    {"Meta", ks::kSuperL},           {"OS", ks::kSuperL},
    {"Super", ks::kSuperL},          {"CapsLock", ks::kCapsLock},
    {"NumLock", ks::kNumLock},       {"ScrollLock", ks::kScrollLock},
    {"Pause", ks::kPause},           {"PrintScreen", ks::kPrint},
    {"ContextMenu", ks::kMenu},      {"AudioVolumeUp", ks::kAudioRaiseVolume},
    {"AudioVolumeDown", ks::kAudioLowerVolume}, {"AudioVolumeMute", ks::kAudioMute},
});

// Short names for combos, lower case.
constexpr auto kScriptNames = std::to_array<Named>({
    {"ctrl", ks::kControlL},  {"control", ks::kControlL}, {"shift", ks::kShiftL},
    {"alt", ks::kAltL},       {"altgr", ks::kIsoLevel3Shift}, {"super", ks::kSuperL},
    {"meta", ks::kSuperL},    {"win", ks::kSuperL},       {"cmd", ks::kSuperL},
    {"enter", ks::kReturn},   {"return", ks::kReturn},    {"esc", ks::kEscape},
    {"escape", ks::kEscape},  {"tab", ks::kTab},          {"space", ' '},
    {"backspace", ks::kBackSpace}, {"delete", ks::kDelete}, {"del", ks::kDelete},
    {"insert", ks::kInsert},  {"home", ks::kHome},        {"end", ks::kEnd},
    {"pageup", ks::kPageUp},  {"pagedown", ks::kPageDown}, {"up", ks::kUp},
    {"down", ks::kDown},      {"left", ks::kLeft},        {"right", ks::kRight},
    {"menu", ks::kMenu},      {"capslock", ks::kCapsLock}, {"numlock", ks::kNumLock},
    {"plus", '+'},            {"minus", '-'},             {"option", ks::kAltL},
    {"command", ks::kSuperL}, {"pgup", ks::kPageUp},      {"pgdn", ks::kPageDown},
});

// X keysym names, as xdotool and Anthropic's computer tool write them
// ("Return", "KP_Enter", "Page_Down"); matched exactly first, then in any
// case. Names of single characters ("a", "1") are the characters.
constexpr auto kXNames = std::to_array<Named>({
    {"BackSpace", 0xff08}, {"Tab", 0xff09}, {"Linefeed", 0xff0a}, {"Clear", 0xff0b}, {"Return", 0xff0d},
    {"Pause", 0xff13}, {"Scroll_Lock", 0xff14}, {"Sys_Req", 0xff15}, {"Escape", 0xff1b}, {"Delete", 0xffff},
    {"Home", 0xff50}, {"Left", 0xff51}, {"Up", 0xff52}, {"Right", 0xff53}, {"Down", 0xff54}, {"Prior", 0xff55},
    {"Page_Up", 0xff55}, {"Next", 0xff56}, {"Page_Down", 0xff56}, {"End", 0xff57}, {"Begin", 0xff58},
    {"Select", 0xff60}, {"Print", 0xff61}, {"Execute", 0xff62}, {"Insert", 0xff63}, {"Undo", 0xff65},
    {"Redo", 0xff66}, {"Menu", 0xff67}, {"Find", 0xff68}, {"Cancel", 0xff69}, {"Help", 0xff6a}, {"Break", 0xff6b},
    {"Mode_switch", 0xff7e}, {"Num_Lock", 0xff7f}, {"KP_Space", 0xff80}, {"KP_Tab", 0xff89}, {"KP_Enter", 0xff8d},
    {"KP_F1", 0xff91}, {"KP_F2", 0xff92}, {"KP_F3", 0xff93}, {"KP_F4", 0xff94}, {"KP_Home", 0xff95},
    {"KP_Left", 0xff96}, {"KP_Up", 0xff97}, {"KP_Right", 0xff98}, {"KP_Down", 0xff99}, {"KP_Prior", 0xff9a},
    {"KP_Page_Up", 0xff9a}, {"KP_Next", 0xff9b}, {"KP_Page_Down", 0xff9b}, {"KP_End", 0xff9c}, {"KP_Begin", 0xff9d},
    {"KP_Insert", 0xff9e}, {"KP_Delete", 0xff9f}, {"KP_Multiply", 0xffaa}, {"KP_Add", 0xffab},
    {"KP_Separator", 0xffac}, {"KP_Subtract", 0xffad}, {"KP_Decimal", 0xffae}, {"KP_Divide", 0xffaf},
    {"KP_0", 0xffb0}, {"KP_1", 0xffb1}, {"KP_2", 0xffb2}, {"KP_3", 0xffb3}, {"KP_4", 0xffb4}, {"KP_5", 0xffb5},
    {"KP_6", 0xffb6}, {"KP_7", 0xffb7}, {"KP_8", 0xffb8}, {"KP_9", 0xffb9}, {"KP_Equal", 0xffbd},
    {"Shift_L", 0xffe1}, {"Shift_R", 0xffe2}, {"Control_L", 0xffe3}, {"Control_R", 0xffe4}, {"Caps_Lock", 0xffe5},
    {"Shift_Lock", 0xffe6}, {"Meta_L", 0xffe7}, {"Meta_R", 0xffe8}, {"Alt_L", 0xffe9}, {"Alt_R", 0xffea},
    {"Super_L", 0xffeb}, {"Super_R", 0xffec}, {"Hyper_L", 0xffed}, {"Hyper_R", 0xffee},
    {"ISO_Level3_Shift", 0xfe03}, {"space", 0x20}, {"exclam", 0x21}, {"quotedbl", 0x22}, {"numbersign", 0x23},
    {"dollar", 0x24}, {"percent", 0x25}, {"ampersand", 0x26}, {"apostrophe", 0x27}, {"quoteright", 0x27},
    {"parenleft", 0x28}, {"parenright", 0x29}, {"asterisk", 0x2a}, {"plus", 0x2b}, {"comma", 0x2c},
    {"minus", 0x2d}, {"period", 0x2e}, {"slash", 0x2f}, {"colon", 0x3a}, {"semicolon", 0x3b}, {"less", 0x3c},
    {"equal", 0x3d}, {"greater", 0x3e}, {"question", 0x3f}, {"at", 0x40}, {"bracketleft", 0x5b},
    {"backslash", 0x5c}, {"bracketright", 0x5d}, {"asciicircum", 0x5e}, {"underscore", 0x5f}, {"grave", 0x60},
    {"quoteleft", 0x60}, {"braceleft", 0x7b}, {"bar", 0x7c}, {"braceright", 0x7d}, {"asciitilde", 0x7e},
    {"XF86MonBrightnessUp", 0x1008ff02}, {"XF86MonBrightnessDown", 0x1008ff03},
    {"XF86AudioLowerVolume", 0x1008ff11}, {"XF86AudioMute", 0x1008ff12}, {"XF86AudioRaiseVolume", 0x1008ff13},
    {"XF86AudioPlay", 0x1008ff14}, {"XF86AudioStop", 0x1008ff15}, {"XF86AudioPrev", 0x1008ff16},
    {"XF86AudioNext", 0x1008ff17}, {"XF86HomePage", 0x1008ff18}, {"XF86Mail", 0x1008ff19},
    {"XF86Search", 0x1008ff1b}, {"XF86Calculator", 0x1008ff1d}, {"XF86Back", 0x1008ff26},
    {"XF86Forward", 0x1008ff27}, {"XF86Refresh", 0x1008ff29},
});

// Key names longer than this are no key's (no lookup is made).
constexpr size_t kMaxNameBytes = 64;

// `code` values of a US layout, for keys whose `key` says nothing useful.
constexpr auto kUsCodes = std::to_array<std::pair<std::string_view, char>>({
    {"Space", ' '},       {"Minus", '-'},        {"Equal", '='},       {"BracketLeft", '['},
    {"BracketRight", ']'}, {"Backslash", '\\'},  {"Semicolon", ';'},   {"Quote", '\''},
    {"Backquote", '`'},   {"Comma", ','},        {"Period", '.'},      {"Slash", '/'},
    {"IntlBackslash", '<'},
});

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && lower(a) == lower(b);
}

template <size_t N>
std::optional<uint32_t> find(const std::array<Named, N>& table, std::string_view name, bool ignore_case) {
  for (const auto& n : table)
    if (ignore_case ? equals_ignore_case(n.name, name) : n.name == name) return n.keysym;
  return std::nullopt;
}

// "F1".."F24" (any case) -> F keysym.
std::optional<uint32_t> function_key(std::string_view name) {
  if (name.size() < 2 || name.size() > 3 || (name[0] != 'F' && name[0] != 'f')) return std::nullopt;
  int n = 0;
  for (char c : name.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n < 1 || n > 24) return std::nullopt;
  return ks::kF1 + uint32_t(n - 1);
}

std::optional<uint32_t> single_char(std::string_view text) {
  const auto cps = decode_utf8(text);
  if (!cps || cps->size() != 1) return std::nullopt;
  return keysym_for_char((*cps)[0]);
}

// Keys whose keysym depends on where they sit: right-hand modifiers and
// the keypad (with Num Lock on, the keypad's digits are KP_ keysyms).
std::optional<uint32_t> by_position(std::string_view code, std::string_view key) {
  if (code == "ShiftRight") return ks::kShiftR;
  if (code == "ControlRight") return ks::kControlR;
  if (code == "AltRight") return key == "AltGraph" ? ks::kIsoLevel3Shift : ks::kAltR;
  if (code == "MetaRight" || code == "OSRight") return ks::kSuperR;
  if (code == "NumpadEnter") return ks::kKpEnter;
  if (!code.starts_with("Numpad")) return std::nullopt;
  if (key.size() == 1 && key[0] >= '0' && key[0] <= '9') return ks::kKp0 + uint32_t(key[0] - '0');
  if (code == "NumpadDecimal" && (key == "." || key == ",")) return ks::kKpDecimal;
  if (code == "NumpadAdd") return ks::kKpAdd;
  if (code == "NumpadSubtract") return ks::kKpSubtract;
  if (code == "NumpadMultiply") return ks::kKpMultiply;
  if (code == "NumpadDivide") return ks::kKpDivide;
  return std::nullopt;
}

std::optional<uint32_t> us_layout(std::string_view code) {
  if (code.size() == 4 && code.starts_with("Key") && code[3] >= 'A' && code[3] <= 'Z')
    return uint32_t(code[3] - 'A' + 'a');
  if (code.size() == 6 && code.starts_with("Digit") && code[5] >= '0' && code[5] <= '9') return uint32_t(code[5]);
  for (const auto& [c, ch] : kUsCodes)
    if (c == code) return uint32_t(ch);
  if (auto f = function_key(code)) return f;
  return find(kBrowserKeys, code, false);  // "Enter", "Tab", "Escape"... share names
}

}  // namespace

std::optional<uint32_t> keysym_for_char(char32_t cp) {
  switch (cp) {
    case U'\n':
    case U'\r': return ks::kReturn;
    case U'\t': return ks::kTab;
    case U'\b': return ks::kBackSpace;
    default: break;
  }
  if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) return std::nullopt;
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return std::nullopt;
  if (cp < 0x100) return uint32_t(cp);
  return ks::kUnicodeOffset + uint32_t(cp);
}

std::optional<uint32_t> keysym_for_browser_key(std::string_view code, std::string_view key) {
  if (auto k = by_position(code, key)) return k;
  if (auto k = single_char(key)) return k;
  if (auto k = find(kBrowserKeys, key, false)) return k;
  if (auto k = function_key(key)) return k;
  if (key == "Dead") return std::nullopt;
  return us_layout(code);
}

std::optional<uint32_t> keysym_for_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameBytes) return std::nullopt;
  if (auto k = find(kScriptNames, name, true)) return k;
  if (auto k = function_key(name)) return k;
  if (auto k = find(kBrowserKeys, name, true)) return k;
  if (auto k = single_char(name)) return k;
  if (auto k = find(kXNames, name, false)) return k;
  return find(kXNames, name, true);
}

std::optional<std::vector<std::vector<uint32_t>>> parse_key_sequence(std::string_view text, std::string* bad) {
  std::vector<std::vector<uint32_t>> out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t') ++end;
    auto keys = parse_key_combo(text.substr(i, end - i), bad);
    if (!keys) return std::nullopt;
    out.push_back(std::move(*keys));
    i = end;
  }
  if (out.empty()) {
    if (bad) bad->clear();
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<uint32_t>> parse_key_list(const std::vector<std::string>& names, std::string* bad) {
  std::vector<uint32_t> keys;
  for (const std::string& name : names) {
    // A letter names its key: CTRL with A is ctrl+a, not ctrl+shift+a.
    const bool letter = name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z';
    const auto k = letter ? std::optional<uint32_t>(uint32_t(name[0] - 'A' + 'a')) : keysym_for_name(name);
    if (!k) {
      if (bad) *bad = name;
      return std::nullopt;
    }
    keys.push_back(*k);
  }
  if (keys.empty()) {
    if (bad) bad->clear();
    return std::nullopt;
  }
  return keys;
}

std::optional<std::vector<uint32_t>> parse_key_combo(std::string_view combo, std::string* bad) {
  std::vector<uint32_t> keys;
  size_t i = 0;
  while (i <= combo.size()) {
    size_t end = combo.find('+', i);
    // A '+' right where a part starts is the plus key itself.
    if (end == i) end = combo.find('+', i + 1);
    if (end == std::string_view::npos) end = combo.size();
    const std::string_view part = combo.substr(i, end - i);
    const auto k = keysym_for_name(part);
    if (!k) {
      if (bad) *bad = std::string(part);
      return std::nullopt;
    }
    keys.push_back(*k);
    i = end + 1;
  }
  if (keys.empty()) {
    if (bad) bad->clear();
    return std::nullopt;
  }
  return keys;
}

bool is_modifier_keysym(uint32_t k) {
  return (k >= ks::kShiftL && k <= ks::kSuperR) || k == ks::kIsoLevel3Shift;
}

}  // namespace voxl::input
