// voxl-demo, the program scripts/run shows, started by a real voxl
// (--exec) on a private Xvfb and driven the way a viewer drives it: text
// typed through POST /input shows in its keyboard box and Backspace takes
// it back, a drag draws on the canvas and Clear wipes it, what another
// program or the page puts on the clipboard shows in the clipboard box and
// Copy hands the typed text to the page, the tone button is heard in the
// stream's audio (or says there is no sound), and the window follows a
// viewer's resize. Each part is found on screenshots through the demo's
// own layout and colours.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "demo_layout.h"
#include "demo_style.h"
#include "endpoint_fixture.h"
#include "media_probe.h"
#include "pulse_server.h"
#include "tone.h"
#include "xclip.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
namespace style = demo::style;

constexpr auto kLimit = 60s;  // sanitizers on a loaded 2-core machine
constexpr double kToneHz = 440;

size_t count(const DecodedPng& p, uint32_t rgb) {
  return size_t(std::count(p.rgb.begin(), p.rgb.end(), rgb));
}

// The lowest row holding `rgb`; -1 when none does.
int lowest_row(const DecodedPng& p, uint32_t rgb) {
  for (int y = p.size.height - 1; y >= 0; --y)
    for (int x = 0; x < p.size.width; ++x)
      if (p.at(x, y) == rgb) return y;
  return -1;
}

class DemoTest : public EndpointFixture {
 protected:
  void TearDown() override {
    EndpointFixture::TearDown();
    if (!no_pulse_dir_.empty()) std::filesystem::remove_all(no_pulse_dir_);
  }

  // voxl with the demo, on a display of `size`; the demo plays its tone to
  // `pulse` or, without one, finds no PulseAudio at all (never the
  // machine's own).
  void start_demo(PulseServer* pulse, std::vector<std::string> args = {}, Size size = kScreen) {
    std::vector<std::string> env;
    if (pulse) {
      env = pulse->env();
    } else {
      no_pulse_dir_ = PulseServer::make_private_dir();
      env = PulseServer::env_for(no_pulse_dir_);
    }
    start_display(kBackground, size);
    args.insert(args.end(), {"--exec", VOXL_DEMO_BINARY});
    start_voxl(args, env);
    layout_ = demo::layout_for(size.width, size.height);
    // Up once its canvas shows.
    const demo::Area& c = layout_.canvas;
    ASSERT_TRUE(wait_for({c.x + c.w / 2, c.y + c.h / 2, 1, 1}, [](const DecodedPng& p) {
      return p.at(0, 0) == style::kCanvas;
    })) << voxl_->log();
  }

  DecodedPng shot(const demo::Area& a) {
    const HttpAnswer r = get("/screenshot?region=" + std::to_string(a.x) + "," + std::to_string(a.y) + "," +
                             std::to_string(a.w) + "," + std::to_string(a.h));
    if (r.status != 200) return {"status " + std::to_string(r.status) + ": " + r.body, {}, {}};
    return decode_png(r.body);
  }

  // Polls `a`'s screenshot until `pred` holds; false after `limit`.
  bool wait_for(const demo::Area& a, const std::function<bool(const DecodedPng&)>& pred,
                std::chrono::milliseconds limit = kLimit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      const DecodedPng p = shot(a);
      if (p.error.empty() && pred(p)) return true;
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(50ms);
    }
  }

  void input(const nlohmann::json& body) {
    const HttpAnswer a = call("POST", "/input", body.dump(), {{"Content-Type", "application/json"}});
    ASSERT_EQ(a.status, 200) << a.body;
  }
  void click(const demo::Area& a) { input({{"type", "click"}, {"x", a.x + a.w / 2}, {"y", a.y + a.h / 2}}); }
  void type(const std::string& text) { input({{"type", "type"}, {"text", text}}); }
  void keys(const std::vector<std::string>& names) {
    nlohmann::json actions = nlohmann::json::array();
    for (const auto& k : names) actions.push_back({{"type", "key"}, {"keys", k}});
    input({{"actions", actions}});
  }

  // The button's colour, read just inside its corner (away from its label).
  uint32_t button_colour(const demo::Area& b) {
    const DecodedPng p = shot({b.x + 2, b.y + 2, 1, 1});
    return p.error.empty() ? p.at(0, 0) : 0xffffffff;
  }

  demo::Layout layout_;
  std::string no_pulse_dir_;
};

