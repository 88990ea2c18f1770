#include "stream/viewer/resize_controller.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Time = ResizeController::Time;
using json = nlohmann::json;

// The platform and the loop: records the sizes asked for and the timer.
struct World {
  Time now{std::chrono::hours(1)};
  std::vector<Size> resized;
  bool refuse = false;
  std::optional<Time> timer;
  std::map<uint64_t, std::vector<json>> told;

  ResizeHooks hooks() {
    ResizeHooks h;
    h.resize = [this](Size s, std::string& error) {
      if (refuse) {
        error = "no such mode";
        return false;
      }
      resized.push_back(s);
      return true;
    };
    h.arm_timer = [this](Time when) { timer = when; };
    h.now = [this] { return now; };
    return h;
  }
  std::function<void(std::string)> sink(uint64_t id) {
    return [this, id](std::string text) { told[id].push_back(json::parse(text)); };
  }
  // Runs the timer if it is due by `t`.
  void advance(ResizeController& c, std::chrono::milliseconds by) {
    now += by;
    if (timer && *timer <= now) {
      timer.reset();
      c.on_timer();
    }
  }
  const json& last(uint64_t id) { return told[id].back(); }
};

ResizeSettings settings() {
  ResizeSettings s;
  s.current = {1920, 1080};
  s.max = {3840, 2160};
  s.scale = 1.5;
  return s;
}

TEST(ResizeController, TellsEachViewerTheLimitsAndWhetherItHolds) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, false, w.sink(1));
  ASSERT_EQ(w.told[1].size(), 1u);
  const json& m = w.last(1);
  EXPECT_EQ(m["type"], "resize");
  EXPECT_EQ(m["enabled"], true);
  EXPECT_EQ(m["holder"], false);
  EXPECT_EQ(m["policy"], "last-input");
  EXPECT_EQ(m["scale"], 1.5);
  EXPECT_EQ(m["min_width"], 320);
  EXPECT_EQ(m["min_height"], 240);
  EXPECT_EQ(m["max_width"], 3840);
  EXPECT_EQ(m["max_height"], 2160);

  c.on_request(1, {1283, 801});
  EXPECT_EQ(w.last(1)["holder"], true);
  ASSERT_EQ(w.resized.size(), 1u);
  EXPECT_EQ(w.resized[0], (Size{1280, 800})) << "rounded";
  EXPECT_EQ(c.applied(), (Size{1280, 800}));
  const size_t told = w.told[1].size();
  c.on_request(1, {1281, 800});
  EXPECT_EQ(w.resized.size(), 1u) << "the same size after rounding: nothing to do";
  EXPECT_EQ(w.told[1].size(), told) << "nothing changed for the viewer: no message";
}

TEST(ResizeController, ADraggedWindowCostsOneResizePerInterval) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, false, w.sink(1));
  c.on_request(1, {1000, 700});
  ASSERT_EQ(w.resized.size(), 1u);
  for (int i = 1; i <= 20; ++i) {
    w.advance(c, 10ms);
    c.on_request(1, {1000 + 8 * i, 700});
  }
  // 200 ms of requests: still inside the first interval.
  EXPECT_EQ(w.resized.size(), 1u);
  ASSERT_TRUE(w.timer);
  w.advance(c, 60ms);
  ASSERT_EQ(w.resized.size(), 2u);
  EXPECT_EQ(w.resized[1], (Size{1160, 700})) << "the latest request wins";
  EXPECT_FALSE(w.timer);
}

TEST(ResizeController, TheViewerThatLastUsedInputHoldsTheSize) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, false, w.sink(1));
  c.join(2, false, w.sink(2));
  c.on_request(1, {1280, 720});
  c.on_request(2, {800, 600});
  EXPECT_EQ(c.holder(), 1u) << "before anyone used input, the first that asked";
  EXPECT_EQ(w.resized.back(), (Size{1280, 720}));

  w.advance(c, 1s);
  c.on_input(2);
  EXPECT_EQ(c.holder(), 2u);
  EXPECT_EQ(w.last(1)["holder"], false);
  EXPECT_EQ(w.last(2)["holder"], true);
  EXPECT_EQ(w.resized.back(), (Size{800, 600}));

  w.advance(c, 1s);
  c.on_input(2);  // the holder typing again changes nothing
  c.on_input(1);
  EXPECT_EQ(c.holder(), 1u);
  EXPECT_EQ(w.resized.back(), (Size{1280, 720}));

  c.leave(1);
  EXPECT_EQ(c.holder(), 2u) << "the one that remains";
  EXPECT_EQ(w.resized.back(), (Size{1280, 720})) << "not within the interval";
  w.advance(c, 300ms);
  EXPECT_EQ(w.resized.back(), (Size{800, 600}));
}

