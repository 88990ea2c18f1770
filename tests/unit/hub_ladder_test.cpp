// The hub's side of the encoding ladder (--max-encodes): which rung each
// sink takes, the switch at the new rung's key frame, each rung's bitrate
// and state, and the ladder shrinking when the machine cannot afford it.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "stream/fanout/hub.h"

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using encode::EncodedFrame;
using encode::EncodedFramePtr;

struct LadderPipeline {
  std::chrono::steady_clock::time_point now{std::chrono::hours(1)};
  std::vector<int> keys;                       // rungs asked for a key frame
  std::map<int, int> kbps;                     // each rung's last ceiling
  std::map<int, std::pair<bool, bool>> rungs;  // each rung's coded and ready
  std::vector<bool> paused;
  std::vector<bool> full;
  std::vector<bool> active;
  PipelineControls controls() {
    PipelineControls c;
    c.set_active = [this](bool a) { active.push_back(a); };
    c.request_keyframe = [this](int r) { keys.push_back(r); };
    c.set_paused = [this](bool p) { paused.push_back(p); };
    c.set_target_kbps = [this](int r, int k) { kbps[r] = k; };
    c.set_full_chroma = [this](bool f) { full.push_back(f); };
    c.now = [this] { return now; };
    c.set_rung = [this](int r, bool coded, bool ready) { rungs[r] = {coded, ready}; };
    return c;
  }
  bool coded(int r) { return rungs.count(r) && rungs[r].first; }
};

struct Viewer : VideoSink {
  int kbps = 0;
  bool is_ready = true;
  bool full = false;
  bool top = false;
  bool observer = false;
  int fps = 0;
  std::vector<std::pair<int, uint32_t>> got;  // rung, id
  void on_video(const EncodedFramePtr& f) override { got.emplace_back(f->rung, f->id); }
  bool ready() const override { return is_ready; }
  int target_kbps() const override { return kbps; }
  bool takes_full_chroma() const override { return full; }
  bool wants_top_rung() const override { return top; }
  bool observes() const override { return observer; }
  int max_fps() const override { return fps; }
};

EncodedFramePtr frame(uint32_t id, int rung, bool key) {
  auto f = std::make_shared<EncodedFrame>();
  f->id = id;
  f->rung = rung;
  f->key = key;
  return f;
}

// A LAN viewer and a slow one on a two-rung ladder, the slow one moved to
// rung 1 (and switched there at its key frame).
struct TwoLinks : ::testing::Test {
  LadderPipeline p;
  Hub hub{p.controls()};
  Viewer fast, slow;

  void SetUp() override {
    hub.set_bitrate_limits({500, 30000});
    hub.set_max_rungs(2);
    fast.kbps = 30000;
    hub.add(&fast);
    hub.add(&slow);  // not measured yet: rung 0
    slow.kbps = 2000;
    hub.refresh_rate();
    p.now += RungPlanner::kDownHold;
    hub.refresh_rate();
  }
};

TEST_F(TwoLinks, TheSlowViewerMovesDownAfterTheHoldAndSwitchesAtAKeyFrame) {
  EXPECT_EQ(hub.rung_of(&slow), 0) << "frames of rung 0 until rung 1's key frame";
  EXPECT_EQ(hub.moving_to(&slow), 1);
  ASSERT_FALSE(p.keys.empty());
  EXPECT_EQ(p.keys.back(), 1) << "the move asks rung 1 for a key frame";
  EXPECT_TRUE(p.coded(1)) << "rung 1 is coded from now on";
  EXPECT_EQ(p.kbps[0], 30000) << "the viewer on its way down no longer sets rung 0's rate";
  EXPECT_EQ(p.kbps[1], 2000);

  hub.publish(frame(1, 0, false));
  hub.publish(frame(2, 1, false));  // a rung 1 delta before its key frame: nobody's
  hub.publish(frame(3, 1, true));
  hub.publish(frame(4, 0, false));
  hub.publish(frame(5, 1, false));
  EXPECT_EQ(fast.got, (std::vector<std::pair<int, uint32_t>>{{0, 1}, {0, 4}}));
  EXPECT_EQ(slow.got, (std::vector<std::pair<int, uint32_t>>{{0, 1}, {1, 3}, {1, 5}}))
      << "rung 0 until rung 1's key frame, rung 1 from it on";
  EXPECT_EQ(hub.rung_of(&slow), 1);
  EXPECT_EQ(hub.moving_to(&slow), -1);
  EXPECT_EQ(hub.sinks_on(0), 1);
  EXPECT_EQ(hub.sinks_on(1), 1);
  EXPECT_EQ(hub.rung_moves(), 1);
}

