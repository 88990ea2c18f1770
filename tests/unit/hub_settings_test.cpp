// What the hub combines of its sinks' own settings for the one encode: the
// frame rate ceiling (the highest any sink allows) and the motion choice
// (what the viewers that chose agree on, a recording having no say).
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "stream/fanout/hub.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using encode::EncodedFramePtr;

struct CappedSink : VideoSink {
  int cap = 0;
  std::optional<Motion> choice;
  bool observer = false;
  void on_video(const EncodedFramePtr&) override {}
  int max_fps() const override { return cap; }
  std::optional<Motion> motion() const override { return choice; }
  bool observes() const override { return observer; }
};

TEST(Hub, TheMotionChoiceIsWhatTheViewersAgreeOn) {
  std::vector<Motion> told;
  PipelineControls c;
  c.set_motion = [&](Motion m) { told.push_back(m); };
  Hub hub(c);
  hub.set_server_motion(Motion::kSharp);
  EXPECT_EQ(hub.motion(), Motion::kSharp);
  CappedSink a, b, recording;
  a.choice = Motion::kSmooth;
  hub.add(&a);
  EXPECT_EQ(hub.motion(), Motion::kSmooth);
  recording.observer = true;
  recording.choice = Motion::kSharp;
  hub.add(&recording);
  EXPECT_EQ(hub.motion(), Motion::kSmooth) << "a recording has no say";
  hub.add(&b);
  EXPECT_EQ(hub.motion(), Motion::kSmooth) << "a viewer without a choice";
  b.choice = Motion::kAuto;
  hub.refresh_motion();
  EXPECT_EQ(hub.motion(), Motion::kSharp) << "they disagree: the server's";
  hub.remove(&a);
  EXPECT_EQ(hub.motion(), Motion::kAuto);
  EXPECT_EQ(told, (std::vector<Motion>{Motion::kSharp, Motion::kSmooth, Motion::kSharp, Motion::kAuto}));
}

TEST(Hub, TheFrameRateCeilingIsTheHighestAnySinkAllows) {
  std::vector<int> ceilings;
  PipelineControls c;
  c.set_max_fps = [&](int fps) { ceilings.push_back(fps); };
  Hub hub(c);
  hub.set_server_max_fps(60);
  EXPECT_EQ(hub.max_fps(), 60);
  CappedSink a, b;
  a.cap = 15;
  hub.add(&a);
  EXPECT_EQ(hub.max_fps(), 15);
  b.cap = 30;
  hub.add(&b);
  EXPECT_EQ(hub.max_fps(), 30);
  b.cap = 0;  // no cap: the server's maximum
  hub.refresh_fps();
  EXPECT_EQ(hub.max_fps(), 60);
  hub.remove(&b);
  EXPECT_EQ(hub.max_fps(), 15);
  hub.remove(&a);
  EXPECT_EQ(hub.max_fps(), 60);
  EXPECT_EQ(ceilings, (std::vector<int>{60, 15, 30, 60, 15, 60}));
}

}  // namespace
}  // namespace voxl::stream
