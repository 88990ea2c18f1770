// XTest input and XFixes cursor shapes against a private Xvfb, checked by a
// second X client that records what it receives.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <nlohmann/json.hpp>

#include "capture/frame_pool.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "event_recorder.h"
#include "input/interaction.h"
#include "input/keysyms.h"
#include "input/viewer_input.h"
#include "platform/x11/xfixes_cursor_source.h"
#include "platform/x11/xtest_injector.h"
#include "x11_test_support.h"

namespace voxl::input {
namespace VOXL_TEST_FILE {

using testing::EventRecorder;
using testing::InputEvent;
using testing::pressed_keysyms;
using json = nlohmann::json;
namespace ks = keysym;

constexpr Rect kArea{0, 0, 640, 480};

class InputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    platform::x11::VirtualDisplayOptions o;
    o.size = {640, 480};
    xvfb_ = std::make_unique<platform::x11::VirtualDisplay>(o);
    recorder_ = std::make_unique<EventRecorder>(xvfb_->name(), kArea);
    log_ = testing::make_captured_log();
    injector_ = std::make_unique<platform::x11::XTestInjector>(xvfb_->name(), log_.log);
  }

  size_t count(InputEvent::Kind kind) const {
    size_t n = 0;
    for (const auto& e : recorder_->events())
      if (e.kind == kind) ++n;
    return n;
  }

  bool wait_presses(size_t n) {
    return recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kKeyPress) >= n; });
  }

  std::unique_ptr<platform::x11::VirtualDisplay> xvfb_;
  std::unique_ptr<EventRecorder> recorder_;
  testing::CapturedLog log_;
  std::unique_ptr<platform::x11::XTestInjector> injector_;
};

TEST_F(InputTest, KeysArriveWithTheirKeysyms) {
  ASSERT_EQ(injector_->key('a', true), InputStatus::kOk);
  ASSERT_EQ(injector_->key('a', false), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ks::kShiftL, true), InputStatus::kOk);
  ASSERT_EQ(injector_->key('A', true), InputStatus::kOk);
  ASSERT_EQ(injector_->key('A', false), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ks::kShiftL, false), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ks::kReturn, true), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ks::kReturn, false), InputStatus::kOk);
  ASSERT_TRUE(wait_presses(4));
  EXPECT_EQ(pressed_keysyms(recorder_->events()), (std::vector<uint32_t>{'a', ks::kShiftL, 'A', ks::kReturn}));
  EXPECT_EQ(count(InputEvent::Kind::kKeyRelease), 4u);
}

TEST_F(InputTest, KeysymsMissingFromTheKeymapUseASpareKeycodeThatIsRestored) {
  ASSERT_GT(injector_->spare_keycodes(), 8u);
  const uint32_t ya = ks::kUnicodeOffset + 0x44f;  // я, in no keymap of a US Xvfb
  ASSERT_EQ(injector_->key(ya, true), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ya, false), InputStatus::kOk);
  ASSERT_TRUE(wait_presses(1));
  const InputEvent press = recorder_->events().front();
  EXPECT_EQ(press.keysym, ya);
  // Shift held by the viewer does not turn it into something else.
  ASSERT_EQ(injector_->key(ks::kShiftL, true), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ya, true), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ya, false), InputStatus::kOk);
  ASSERT_EQ(injector_->key(ks::kShiftL, false), InputStatus::kOk);
  ASSERT_TRUE(wait_presses(3));
  EXPECT_EQ(pressed_keysyms(recorder_->events()), (std::vector<uint32_t>{ya, ks::kShiftL, ya}));

  injector_.reset();  // unbinds
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return recorder_->keysym_at(press.keycode, 0) == 0; }));
}

TEST_F(InputTest, TypesUnicodeText) {
  const std::string text = "Hi, я€ 😀!\n";
  ASSERT_EQ(injector_->type_text(text), InputStatus::kOk);
  const std::vector<uint32_t> want{'H', 'i', ',', ' ', ks::kUnicodeOffset + 0x44f, ks::kUnicodeOffset + 0x20ac, ' ',
                                   ks::kUnicodeOffset + 0x1f600, '!', ks::kReturn};
  // Shift is pressed around capitals and '!'.
  ASSERT_TRUE(recorder_->wait_until([&](const auto& ev) {
    auto keys = pressed_keysyms(ev);
    std::erase(keys, ks::kShiftL);
    return keys.size() >= want.size();
  }));
  auto keys = pressed_keysyms(recorder_->events());
  std::erase(keys, ks::kShiftL);
  EXPECT_EQ(keys, want);
  // Nothing is left pressed.
  EXPECT_EQ(count(InputEvent::Kind::kKeyPress), count(InputEvent::Kind::kKeyRelease));
}