TEST(ResizeController, ViewOnlyViewersAndViewersThatNeverAskDoNotHold) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, true, w.sink(1));
  c.join(2, false, w.sink(2));  // a script: input, no size
  c.join(3, false, w.sink(3));
  c.on_request(1, {640, 480});
  c.on_input(1);
  EXPECT_FALSE(c.holder());
  EXPECT_TRUE(w.resized.empty());
  c.on_request(3, {1024, 768});
  w.advance(c, 1s);
  c.on_input(2);
  EXPECT_EQ(c.holder(), 3u) << "an agent's input does not take the size from the page that asked";
  EXPECT_EQ(w.resized, (std::vector<Size>{{1024, 768}}));
  EXPECT_EQ(w.last(1)["holder"], false);
}

TEST(ResizeController, WhileSomeoneHoldsControlOnlyItsSizeCounts) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, false, w.sink(1));
  c.join(2, false, w.sink(2));
  c.on_control(1, true);  // 1 holds the keyboard and mouse, never asked for a size
  EXPECT_EQ(c.holder(), 1u);
  c.on_request(2, {800, 600});
  c.on_input(2);  // refused input from a viewer without control would not come here; still
  EXPECT_EQ(c.holder(), 1u) << "a viewer without control does not take the size";
  EXPECT_TRUE(w.resized.empty()) << "the desktop was resized under the control holder";
  EXPECT_EQ(w.last(2)["holder"], false);
  // Control moves: the request kept is applied.
  c.on_control(1, false);
  c.on_control(2, true);
  EXPECT_EQ(c.holder(), 2u);
  EXPECT_EQ(w.resized, (std::vector<Size>{{800, 600}}));
  c.leave(2);
  EXPECT_FALSE(c.holder()) << "1 never asked";
}

TEST(ResizeController, TheSizeStaysWhenTheHolderLeaves) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, false, w.sink(1));
  c.on_request(1, {1024, 768});
  c.leave(1);
  EXPECT_FALSE(c.holder());
  EXPECT_EQ(c.applied(), (Size{1024, 768}));
  EXPECT_EQ(w.resized.size(), 1u);
}

TEST(ResizeController, ARefusedSizeWaitsBeforeItIsTriedAgain) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, false, w.sink(1));
  w.refuse = true;
  c.on_request(1, {1024, 768});
  EXPECT_EQ(c.applied(), (Size{1920, 1080}));
  w.refuse = false;
  w.advance(c, 1s);
  c.on_request(1, {1024, 768});
  EXPECT_TRUE(w.resized.empty()) << "not within kRetryRefused";
  c.on_request(1, {1032, 768});
  EXPECT_EQ(w.resized, (std::vector<Size>{{1032, 768}})) << "another size at once";
  w.refuse = true;
  w.advance(c, 1s);
  c.on_request(1, {1024, 768});
  w.refuse = false;
  w.advance(c, ResizeController::kRetryRefused);
  c.on_request(1, {1024, 768});
  EXPECT_EQ(w.resized.back(), (Size{1024, 768})) << "a display that came back takes it";
}

TEST(ResizeController, AfterARefusalTheDesktopsSizeIsReadAgain) {
  World w;
  auto hooks = w.hooks();
  Size desktop{1280, 720};  // a half-made change, or someone's xrandr
  hooks.current_size = [&desktop] { return desktop; };
  ResizeController c(settings(), hooks, spdlog::default_logger());
  c.join(1, false, w.sink(1));
  w.refuse = true;
  c.on_request(1, {1024, 768});
  EXPECT_EQ(c.applied(), (Size{1280, 720}));
  w.refuse = false;
  w.advance(c, 1s);
  c.on_request(1, {1920, 1080});
  EXPECT_EQ(w.resized, (std::vector<Size>{{1920, 1080}})) << "the start size is no longer the desktop's";
}

TEST(ResizeController, NothingIsResizedOnceStopped) {
  World w;
  ResizeController c(settings(), w.hooks(), spdlog::default_logger());
  c.join(1, false, w.sink(1));
  c.join(2, false, w.sink(2));
  c.on_request(1, {1024, 768});
  c.on_request(2, {800, 600});
  ASSERT_EQ(w.resized.size(), 1u);
  c.stop();
  w.advance(c, 1s);
  c.leave(1);  // the server closing its sessions one by one
  w.advance(c, 1s);
  EXPECT_EQ(w.resized.size(), 1u);
}

TEST(ResizeController, WithoutAResizerEveryViewerIsToldWhy) {
  World w;
  auto s = settings();
  s.disabled_reason = "the X server has no RandR";
  ResizeController c(s, {}, spdlog::default_logger());
  EXPECT_FALSE(c.enabled());
  c.join(1, false, w.sink(1));
  ASSERT_EQ(w.told[1].size(), 1u);
  EXPECT_EQ(w.last(1)["enabled"], false);
  EXPECT_EQ(w.last(1)["reason"], "the X server has no RandR");
  c.on_request(1, {800, 600});
  c.on_input(1);
  EXPECT_FALSE(c.holder());
  EXPECT_EQ(w.told[1].size(), 1u) << "said once";
}

}  // namespace
}  // namespace voxl::stream
