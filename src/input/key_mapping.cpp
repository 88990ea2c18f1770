#include "input/key_mapping.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

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
    {"plus", '+'},            {"minus", '-'},
});

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
  if (name.empty()) return std::nullopt;
  if (auto k = find(kScriptNames, name, true)) return k;
  if (auto k = function_key(name)) return k;
  if (auto k = find(kBrowserKeys, name, true)) return k;
  return single_char(name);
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

std::optional<std::u32string> decode_utf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto b = uint8_t(s[i]);
    int extra;
    char32_t cp;
    if (b < 0x80) {
      extra = 0;
      cp = b;
    } else if ((b & 0xe0) == 0xc0) {
      extra = 1;
      cp = b & 0x1f;
    } else if ((b & 0xf0) == 0xe0) {
      extra = 2;
      cp = b & 0x0f;
    } else if ((b & 0xf8) == 0xf0) {
      extra = 3;
      cp = b & 0x07;
    } else {
      return std::nullopt;
    }
    if (extra > 0 && i + size_t(extra) >= s.size()) return std::nullopt;  // truncated
    for (int k = 1; k <= extra; ++k) {
      const auto c = uint8_t(s[i + size_t(k)]);
      if ((c & 0xc0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms and surrogates are malformed.
    static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return std::nullopt;
    out.push_back(cp);
    i += size_t(extra) + 1;
  }
  return out;
}

}  // namespace voxl::input
