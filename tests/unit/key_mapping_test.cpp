#include "input/key_mapping.h"

#include <gtest/gtest.h>

#include "input/keysyms.h"

namespace voxl::input {
namespace VOXL_TEST_FILE {

namespace ks = keysym;

TEST(KeyMapping, CharactersFollowLatin1ThenUnicode) {
  EXPECT_EQ(keysym_for_char(U'a'), 0x61u);
  EXPECT_EQ(keysym_for_char(U'é'), 0xe9u);
  EXPECT_EQ(keysym_for_char(U'я'), 0x0100044fu);
  EXPECT_EQ(keysym_for_char(U'€'), 0x010020acu);
  EXPECT_EQ(keysym_for_char(U'\U0001F600'), 0x0101f600u);
  EXPECT_EQ(keysym_for_char(U'\n'), ks::kReturn);
  EXPECT_EQ(keysym_for_char(U'\t'), ks::kTab);
  EXPECT_FALSE(keysym_for_char(U'\x01'));
  EXPECT_FALSE(keysym_for_char(char32_t(0x9c)));
  EXPECT_FALSE(keysym_for_char(char32_t(0xd800)));
}

TEST(KeyMapping, BrowserKeyFollowsTheViewersLayout) {
  // A German layout's Z sits where a US Y is: the key decides.
  EXPECT_EQ(keysym_for_browser_key("KeyY", "z"), uint32_t('z'));
  EXPECT_EQ(keysym_for_browser_key("KeyA", "A"), uint32_t('A'));
  EXPECT_EQ(keysym_for_browser_key("Digit1", "!"), uint32_t('!'));
  EXPECT_EQ(keysym_for_browser_key("KeyQ", "й"), 0x01000439u);
  EXPECT_EQ(keysym_for_browser_key("Space", " "), uint32_t(' '));
}

TEST(KeyMapping, NamedKeysAndSides) {
  EXPECT_EQ(keysym_for_browser_key("Enter", "Enter"), ks::kReturn);
  EXPECT_EQ(keysym_for_browser_key("NumpadEnter", "Enter"), ks::kKpEnter);
  EXPECT_EQ(keysym_for_browser_key("ShiftLeft", "Shift"), ks::kShiftL);
  EXPECT_EQ(keysym_for_browser_key("ShiftRight", "Shift"), ks::kShiftR);
  EXPECT_EQ(keysym_for_browser_key("ControlRight", "Control"), ks::kControlR);
  EXPECT_EQ(keysym_for_browser_key("AltRight", "AltGraph"), ks::kIsoLevel3Shift);
  EXPECT_EQ(keysym_for_browser_key("AltRight", "Alt"), ks::kAltR);
  EXPECT_EQ(keysym_for_browser_key("MetaLeft", "Meta"), ks::kSuperL);
  EXPECT_EQ(keysym_for_browser_key("F5", "F5"), ks::kF1 + 4);
  EXPECT_EQ(keysym_for_browser_key("ArrowLeft", "ArrowLeft"), ks::kLeft);
  EXPECT_EQ(keysym_for_browser_key("CapsLock", "CapsLock"), ks::kCapsLock);
}

TEST(KeyMapping, KeypadDigitsWithNumLockAreKeypadKeysyms) {
  EXPECT_EQ(keysym_for_browser_key("Numpad7", "7"), ks::kKp0 + 7);
  EXPECT_EQ(keysym_for_browser_key("Numpad7", "Home"), ks::kHome);
  EXPECT_EQ(keysym_for_browser_key("NumpadAdd", "+"), ks::kKpAdd);
}

TEST(KeyMapping, DeadKeysWaitAndUnidentifiedFallsBackToCode) {
  EXPECT_FALSE(keysym_for_browser_key("Quote", "Dead"));
  EXPECT_EQ(keysym_for_browser_key("KeyS", "Unidentified"), uint32_t('s'));
  EXPECT_EQ(keysym_for_browser_key("Slash", "Process"), uint32_t('/'));
  EXPECT_FALSE(keysym_for_browser_key("", "Unidentified"));
}

TEST(KeyMapping, ScriptNamesAndCombos) {
  EXPECT_EQ(keysym_for_name("CTRL"), ks::kControlL);
  EXPECT_EQ(keysym_for_name("Return"), ks::kReturn);
  EXPECT_EQ(keysym_for_name("f12"), ks::kF1 + 11);
  EXPECT_EQ(keysym_for_name("ArrowUp"), ks::kUp);
  EXPECT_EQ(keysym_for_name("ß"), 0xdfu);
  EXPECT_FALSE(keysym_for_name("f25"));
  EXPECT_FALSE(keysym_for_name("hyperdrive"));

  EXPECT_EQ(parse_key_combo("ctrl+shift+t"), (std::vector<uint32_t>{ks::kControlL, ks::kShiftL, 't'}));
  EXPECT_EQ(parse_key_combo("ctrl++"), (std::vector<uint32_t>{ks::kControlL, '+'}));
  EXPECT_EQ(parse_key_combo("+"), (std::vector<uint32_t>{'+'}));
  std::string bad;
  EXPECT_FALSE(parse_key_combo("ctrl+nope+t", &bad));
  EXPECT_EQ(bad, "nope");
  EXPECT_FALSE(parse_key_combo("ctrl+", &bad));
  EXPECT_EQ(bad, "");
}

TEST(KeyMapping, Modifiers) {
  EXPECT_TRUE(is_modifier_keysym(ks::kShiftR));
  EXPECT_TRUE(is_modifier_keysym(ks::kIsoLevel3Shift));
  EXPECT_FALSE(is_modifier_keysym(ks::kCapsLock + 100));
  EXPECT_FALSE(is_modifier_keysym('a'));
}

}  // namespace
}  // namespace voxl::input

