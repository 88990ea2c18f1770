// The virtual keyboard's keymap on Wayland: one key per keysym, the usual
// keys bound from the start, new ones bound on first use (the keymap then
// changes), the key used longest ago given up when all are taken but never
// one held down, and the modifiers the held keys set.
#include <gtest/gtest.h>

#include <set>

#include "input/keysyms.h"
#include "platform/wayland/keymap_table.h"

namespace voxl::platform::wayland {
namespace VOXL_TEST_FILE {

TEST(KeymapTable, TheUsualKeysAreThereFromTheStart) {
  KeymapTable t;
  for (uint32_t k : {uint32_t('a'), uint32_t('Z'), uint32_t(' '), input::keysym::kReturn, input::keysym::kShiftL,
                     input::keysym::kF1 + 11}) {
    const auto b = t.bind(k);
    ASSERT_TRUE(b) << k;
    EXPECT_FALSE(b->keymap_changed) << k;
  }
}

TEST(KeymapTable, ANewKeysymChangesTheKeymapOnce) {
  KeymapTable t;
  const auto first = t.bind(0x10000e9 + 0x100);  // a character no layout binds here
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->keymap_changed);
  const auto again = t.bind(0x10000e9 + 0x100);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->keymap_changed);
  EXPECT_EQ(again->evdev_code, first->evdev_code);
  EXPECT_NE(t.text().find("0x10001e9"), std::string::npos);
}

TEST(KeymapTable, EveryKeysymHasItsOwnKeyAndTheOldestGoesFirst) {
  KeymapTable t;
  std::set<uint32_t> codes;
  const uint32_t base = 0x1004e00;
  // More than the keycodes there are: each new one takes a key.
  for (uint32_t i = 0; i < 400; ++i) {
    const auto b = t.bind(base + i);
    ASSERT_TRUE(b) << i;
    EXPECT_TRUE(b->keymap_changed);
    EXPECT_GE(b->evdev_code, KeymapTable::kFirstKeycode - 8);
    EXPECT_LE(b->evdev_code, KeymapTable::kLastKeycode - 8);
    codes.insert(b->evdev_code);
  }
  EXPECT_EQ(t.bound(), size_t(KeymapTable::kLastKeycode - KeymapTable::kFirstKeycode + 1));
  // The modifiers kept their keys.
  const auto shift = t.bind(input::keysym::kShiftL);
  ASSERT_TRUE(shift);
  EXPECT_FALSE(shift->keymap_changed);
  // The last one bound is still there; the first ones were given up.
  EXPECT_FALSE(t.bind(base + 399)->keymap_changed);
  EXPECT_TRUE(t.bind(base)->keymap_changed);
}

TEST(KeymapTable, AKeyHeldDownIsNeverGivenUp) {
  KeymapTable t;
  const auto held = t.bind(0x1000400);
  ASSERT_TRUE(held);
  t.set_down(0x1000400, true);
  for (uint32_t i = 0; i < 600; ++i) ASSERT_TRUE(t.bind(0x1005000 + i));
  EXPECT_TRUE(t.is_down(0x1000400));
  const auto still = t.bind(0x1000400);
  ASSERT_TRUE(still);
  EXPECT_FALSE(still->keymap_changed);
  EXPECT_EQ(still->evdev_code, held->evdev_code);
}

TEST(KeymapTable, HeldModifiersSetTheirBits) {
  KeymapTable t;
  EXPECT_EQ(t.depressed_modifiers(), 0u);
  t.set_down(input::keysym::kShiftL, true);
  t.set_down(input::keysym::kControlR, true);
  EXPECT_EQ(t.depressed_modifiers(), KeymapTable::modifier_mask("Shift") | KeymapTable::modifier_mask("Control"));
  t.set_down(input::keysym::kShiftL, false);
  t.set_down(input::keysym::kCapsLock, true);  // a lock, not a held modifier
  EXPECT_EQ(t.depressed_modifiers(), KeymapTable::modifier_mask("Control"));
  EXPECT_EQ(KeymapTable::modifier_mask("Mod4"), 0x40u);
  EXPECT_EQ(KeymapTable::modifier_mask("Hyper"), 0u);
}

TEST(KeymapTable, TheTextNamesEveryBoundKeyAndItsModifiers) {
  KeymapTable t;
  const std::string text = t.text();
  EXPECT_NE(text.find("xkb_keycodes"), std::string::npos);
  EXPECT_NE(text.find("key <K9> { [ 0xffe1 ] };"), std::string::npos);  // Shift_L
  EXPECT_NE(text.find("modifier_map Shift { <K9> };"), std::string::npos);
  EXPECT_NE(text.find("modifier_map Control {"), std::string::npos);
  EXPECT_NE(text.find("[ 0x61 ]"), std::string::npos);  // a
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::platform::wayland