TEST_F(DemoTest, TypedTextShowsAndBackspaceTakesItBack) {
  start_demo(nullptr);
  const demo::Area box = layout_.text_box;
  const DecodedPng before = shot(box);
  ASSERT_EQ(before.error, "");
  EXPECT_EQ(count(before, style::kText), 0u) << "text in the box before any key";

  type("Hé voxl");
  DecodedPng one_line;
  ASSERT_TRUE(wait_for(box, [&](const DecodedPng& p) {
    one_line = p;
    return count(p, style::kText) > 50;
  })) << "the typed text never showed";

  // Return starts a second row below the first.
  keys({"Return"});
  type("2");
  const int first_row_bottom = lowest_row(one_line, style::kText);
  ASSERT_TRUE(wait_for(box, [&](const DecodedPng& p) { return lowest_row(p, style::kText) > first_row_bottom + 4; }))
      << "no second row after Return";

  // Backspace over all nine characters leaves the box as it was.
  keys(std::vector<std::string>(9, "BackSpace"));
  EXPECT_TRUE(wait_for(box, [&](const DecodedPng& p) { return p.rgb == before.rgb; }))
      << "the box is not empty again after Backspace";
}

TEST_F(DemoTest, ADragDrawsOnTheCanvasAndClearWipesIt) {
  start_demo(nullptr);
  const demo::Area c = layout_.canvas;
  const int y = c.y + c.h / 2, x0 = c.x + c.w / 4, x1 = c.x + 3 * c.w / 4;
  input({{"type", "drag"}, {"from", {x0, y}}, {"to", {x1, y}}});
  // The line's middle is drawn; a point well off it is not.
  ASSERT_TRUE(wait_for({(x0 + x1) / 2, y, 1, 1}, [](const DecodedPng& p) { return p.at(0, 0) != style::kCanvas; }))
      << "the drag drew nothing";
  const DecodedPng off = shot({(x0 + x1) / 2, y - 30, 1, 1});
  ASSERT_EQ(off.error, "");
  EXPECT_EQ(off.at(0, 0), style::kCanvas);

  click(layout_.clear_canvas_button);
  EXPECT_TRUE(wait_for(c, [](const DecodedPng& p) { return count(p, style::kCanvas) == p.rgb.size(); }))
      << "Clear left the drawing";
}

TEST_F(DemoTest, TheClipboardShowsWhatOthersCopyAndCopySendsTheTypedTextToThePage) {
  start_demo(nullptr);
  StreamClient viewer(client_options());
  ASSERT_TRUE(viewer.wait_until([&] { return viewer.picture().has_value(); }, kLimit)) << viewer.status();
  const demo::Area box = layout_.clipboard_box;
  const DecodedPng empty = shot(box);
  ASSERT_EQ(empty.error, "");
  EXPECT_EQ(count(empty, style::kText), 0u) << "text in the clipboard box before anything was copied";

  // Another program on the desktop copies.
  auto owner = xclip_owner(display_->name(), "copied by xclip");
  DecodedPng from_xclip;
  ASSERT_TRUE(wait_for(box, [&](const DecodedPng& p) {
    from_xclip = p;
    return count(p, style::kText) > 50;
  })) << "xclip's text never showed";

  // The page pastes: voxl takes the clipboard, and the demo asks voxl. The
  // viewer sends while it reads, so the wait reads the stream.
  viewer.send_text(R"({"type":"clipboard","mime":"text/plain","text":"pasted in the page, much longer than before"})");
  auto next_look = std::chrono::steady_clock::now();
  const bool pasted = viewer.wait_until(
      [&] {
        if (std::chrono::steady_clock::now() < next_look) return false;
        next_look = std::chrono::steady_clock::now() + 100ms;
        const DecodedPng p = shot(box);
        return p.error.empty() && p.rgb != from_xclip.rgb && count(p, style::kText) > count(from_xclip, style::kText);
      },
      kLimit);
  ASSERT_TRUE(pasted) << "the page's paste never showed\n" << voxl_->log();

  // Copy puts the typed text on the clipboard, and voxl sends it to the page.
  type("sent to the page");
  ASSERT_TRUE(wait_for(layout_.text_box, [](const DecodedPng& p) { return count(p, style::kText) > 50; }));
  click(layout_.copy_button);
  EXPECT_TRUE(viewer.wait_until(
      [&] {
        for (const auto& t : viewer.texts())
          if (t.value("type", "") == "clipboard" && t.value("text", "") == "sent to the page") return true;
        return false;
      },
      kLimit))
      << viewer.status() << "\n" << voxl_->log();
}