TEST_F(InputTest, ButtonsLandWhereThePointerWasMoved) {
  injector_->move(123, 45);
  injector_->button(kButtonLeft, true);
  injector_->button(kButtonLeft, false);
  injector_->move(600, 400);
  injector_->button(kButtonRight, true);
  injector_->button(kButtonRight, false);
  injector_->button(kButtonBack, true);
  injector_->button(kButtonBack, false);
  injector_->button(kButtonForward, true);
  injector_->button(kButtonForward, false);
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kButtonRelease) >= 4; }));
  std::vector<std::string> got;
  for (const auto& e : recorder_->events())
    if (e.press()) got.push_back(e.describe());
  EXPECT_EQ(got, (std::vector<std::string>{"button down 1 123 45", "button down 3 600 400", "button down 8 600 400",
                                           "button down 9 600 400"}));
}

struct NullLink : ViewerLink {
  std::vector<std::string> sent;
  void send_control(std::string text) override { sent.push_back(std::move(text)); }
};

TEST_F(InputTest, SmoothScrollBecomesNotchesOnTheRightButtons) {
  InteractionSettings s;
  s.scroll_px_per_notch = 180;
  Interaction interaction(injector_.get(), nullptr, nullptr, s, log_.log);
  NullLink link;
  auto viewer = interaction.join(link, false, 1);
  // 12 deltas of 45 px: 540 px, three notches down; then 2.5 notches up
  // and 1 right.
  for (int i = 0; i < 12; ++i)
    viewer->handle("scroll", json{{"dx", 0}, {"dy", 45}, {"unit", "px"}, {"x", 10}, {"y", 10}});
  viewer->handle("scroll", json{{"dx", 0}, {"dy", -450}, {"unit", "px"}, {"x", 10}, {"y", 10}});
  viewer->handle("scroll", json{{"dx", 1}, {"dy", 0}, {"unit", "notch"}, {"x", 10}, {"y", 10}});
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return count(InputEvent::Kind::kButtonPress) >= 6; }));
  std::vector<int> buttons;
  for (const auto& e : recorder_->events())
    if (e.press()) buttons.push_back(e.button);
  EXPECT_EQ(buttons, (std::vector<int>{5, 5, 5, 4, 4, 7}));
}

TEST_F(InputTest, AViewerThatGoesReleasesItsKeysAndButtons) {
  Interaction interaction(injector_.get(), nullptr, nullptr, {}, log_.log);
  NullLink link;
  auto viewer = interaction.join(link, false, 1);
  viewer->handle("key", json{{"code", "ShiftLeft"}, {"key", "Shift"}, {"down", true}, {"mods", kModShift}});
  viewer->handle("key", json{{"code", "KeyQ"}, {"key", "Q"}, {"down", true}, {"mods", kModShift}});
  viewer->handle("button", json{{"button", 1}, {"down", true}, {"x", 50}, {"y", 60}, {"mods", kModShift}});
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) { return recorder_->events().size() >= 3; }));
  viewer.reset();  // the connection went
  ASSERT_TRUE(recorder_->wait_until([&](const auto&) {
    return count(InputEvent::Kind::kKeyRelease) >= 2 && count(InputEvent::Kind::kButtonRelease) >= 1;
  }));
  EXPECT_EQ(pressed_keysyms(recorder_->events()), (std::vector<uint32_t>{ks::kShiftL, 'Q'}));
  // Nothing is held any more: a new press carries no Shift or Button1.
  injector_->key('z', true);
  injector_->key('z', false);
  ASSERT_TRUE(wait_presses(3));
  EXPECT_EQ(recorder_->events().back().state & (uint16_t(XCB_MOD_MASK_SHIFT) | uint16_t(XCB_BUTTON_MASK_1)), 0);
  EXPECT_EQ(pressed_keysyms(recorder_->events()).back(), uint32_t('z'));
}

TEST_F(InputTest, LockStateFollowsTheViewer) {
  EXPECT_FALSE(injector_->caps_lock());
  Interaction interaction(injector_.get(), nullptr, nullptr, {}, log_.log);
  NullLink link;
  auto viewer = interaction.join(link, false, 1);
  viewer->handle("key", json{{"code", "KeyA"}, {"key", "A"}, {"down", true}, {"mods", kModCapsLock}});
  viewer->handle("key", json{{"code", "KeyA"}, {"key", "A"}, {"down", false}, {"mods", kModCapsLock}});
  EXPECT_TRUE(injector_->caps_lock());
  viewer->handle("key", json{{"code", "KeyB"}, {"key", "b"}, {"down", true}, {"mods", 0}});
  EXPECT_FALSE(injector_->caps_lock());
}