namespace voxl::input {
namespace VOXL_TEST_FILE {

namespace ks2 = keysym;

TEST(KeyMappingSchemas, XdotoolNamesExactThenInAnyCase) {
  EXPECT_EQ(keysym_for_name("Return"), ks2::kReturn);
  EXPECT_EQ(keysym_for_name("KP_Enter"), ks2::kKpEnter);
  EXPECT_EQ(keysym_for_name("kp_enter"), ks2::kKpEnter);
  EXPECT_EQ(keysym_for_name("Page_Down"), ks2::kPageDown);
  EXPECT_EQ(keysym_for_name("Next"), ks2::kPageDown);
  EXPECT_EQ(keysym_for_name("Prior"), ks2::kPageUp);
  EXPECT_EQ(keysym_for_name("BackSpace"), ks2::kBackSpace);
  EXPECT_EQ(keysym_for_name("Control_R"), ks2::kControlR);
  EXPECT_EQ(keysym_for_name("Super_L"), ks2::kSuperL);
  EXPECT_EQ(keysym_for_name("KP_7"), ks2::kKp0 + 7);
  EXPECT_EQ(keysym_for_name("bracketleft"), uint32_t('['));
  EXPECT_EQ(keysym_for_name("quotedbl"), uint32_t('"'));
  EXPECT_EQ(keysym_for_name("XF86AudioMute"), ks2::kAudioMute);
  EXPECT_EQ(keysym_for_name("F12"), ks2::kF1 + 11);
  // Single characters stay themselves: X's "A" is the capital.
  EXPECT_EQ(keysym_for_name("A"), uint32_t('A'));
  EXPECT_EQ(keysym_for_name("a"), uint32_t('a'));
  EXPECT_FALSE(keysym_for_name("Return_Key"));
  EXPECT_FALSE(keysym_for_name(std::string(65, 'a')));
}

TEST(KeyMappingSchemas, OpenAINamesAndLists) {
  for (const char* n : {"CTRL", "CONTROL"}) EXPECT_EQ(keysym_for_name(n), ks2::kControlL) << n;
  EXPECT_EQ(keysym_for_name("ENTER"), ks2::kReturn);
  EXPECT_EQ(keysym_for_name("ESC"), ks2::kEscape);
  EXPECT_EQ(keysym_for_name("SPACE"), uint32_t(' '));
  EXPECT_EQ(keysym_for_name("ARROWUP"), ks2::kUp);
  EXPECT_EQ(keysym_for_name("ARROWLEFT"), ks2::kLeft);
  EXPECT_EQ(keysym_for_name("PAGEDOWN"), ks2::kPageDown);
  EXPECT_EQ(keysym_for_name("CAPSLOCK"), ks2::kCapsLock);
  EXPECT_EQ(keysym_for_name("OPTION"), ks2::kAltL);
  EXPECT_EQ(keysym_for_name("CMD"), ks2::kSuperL);
  EXPECT_EQ(keysym_for_name("COMMAND"), ks2::kSuperL);
  EXPECT_EQ(parse_key_list({"CTRL", "A"}), (std::vector<uint32_t>{ks2::kControlL, 'a'})) << "a letter is its key";
  EXPECT_EQ(parse_key_list({"SHIFT", "TAB"}), (std::vector<uint32_t>{ks2::kShiftL, ks2::kTab}));
  EXPECT_EQ(parse_key_list({"/"}), std::vector<uint32_t>{'/'});
  std::string bad;
  EXPECT_FALSE(parse_key_list({"CTRL", "HYPERDRIVE"}, &bad));
  EXPECT_EQ(bad, "HYPERDRIVE");
  EXPECT_FALSE(parse_key_list({}, &bad));
  EXPECT_TRUE(bad.empty());
}

TEST(KeyMappingSchemas, SequencesOfCombos) {
  const auto seq = parse_key_sequence("ctrl+a Delete");
  ASSERT_TRUE(seq);
  ASSERT_EQ(seq->size(), 2u);
  EXPECT_EQ((*seq)[0], (std::vector<uint32_t>{ks2::kControlL, 'a'}));
  EXPECT_EQ((*seq)[1], std::vector<uint32_t>{ks2::kDelete});
  EXPECT_EQ(parse_key_sequence("  ctrl+shift+t\tReturn ")->size(), 2u);
  EXPECT_EQ(parse_key_sequence("ctrl++")->front(), (std::vector<uint32_t>{ks2::kControlL, '+'}));
  std::string bad;
  EXPECT_FALSE(parse_key_sequence("ctrl+a Nope", &bad));
  EXPECT_EQ(bad, "Nope");
  EXPECT_FALSE(parse_key_sequence("   ", &bad));
  EXPECT_TRUE(bad.empty());
}

}  // namespace
}  // namespace voxl::input