TEST_F(DemoTest, TheToneButtonIsHeardInTheStream) {
  PulseServer pulse;
  start_demo(&pulse);
  StreamClient viewer(client_options());
  // The stream's audio runs, and the demo found the server.
  ASSERT_TRUE(viewer.wait_until([&] { return viewer.audio().size() >= 50; }, kLimit)) << viewer.status();
  ASSERT_TRUE(wait_for({layout_.tone_button.x + 2, layout_.tone_button.y + 2, 1, 1},
                       [](const DecodedPng& p) { return p.at(0, 0) == style::kButton; }))
      << "the tone button never became ready";

  TestOpusDecoder decoder(2);
  std::vector<float> before, after;
  size_t decoded = 0;
  const auto decode_new = [&](std::vector<float>& into) {
    for (; decoded < viewer.audio().size(); ++decoded) decoder.decode(viewer.audio()[decoded].packet, into);
  };
  decode_new(before);
  EXPECT_FALSE(has_tone(before, kToneHz)) << "a tone before the click";

  click(layout_.tone_button);
  // 200 ms of it is enough to tell.
  const size_t window = 48000 / 5;
  const bool heard = viewer.wait_until(
      [&] {
        decode_new(after);
        return after.size() >= window && has_tone(std::span<const float>(after).last(window), kToneHz);
      },
      kLimit);
  EXPECT_TRUE(heard) << "no " << kToneHz << " Hz in " << after.size() << " samples after the click; rms "
                     << rms(after);
}

TEST_F(DemoTest, WithoutPulseAudioTheToneButtonSaysSoAndTheDemoGoesOn) {
  start_demo(nullptr);
  const demo::Area b = layout_.tone_button;
  ASSERT_TRUE(wait_for({b.x + 2, b.y + 2, 1, 1}, [](const DecodedPng& p) { return p.at(0, 0) == style::kButtonOff; }))
      << "the tone button does not say sound is unavailable";
  // A press tries again, fails again, and the demo still answers.
  click(b);
  type("still here");
  EXPECT_TRUE(wait_for(layout_.text_box, [](const DecodedPng& p) { return count(p, style::kText) > 50; }));
  EXPECT_EQ(button_colour(b), style::kButtonOff);
}

TEST_F(DemoTest, TheWindowFollowsAViewersResize) {
  start_demo(nullptr, {"--enable-resize"});
  StreamClient viewer(client_options());
  ASSERT_TRUE(viewer.wait_until([&] { return viewer.picture().has_value(); }, kLimit)) << viewer.status();
  const Size smaller{560, 400};
  viewer.send_text(R"({"type":"resize","width":560,"height":400})");
  // The new layout's canvas frame is where the old canvas was: once it is
  // drawn there, the demo has laid itself out again.
  const demo::Layout l = demo::layout_for(smaller.width, smaller.height);
  const demo::Area edge{l.canvas.right(), l.canvas.y + l.canvas.h / 2, 1, 1};
  ASSERT_EQ(layout_.canvas.contains(edge.x, edge.y), true);
  auto next_look = std::chrono::steady_clock::now();
  EXPECT_TRUE(viewer.wait_until(
      [&] {
        if (std::chrono::steady_clock::now() < next_look) return false;
        next_look = std::chrono::steady_clock::now() + 100ms;
        const DecodedPng p = shot(edge);
        return p.error.empty() && p.at(0, 0) == style::kBoxFrame;
      },
      kLimit))
      << voxl_->log();
  const DecodedPng whole = decode_png(get("/screenshot").body);
  EXPECT_EQ(whole.size, smaller);
  EXPECT_EQ(whole.at(l.canvas.x + l.canvas.w / 2, l.canvas.y + l.canvas.h / 2), style::kCanvas);
}

}  // namespace
}  // namespace voxl::testing