// A 16x16 cursor with its hotspot at (5, 7), defined on a window the pointer
// then enters.
xcb_cursor_t make_cursor(xcb_connection_t* c, xcb_window_t root) {
  const xcb_pixmap_t source = xcb_generate_id(c);
  const xcb_pixmap_t mask = xcb_generate_id(c);
  xcb_create_pixmap(c, 1, source, root, 16, 16);
  xcb_create_pixmap(c, 1, mask, root, 16, 16);
  const xcb_gcontext_t gc = xcb_generate_id(c);
  uint32_t one = 1;
  xcb_create_gc(c, gc, source, XCB_GC_FOREGROUND, &one);
  const xcb_rectangle_t all{0, 0, 16, 16};
  xcb_poly_fill_rectangle(c, source, gc, 1, &all);
  xcb_poly_fill_rectangle(c, mask, gc, 1, &all);
  const xcb_cursor_t cursor = xcb_generate_id(c);
  xcb_create_cursor(c, cursor, source, mask, 0xffff, 0, 0, 0, 0, 0, 5, 7);
  xcb_free_gc(c, gc);
  xcb_free_pixmap(c, source);
  xcb_free_pixmap(c, mask);
  return cursor;
}

TEST_F(InputTest, CursorChangesArriveWithTheirHotspot) {
  boost::asio::io_context io;
  platform::x11::XFixesCursorSource source(io, xvfb_->name(), log_.log);
  std::vector<CursorImagePtr> seen;
  source.set_listener([&](const CursorImagePtr& c) { seen.push_back(c); });
  ASSERT_TRUE(source.current());
  const uint64_t first = source.current()->serial;

  testing::Painter painter(xvfb_->name());
  xcb_connection_t* c = painter.conn();
  const xcb_window_t win = painter.create_window({300, 200, 100, 100}, 0x336699);
  const xcb_cursor_t cursor = make_cursor(c, painter.root());
  xcb_change_window_attributes(c, win, XCB_CW_CURSOR, &cursor);
  painter.sync();
  injector_->move(350, 250);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (seen.empty() && std::chrono::steady_clock::now() < deadline) io.run_one_for(std::chrono::milliseconds(200));
  ASSERT_FALSE(seen.empty());
  const CursorImage& img = *seen.back();
  EXPECT_NE(img.serial, first);
  EXPECT_EQ(img.width, 16);
  EXPECT_EQ(img.height, 16);
  EXPECT_EQ(img.hot_x, 5);
  EXPECT_EQ(img.hot_y, 7);
  EXPECT_FALSE(img.hidden());
  // Foreground white, fully opaque, straight alpha.
  EXPECT_EQ(img.rgba[0], 255);
  EXPECT_EQ(img.rgba[3], 255);

  // Back to the root's shape: the one seen first, from the cache.
  seen.clear();
  injector_->move(10, 10);
  const auto deadline2 = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (seen.empty() && std::chrono::steady_clock::now() < deadline2) io.run_one_for(std::chrono::milliseconds(200));
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back()->serial, first);
}

TEST_F(InputTest, ThePointerIsNeverInThePicture) {
  // A visible 16x16 white cursor over a blue window: Xvfb paints software
  // cursors into its framebuffer, unless the cursor source hides them.
  testing::Painter painter(xvfb_->name());
  xcb_connection_t* c = painter.conn();
  const Rect box{200, 150, 100, 100};
  const xcb_window_t win = painter.create_window(box, 0x336699);
  const xcb_cursor_t cursor = make_cursor(c, painter.root());
  xcb_change_window_attributes(c, win, XCB_CW_CURSOR, &cursor);
  painter.sync();

  boost::asio::io_context io;
  platform::x11::XFixesCursorSource source(io, xvfb_->name(), log_.log);
  injector_->move(250, 200);
  // The shape is known to voxl...
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while ((!source.current() || source.current()->width != 16) && std::chrono::steady_clock::now() < deadline)
    io.run_one_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(source.current());
  EXPECT_EQ(source.current()->width, 16);

  // ...and absent from what capture reads, from the framebuffer or not.
  for (const bool framebuffer : {true, false}) {
    SCOPED_TRACE(framebuffer ? "framebuffer" : "X requests");
    platform::x11::X11CaptureOptions o;
    o.display = xvfb_->name();
    o.log = log_.log;
    o.allow_framebuffer = framebuffer;
    if (framebuffer) o.framebuffer_shmid = xvfb_->framebuffer_shmid();
    platform::x11::X11Capturer cap(o);
    capture::FramePool pool(1);
    cap.invalidate_all();
    const auto r = testing::capture_until_ok(cap, pool);
    ASSERT_EQ(r.status, capture::CaptureStatus::kOk) << r.error;
    for (int y = box.y; y < box.y + box.height; ++y)
      for (int x = box.x; x < box.x + box.width; ++x)
        ASSERT_EQ(r.frame->pixel(x, y), 0x336699u) << "pixel " << x << "," << y;
  }
}

}  // namespace
}  // namespace voxl::input
