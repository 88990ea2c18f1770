// AT-SPI's element ids as agents see them, read back from untrusted text,
// and AT-SPI's numbers in words.
#include "platform/atspi/atspi_ref.h"

#include <gtest/gtest.h>

#include "platform/accessibility.h"
#include "platform/atspi/atspi_vocabulary.h"

namespace voxl::platform::atspi {
namespace VOXL_TEST_FILE {

TEST(AtspiRef, IdsRoundTrip) {
  const BusObject usual{":1.42", "/org/a11y/atspi/accessible/12"};
  EXPECT_EQ(ref_of(usual), "1.42/12");
  const auto back = object_of("1.42/12");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->name, usual.name);
  EXPECT_EQ(back->path, usual.path);
  const BusObject other{":1.7", "/org/example/Node_3"};
  EXPECT_EQ(ref_of(other), "1.7//org/example/Node_3");
  const auto o = object_of("1.7//org/example/Node_3");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->path, other.path);
  EXPECT_TRUE(object_of("1.2/root"));
}

TEST(AtspiRef, OnlyUniqueNamesAndValidPathsParse) {
  for (const char* bad : {"", "/", "1.42", "1.42/", "x.1/2", "1/2", ":1.2/3", "1.2/a b", "1.2/../etc", "1.2/a//b",
                          "1.2/a/", "org.a11y.atspi.Registry/root", "1.2//org/a11y/atspi/accessible/5",
                          "12345678901.2/3", "1.2/\xc3\xa9"})
    EXPECT_FALSE(object_of(bad)) << bad;
  EXPECT_FALSE(object_of("1.2/" + std::string(300, 'a')));
}

TEST(AtspiVocabulary, RolesAndStatesInWords) {
  EXPECT_EQ(role_name(43), "push button");
  EXPECT_EQ(role_name(kRolePasswordText), "password text");
  EXPECT_EQ(role_name(kRoleFrame), "frame");
  EXPECT_EQ(role_name(kRoleApplication), "application");
  EXPECT_EQ(role_name(129), "push button menu");
  EXPECT_EQ(role_name(130), "unknown");
  // AtspiStateType: focused 12, enabled 8, sensitive 24, showing 25,
  // visible 30, checked 4, read-only 43 (in the second word).
  const uint32_t words[2] = {(1u << 12) | (1u << 8) | (1u << 24) | (1u << 25) | (1u << 30) | (1u << 4), 1u << (43 - 32)};
  const uint32_t s = states_from_words(words);
  EXPECT_EQ(s, kA11yFocused | kA11yEnabled | kA11yShowing | kA11yChecked | kA11yReadOnly);
  // Enabled but not sensitive, showing but not visible: neither.
  const uint32_t half[1] = {(1u << 8) | (1u << 25)};
  EXPECT_EQ(states_from_words(half), 0u);
  EXPECT_TRUE(has_state(words, 43));
  EXPECT_FALSE(has_state(half, 43));
}

// A document's text holds U+FFFC where each child element is; a person
// reads the rest.
TEST(AtspiVocabulary, TextLosesTheObjectCharacters) {
  EXPECT_EQ(without_object_characters("Thanks, \xEF\xBF\xBC!"), "Thanks, !");
  EXPECT_EQ(without_object_characters("\xEF\xBF\xBC\xEF\xBF\xBC"), "");
  EXPECT_EQ(without_object_characters("Grüße \xEF\xBF\xBCx\xEF\xBF"), "Grüße x\xEF\xBF");
  EXPECT_EQ(without_object_characters(""), "");
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::platform::atspi