TEST_F(TwoLinks, KeyFrameRequestsGoToTheSinksOwnRung) {
  hub.publish(frame(1, 1, true));
  p.now += 1s;
  p.keys.clear();
  hub.request_keyframe(&slow);
  hub.request_keyframe(&fast);
  EXPECT_EQ(p.keys, (std::vector<int>{1, 0}));
}

TEST_F(TwoLinks, EachRungPausesOnItsOwn) {
  hub.publish(frame(1, 1, true));
  slow.is_ready = false;
  hub.refresh_pause();
  EXPECT_EQ(p.rungs[1], std::make_pair(true, false));
  EXPECT_EQ(p.rungs[0], std::make_pair(true, true));
  EXPECT_TRUE(p.paused.empty() || !p.paused.back()) << "the LAN viewer still takes frames";
  fast.is_ready = false;
  hub.refresh_pause();
  ASSERT_FALSE(p.paused.empty());
  EXPECT_TRUE(p.paused.back()) << "every rung congested: the pipeline waits";
}

TEST_F(TwoLinks, ARungWithNoViewersIsNotCoded) {
  hub.publish(frame(1, 1, true));
  hub.remove(&slow);
  EXPECT_FALSE(p.coded(1));
  EXPECT_TRUE(p.coded(0));
}

TEST_F(TwoLinks, TheLadderShrinkingMovesEveryoneToTheTopRung) {
  hub.publish(frame(1, 1, true));
  ASSERT_EQ(hub.rung_of(&slow), 1);
  p.keys.clear();
  hub.set_rung_budget(1);
  EXPECT_EQ(hub.rung_budget(), 1);
  EXPECT_EQ(hub.moving_to(&slow), 0) << "at once, no hold";
  EXPECT_EQ(p.keys, std::vector<int>{0});
  EXPECT_EQ(p.kbps[0], 2000) << "one encode follows the slowest, as without a ladder";
  hub.publish(frame(3, 0, true));
  EXPECT_EQ(hub.rung_of(&slow), 0);
  EXPECT_FALSE(p.coded(1));
}

TEST_F(TwoLinks, AnImprovedLinkMovesUpAfterTheLongerHold) {
  hub.publish(frame(1, 1, true));
  slow.kbps = 28000;
  hub.refresh_rate();
  p.now += RungPlanner::kDownHold;
  hub.refresh_rate();
  EXPECT_EQ(hub.moving_to(&slow), -1) << "not yet";
  p.now += RungPlanner::kUpHold;
  hub.refresh_rate();
  EXPECT_EQ(hub.moving_to(&slow), 0);
  hub.publish(frame(2, 0, true));
  EXPECT_EQ(hub.rung_of(&slow), 0);
  EXPECT_EQ(p.kbps[0], 28000);
}

TEST_F(TwoLinks, ARecordingTakesTheTopRung) {
  hub.publish(frame(1, 1, true));
  Viewer recorder;
  recorder.top = true;
  hub.add(&recorder);
  EXPECT_EQ(hub.rung_of(&recorder), 0);
  EXPECT_EQ(p.kbps[0], 30000) << "a recording has no say in the rate";
  hub.remove(&fast);
  p.now += RungPlanner::kUpHold + 1s;
  hub.refresh_rate();
  hub.refresh_rate();
  EXPECT_EQ(hub.rung_of(&recorder), 0) << "still the top rung, whoever else watches";
}

