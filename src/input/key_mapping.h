// From what a browser or a script says about a key to X11 keysyms: the
// KeyboardEvent's `code` and `key`, key names in combos like "ctrl+shift+t",
// and Unicode characters. Pure functions; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace voxl::input {

// The keysym that types `cp` (Latin-1 keysyms are the code points; others
// are 0x01000000 + code point). nullopt for control characters other than
// \n (Return), \r (Return), \t (Tab) and \b (BackSpace).
std::optional<uint32_t> keysym_for_char(char32_t cp);

// The keysym for a browser KeyboardEvent. `key` wins when it is one
// character (so the viewer's own layout decides what is typed) or a named
// key; `code` tells left from right modifiers and keypad keys, and stands
// in (as a US layout) when `key` says nothing ("Unidentified", "Process").
// nullopt for dead keys and keys with no keysym: the composed character
// arrives with the next event.
std::optional<uint32_t> keysym_for_browser_key(std::string_view code, std::string_view key);

// Key names for scripts, case-insensitive: "ctrl", "shift", "alt", "super"
// (also "meta", "win", "cmd", "command"; "option" is alt), "enter", "esc",
// "tab", "space", "backspace", "delete", arrows ("up", "left"...), "home",
// "end", "pageup", "pagedown", "insert", "menu", "f1".."f24", browser key
// names ("ArrowUp"), any single character ("t", "é", "€"), and X keysym
// names as xdotool takes them ("Return", "KP_Enter", "Page_Down",
// "Control_R", "bracketleft", "XF86AudioMute"), exact case first. So
// OpenAI's upper-case names ("CTRL", "ENTER", "ARROWUP") are known too.
// Names over 64 bytes are unknown.
std::optional<uint32_t> keysym_for_name(std::string_view name);

// "ctrl+shift+t" -> {Control_L, Shift_L, t}, pressed in that order and
// released in reverse. A lone "+" is the plus key ("ctrl++"). nullopt names
// the first part it did not know in `bad`.
std::optional<std::vector<uint32_t>> parse_key_combo(std::string_view combo, std::string* bad = nullptr);

// xdotool-style: combos separated by spaces or tabs ("ctrl+a Delete"),
// each as parse_key_combo takes it, played in turn. nullopt names the first
// unknown part in `bad` (empty when there is no combo at all). The caller
// bounds the counts (kMaxKeySequence, kMaxComboKeys).
inline constexpr size_t kMaxKeySequence = 32;
inline constexpr size_t kMaxComboKeys = 8;
std::optional<std::vector<std::vector<uint32_t>>> parse_key_sequence(std::string_view text, std::string* bad = nullptr);

// Names pressed together in order and released in reverse (OpenAI's
// keypress keys, e.g. {"CTRL", "A"}). A single upper-case letter names its
// key: "A" is the a key (ctrl+a, not ctrl+shift+a). nullopt names the first
// unknown name in `bad` (empty for an empty list).
std::optional<std::vector<uint32_t>> parse_key_list(const std::vector<std::string>& names, std::string* bad = nullptr);

// True for Shift, Control, Alt, Super, Meta and AltGr keysyms.
bool is_modifier_keysym(uint32_t keysym);

}  // namespace voxl::input
