// Spellings and compatibility tables for the command line: underscore
// spellings, the flags of selkies that voxl takes but has no use for, and the
// flags whose features are not built yet. Constant tables and pure
// functions: any thread (in practice the main thread while parsing).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace voxl::app {

// Copies argv, turning "--a_b_c" and "--a_b_c=v" into "--a-b-c" and
// "--a-b-c=v" so every flag may be written either way (selkies documents
// underscores). Only the name is touched, never a value, and nothing after
// a bare "--". "--a=" becomes "--a" followed by an empty argument, so an
// empty value reaches the flag instead of reading as a missing one.
std::vector<std::string> normalise_flag_spelling(int argc, const char* const* argv);

struct PendingFlag {
  std::string_view flag;     // "--dash-spelling"
  std::string_view feature;  // completes "<flag>: <feature> is not active yet"
};

// voxl flags accepted before their feature exists. Each, when given, is
// reported once at start.
std::span<const PendingFlag> pending_flags();

// selkies flags (dash spelling, without "--") that mean nothing to voxl.
// They are accepted so a selkies command line still starts, and each given
// is reported once. selkies flags with a voxl meaning are voxl flags and are
// not listed here.
std::span<const std::string_view> ignored_selkies_flags();

// selkies flags (dash spelling, without "--") that are voxl flags too, with
// the same meaning: the ones SELKIES_<NAME> sets (flag_environment.h).
std::span<const std::string_view> selkies_flags_with_voxl_meaning();

}  // namespace voxl::app