TEST_F(TwoLinks, FullChromaFollowsTheTopRungsViewersOnly) {
  hub.publish(frame(1, 1, true));
  fast.full = true;
  hub.refresh_chroma();
  EXPECT_TRUE(hub.full_chroma()) << "the slow viewer on rung 1 does not decode 4:4:4, and need not";
}

TEST_F(TwoLinks, AnObserverTakesTheBestRungTheOthersTakeAndFollowsIt) {
  hub.publish(frame(1, 1, true));
  Viewer session;
  session.observer = true;
  hub.add(&session);
  EXPECT_EQ(hub.rung_of(&session), 0) << "the LAN viewer's rung";
  EXPECT_EQ(hub.moving_to(&session), -1);
  hub.remove(&fast);
  EXPECT_EQ(hub.moving_to(&session), 1) << "the best picture anyone still gets";
  EXPECT_FALSE(p.coded(0)) << "an observer alone does not keep a rung coded";
  ASSERT_FALSE(p.keys.empty());
  EXPECT_EQ(p.keys.back(), 1);
  hub.publish(frame(2, 1, true));
  EXPECT_EQ(hub.rung_of(&session), 1);
  EXPECT_EQ(session.got, (std::vector<std::pair<int, uint32_t>>{{1, 2}}));
}

TEST(HubLadder, AnObserverHasNoSayInPauseRateOrFrameRate) {
  LadderPipeline p;
  Hub hub(p.controls());
  hub.set_bitrate_limits({500, 30000});
  hub.set_server_max_fps(60);
  Viewer viewer, session;
  viewer.kbps = 3000;
  viewer.fps = 30;
  session.observer = true;
  session.kbps = 900;  // ignored: an observer sets no rate
  hub.add(&viewer);
  hub.add(&session);
  EXPECT_EQ(p.active, std::vector<bool>{true});
  EXPECT_EQ(hub.max_fps(), 30) << "the viewer's cap, not the server's maximum";
  EXPECT_EQ(p.kbps[0], 3000);
  viewer.is_ready = false;
  hub.refresh_pause();
  ASSERT_FALSE(p.paused.empty());
  EXPECT_TRUE(p.paused.back()) << "an observer that is always ready does not keep the encoder running";
  hub.remove(&viewer);
  EXPECT_EQ(p.active, (std::vector<bool>{true, false})) << "the pipeline stops with the last viewer";
  EXPECT_FALSE(p.coded(0));
  hub.add(&viewer);
  EXPECT_EQ(p.active, (std::vector<bool>{true, false, true}));
  hub.remove(&session);
  EXPECT_EQ(p.active.size(), 3u) << "an observer leaving changes nothing";
}

TEST(HubLadder, AnObserverVetoesFullChromaOnItsRung) {
  LadderPipeline p;
  Hub hub(p.controls());
  Viewer viewer, session;
  viewer.full = true;
  session.observer = true;
  hub.add(&viewer);
  EXPECT_TRUE(hub.full_chroma());
  hub.add(&session);
  EXPECT_FALSE(hub.full_chroma()) << "its MP4 stays 4:2:0";
}

TEST(HubLadder, OneRungKeepsOneEncodeForEveryone) {
  LadderPipeline p;
  Hub hub(p.controls());
  hub.set_bitrate_limits({500, 30000});
  Viewer fast, slow;
  fast.kbps = 30000;
  slow.kbps = 2000;
  hub.add(&fast);
  hub.add(&slow);
  p.now += 10s;
  hub.refresh_rate();
  EXPECT_EQ(hub.rung_of(&slow), 0);
  EXPECT_EQ(hub.moving_to(&slow), -1);
  EXPECT_EQ(p.kbps[0], 2000);
  EXPECT_FALSE(p.coded(1));
}

}  // namespace
}  // namespace voxl::stream
