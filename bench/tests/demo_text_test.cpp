// voxl-demo's pure parts: keysyms to text, UTF-8 both ways, the typed
// text's bound, wrapping into rows, and a layout whose parts stay apart
// and inside the window at the sizes voxl runs at.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "demo/demo_layout.h"
#include "demo/keysym_text.h"
#include "demo/text_wrap.h"
#include "demo/typed_text.h"
#include "demo/utf8.h"

namespace voxl::demo {
namespace {

using Action = KeyMeaning::Action;

TEST(DemoKeys, LatinOneUnicodeAndKeypadKeysymsAreCharacters) {
  EXPECT_EQ(key_meaning('a').character, U'a');
  EXPECT_EQ(key_meaning(0xe9).character, U'é');              // eacute
  EXPECT_EQ(key_meaning(0x010020ac).character, U'€');        // U+20AC as voxl binds it
  EXPECT_EQ(key_meaning(0x01002192).character, U'→');
  EXPECT_EQ(key_meaning(0x20ac).character, U'€');            // EuroSign
  EXPECT_EQ(key_meaning(0xffb7).character, U'7');            // KP_7
  EXPECT_EQ(key_meaning(0xffab).character, U'+');            // KP_Add
  EXPECT_EQ(key_meaning(0x6c1).character, U'\ufffd');       // Cyrillic_a: a character, unnamed here
  EXPECT_EQ(key_meaning(0xff08).action, Action::kBackspace);
  EXPECT_EQ(key_meaning(0xff0d).action, Action::kNewline);
  EXPECT_EQ(key_meaning(0xff8d).action, Action::kNewline);   // KP_Enter
  for (uint32_t none : {0xffe1u, 0xffbeu, 0xfe51u, 0x0100001bu})  // Shift_L, F1, dead_acute, U+001B
    EXPECT_EQ(key_meaning(none).action, Action::kNone) << std::hex << none;
}

TEST(DemoKeys, CaseOfLatinOneLetters) {
  EXPECT_EQ(keysym_upper('q'), uint32_t('Q'));
  EXPECT_EQ(keysym_upper(0xe9), 0xc9u);
  EXPECT_EQ(keysym_upper(0xf7), 0xf7u);  // division sign
  EXPECT_EQ(keysym_lower(0xd7), 0xd7u);  // multiplication sign
  EXPECT_EQ(keysym_lower('Z'), uint32_t('z'));
  EXPECT_EQ(keysym_upper('1'), uint32_t('1'));
}

TEST(DemoUtf8, RoundTripsAndReplacesWhatIsInvalid) {
  const std::u32string text = U"Hé€→😀";
  EXPECT_EQ(utf8_decode(utf8_encode(text), 100), text);
  EXPECT_EQ(utf8_decode("a\xff" "b", 10), U"a\ufffdb");
  EXPECT_EQ(utf8_decode("\xc0\xaf", 10), U"\ufffd\ufffd");  // overlong '/'
  EXPECT_EQ(utf8_decode("\xe2\x82", 10), U"\ufffd\ufffd");  // cut short
  EXPECT_EQ(utf8_decode("\xed\xa0\x80", 10), U"\ufffd\ufffd\ufffd");  // a surrogate
  bool complete = true;
  EXPECT_EQ(utf8_decode("abcdef", 3, &complete), U"abc");
  EXPECT_FALSE(complete);
  EXPECT_EQ(latin1_decode("caf\xe9", 10), U"café");
  EXPECT_EQ(latin1_encode(U"café €"), "caf\xe9 ?");
}

TEST(DemoTypedText, KeepsTheLastCharacters) {
  TypedText t(5);
  for (char32_t c : std::u32string(U"abcdefg")) t.insert(c);
  EXPECT_EQ(t.text(), U"cdefg");
  t.backspace();
  t.newline();
  EXPECT_EQ(t.text(), U"cdef\n");
  t.clear();
  t.backspace();
  EXPECT_TRUE(t.empty());
}

TEST(DemoTextWrap, BreaksAtNewlinesSpacesAndFullRows) {
  using Rows = std::vector<std::u32string>;
  EXPECT_EQ(wrap_rows(U"", 10), Rows{U""});
  EXPECT_EQ(wrap_rows(U"one\ntwo\n", 10), (Rows{U"one", U"two", U""}));
  EXPECT_EQ(wrap_rows(U"the quick brown fox", 10), (Rows{U"the quick", U"brown fox"}));
  EXPECT_EQ(wrap_rows(U"abcdefghijkl", 5), (Rows{U"abcde", U"fghij", U"kl"}));
  EXPECT_EQ(wrap_rows(U"ab", 0), (Rows{U"a", U"b"}));
}

TEST(DemoLayout, PartsStayApartAndInsideTheWindow) {
  for (auto [w, h] : {std::pair{640, 480}, {1024, 768}, {1920, 1080}, {3840, 2160}, {480, 360}, {1080, 1920}}) {
    const Layout l = layout_for(w, h);
    const std::vector<std::pair<const char*, Area>> parts = {
        {"text_label", l.text_label},       {"text_box", l.text_box},
        {"copy_button", l.copy_button},     {"clear_text_button", l.clear_text_button},
        {"clipboard_label", l.clipboard_label}, {"clipboard_box", l.clipboard_box},
        {"tone_button", l.tone_button},     {"tone_status", l.tone_status},
        {"canvas_label", l.canvas_label},   {"clear_canvas_button", l.clear_canvas_button},
        {"canvas", l.canvas},               {"header", l.header},
        {"track", l.track}};
    for (size_t i = 0; i < parts.size(); ++i) {
      const Area& a = parts[i].second;
      EXPECT_FALSE(a.empty()) << parts[i].first << " at " << w << "x" << h;
      EXPECT_TRUE(a.x >= 0 && a.y >= 0 && a.right() <= w && a.bottom() <= h) << parts[i].first << " at " << w << "x" << h;
      for (size_t j = i + 1; j < parts.size(); ++j) {
        const Area& b = parts[j].second;
        const bool apart = a.right() <= b.x || b.right() <= a.x || a.bottom() <= b.y || b.bottom() <= a.y;
        EXPECT_TRUE(apart) << parts[i].first << " and " << parts[j].first << " overlap at " << w << "x" << h;
      }
    }
  }
}

}  // namespace
}  // namespace voxl::demo
