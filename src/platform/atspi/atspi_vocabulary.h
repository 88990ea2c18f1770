// AT-SPI's numbers in words: a role's name as libatspi gives it ("push
// button"), GetState's bit set as the A11yState bits agents read, and an
// element's text as a person reads it.
// Pure functions; any thread.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace voxl::platform::atspi {

// The role numbered `role` by AT-SPI 2.46 (AtspiRole); "unknown" past the
// last one this build knows.
std::string role_name(uint32_t role);

// Whether elements of the role hold a number (AT-SPI's Value: a slider, a
// spin button, a progress or level bar, a scroll bar, a dial).
bool role_has_value(uint32_t role);

inline constexpr uint32_t kRolePasswordText = 40;
inline constexpr uint32_t kRoleApplication = 75;
inline constexpr uint32_t kRoleFrame = 23;
inline constexpr uint32_t kRoleDialog = 16;
inline constexpr uint32_t kRoleWindow = 69;

// GetState's words (bit n of word n / 32 is AtspiStateType n) as A11yState
// bits.
uint32_t states_from_words(std::span<const uint32_t> words);
// Whether AtspiStateType `state` is set in the words.
bool has_state(std::span<const uint32_t> words, uint32_t state);

inline constexpr uint32_t kStateActive = 1;
inline constexpr uint32_t kStateDefunct = 6;
inline constexpr uint32_t kStateFocused = 12;
inline constexpr uint32_t kStateManagesDescendants = 31;

// The text without the object replacement characters (U+FFFC) that stand
// for child elements in their parent's text (Firefox's documents, links).
std::string without_object_characters(std::string_view text);

}  // namespace voxl::platform::atspi
