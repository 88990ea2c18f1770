#include "stream/fanout/hub.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

using encode::EncodedFrame;
using encode::EncodedFramePtr;

// Records what the hub asks of the video pipeline.
struct FakePipeline {
  std::vector<bool> active_calls;
  int keyframe_requests = 0;
  std::vector<bool> paused_calls;

  PipelineControls controls() {
    return {.set_active = [this](bool on) { active_calls.push_back(on); },
            .request_keyframe = [this](int) { ++keyframe_requests; },
            .set_paused = [this](bool paused) { paused_calls.push_back(paused); }};
  }
};

struct RecordingSink : VideoSink {
  std::vector<uint32_t> ids;
  std::function<void()> on_frame;  // runs after recording, if set
  void on_video(const EncodedFramePtr& frame) override {
    ids.push_back(frame->id);
    if (on_frame) on_frame();
  }
};

EncodedFramePtr frame(uint32_t id, bool key) {
  auto f = std::make_shared<EncodedFrame>();
  f->id = id;
  f->key = key;
  return f;
}

TEST(Hub, FirstSinkActivatesThePipelineAndLastRemovalDeactivatesIt) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a, b;

  hub.add(&a);
  EXPECT_EQ(p.active_calls, std::vector<bool>{true});
  hub.add(&b);
  EXPECT_EQ(p.active_calls, std::vector<bool>{true}) << "only the first sink switches it on";
  EXPECT_EQ(hub.sinks(), 2u);

  hub.remove(&a);
  EXPECT_EQ(p.active_calls, std::vector<bool>{true}) << "one sink is still there";
  hub.remove(&b);
  EXPECT_EQ(p.active_calls, (std::vector<bool>{true, false}));
  EXPECT_EQ(hub.sinks(), 0u);

  hub.add(&a);
  EXPECT_EQ(p.active_calls, (std::vector<bool>{true, false, true})) << "a later viewer switches it on again";
}

TEST(Hub, RemovingAnUnknownSinkDoesNothing) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a, stranger;
  hub.remove(&stranger);
  EXPECT_TRUE(p.active_calls.empty()) << "an empty hub is not switched off again";
  hub.add(&a);
  hub.remove(&stranger);
  EXPECT_EQ(hub.sinks(), 1u);
  EXPECT_EQ(p.active_calls, std::vector<bool>{true});
  hub.remove(&a);
  hub.remove(&a);
  EXPECT_EQ(p.active_calls, (std::vector<bool>{true, false}));
}

TEST(Hub, AddingASinkAsksForAKeyFrame) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a;
  hub.add(&a);
  EXPECT_EQ(p.keyframe_requests, 1);
}

TEST(Hub, RepeatedKeyFrameRequestsAreMergedUntilAKeyFrameIsPublished) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a, b, c;
  hub.add(&a);
  hub.add(&b);
  hub.request_keyframe();
  hub.request_keyframe();
  hub.add(&c);
  EXPECT_EQ(p.keyframe_requests, 1) << "many viewers joining at once cost one IDR";

  hub.publish(frame(1, false));
  hub.request_keyframe();
  EXPECT_EQ(p.keyframe_requests, 1) << "a delta frame does not answer the request";

  hub.publish(frame(2, true));
  hub.request_keyframe();
  EXPECT_EQ(p.keyframe_requests, 2) << "the key frame came: the next ask is a new request";
  hub.request_keyframe();
  EXPECT_EQ(p.keyframe_requests, 2);
}

TEST(Hub, UnaskedKeyFrameAlsoClearsTheMergeState) {
  FakePipeline p;
  Hub hub(p.controls());
  hub.publish(frame(1, true));
  hub.request_keyframe();
  EXPECT_EQ(p.keyframe_requests, 1);
  hub.publish(frame(2, true));
  hub.request_keyframe();
  EXPECT_EQ(p.keyframe_requests, 2);
}

// The minimum interval between IDRs: requests within it wait for its end
// (one timer on the loop) and are all served by one key frame there.
struct TimedPipeline {
  int keyframe_requests = 0;
  std::vector<std::chrono::steady_clock::duration> armed;
  std::chrono::steady_clock::time_point now{std::chrono::hours(1)};
  PipelineControls controls() {
    PipelineControls c;
    c.request_keyframe = [this](int) { ++keyframe_requests; };
    c.arm_key_timer = [this](std::chrono::steady_clock::duration d) { armed.push_back(d); };
    c.now = [this] { return now; };
    return c;
  }
};

TEST(HubKeyInterval, RequestsWithinTheIntervalAreCoalescedAtItsEnd) {
  using namespace std::chrono_literals;
  TimedPipeline p;
  Hub hub(p.controls());
  RecordingSink a;
  hub.add(&a);
  EXPECT_EQ(p.keyframe_requests, 1);
  p.now += 20ms;
  hub.publish(frame(1, true));
  p.now += 80ms;
  hub.request_keyframe();
  hub.request_keyframe();
  hub.request_keyframe();
  EXPECT_EQ(p.keyframe_requests, 1) << "put off, not made";
  ASSERT_EQ(p.armed.size(), 1u) << "one timer for all of them";
  EXPECT_EQ(p.armed[0], Hub::kMinKeyInterval - 80ms) << "to the end of the interval after the last IDR";
  EXPECT_TRUE(hub.key_deferred());
  p.now += p.armed[0];
  hub.on_key_timer();
  EXPECT_EQ(p.keyframe_requests, 2) << "coalesced into one IDR, not dropped";
  EXPECT_FALSE(hub.key_deferred());
  hub.on_key_timer();
  EXPECT_EQ(p.keyframe_requests, 2) << "a stray timer asks for nothing";
}

TEST(HubKeyInterval, AKeyFrameInTheMeantimeServesTheRequestPutOff) {
  using namespace std::chrono_literals;
  TimedPipeline p;
  Hub hub(p.controls());
  RecordingSink a;
  hub.add(&a);
  hub.publish(frame(1, true));
  p.now += 10ms;
  hub.request_keyframe();
  EXPECT_TRUE(hub.key_deferred());
  hub.publish(frame(2, true));  // the encoder's own (GOP) key frame
  EXPECT_FALSE(hub.key_deferred());
  hub.on_key_timer();
  EXPECT_EQ(p.keyframe_requests, 1);
}

TEST(HubKeyInterval, RequestsPastTheIntervalGoAtOnce) {
  using namespace std::chrono_literals;
  TimedPipeline p;
  Hub hub(p.controls());
  RecordingSink a;
  hub.add(&a);
  hub.publish(frame(1, true));
  p.now += Hub::kMinKeyInterval;
  hub.request_keyframe();
  EXPECT_EQ(p.keyframe_requests, 2);
  EXPECT_TRUE(p.armed.empty());
}

TEST(Hub, PublishReachesEverySinkInOrder) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a, b, c;
  hub.add(&a);
  hub.add(&b);
  hub.add(&c);
  hub.publish(frame(1, true));
  hub.publish(frame(2, false));
  for (const RecordingSink* s : {&a, &b, &c}) EXPECT_EQ(s->ids, (std::vector<uint32_t>{1, 2}));
}

TEST(Hub, RemovedSinkGetsNoMoreFrames) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a, b;
  hub.add(&a);
  hub.add(&b);
  hub.publish(frame(1, true));
  hub.remove(&a);
  hub.publish(frame(2, false));
  EXPECT_EQ(a.ids, std::vector<uint32_t>{1});
  EXPECT_EQ(b.ids, (std::vector<uint32_t>{1, 2}));
}

TEST(Hub, SinkRemovingItselfDuringPublishIsSafe) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a, b, c;
  hub.add(&a);
  hub.add(&b);
  hub.add(&c);
  b.on_frame = [&] { hub.remove(&b); };  // its socket failed

  hub.publish(frame(1, true));
  EXPECT_EQ(a.ids, std::vector<uint32_t>{1});
  EXPECT_EQ(b.ids, std::vector<uint32_t>{1});
  EXPECT_EQ(c.ids, std::vector<uint32_t>{1}) << "sinks after the one that left still get the frame";
  EXPECT_EQ(hub.sinks(), 2u);

  hub.publish(frame(2, false));
  EXPECT_EQ(b.ids, std::vector<uint32_t>{1});
  EXPECT_EQ(c.ids, (std::vector<uint32_t>{1, 2}));
}

TEST(Hub, SinkRemovingAnotherDuringPublishIsSafe) {
  FakePipeline p;
  Hub hub(p.controls());
  auto a = std::make_unique<RecordingSink>();
  auto b = std::make_unique<RecordingSink>();
  auto c = std::make_unique<RecordingSink>();
  hub.add(a.get());
  hub.add(b.get());
  hub.add(c.get());
  // a takes c down with it; c is destroyed right away, so the hub must not call it.
  a->on_frame = [&] {
    hub.remove(c.get());
    c.reset();
  };
  hub.publish(frame(1, true));
  EXPECT_EQ(a->ids, std::vector<uint32_t>{1});
  EXPECT_EQ(b->ids, std::vector<uint32_t>{1});
  EXPECT_EQ(hub.sinks(), 2u);
}

TEST(Hub, LastSinkLeavingDuringPublishDeactivates) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a;
  hub.add(&a);
  a.on_frame = [&] { hub.remove(&a); };
  hub.publish(frame(1, true));
  EXPECT_EQ(hub.sinks(), 0u);
  EXPECT_EQ(p.active_calls, (std::vector<bool>{true, false}));
}

TEST(Hub, SinkAddedDuringPublishStartsWithTheNextFrame) {
  FakePipeline p;
  Hub hub(p.controls());
  RecordingSink a, late;
  hub.add(&a);
  a.on_frame = [&] {
    if (hub.sinks() == 1) hub.add(&late);
  };
  hub.publish(frame(1, true));
  EXPECT_TRUE(late.ids.empty());
  hub.publish(frame(2, false));
  EXPECT_EQ(late.ids, std::vector<uint32_t>{2});
}

// A sink whose on_video throws (a bug in it, or bad_alloc) must not cost
// the sinks after it their frame: it is dropped from the hub and told so,
// and the others go on.
struct ThrowingSink : RecordingSink {
  std::vector<std::string> dropped;  // what on_dropped was told
  std::function<void()> when_dropped;
  void on_video(const EncodedFramePtr& frame) override {
    RecordingSink::on_video(frame);
    throw std::runtime_error("boom");
  }
  void on_dropped(std::string_view what) override {
    dropped.emplace_back(what);
    if (when_dropped) when_dropped();
  }
};

Logger capture_logger(std::ostringstream& out) {
  return std::make_shared<spdlog::logger>("hub-test", std::make_shared<spdlog::sinks::ostream_sink_st>(out));
}

TEST(Hub, ASinkThatThrowsIsDroppedAndTheOthersStillGetTheFrame) {
  FakePipeline p;
  std::ostringstream log;
  Hub hub(p.controls(), capture_logger(log));
  RecordingSink a, c;
  ThrowingSink b;
  hub.add(&a);
  hub.add(&b);
  hub.add(&c);
  EXPECT_NO_THROW(hub.publish(frame(1, true)));
  EXPECT_EQ(a.ids, std::vector<uint32_t>{1});
  EXPECT_EQ(c.ids, std::vector<uint32_t>{1}) << "the sink after the one that threw still gets the frame";
  EXPECT_EQ(hub.sinks(), 2u) << "the sink that threw is dropped";
  EXPECT_NO_THROW(hub.publish(frame(2, false)));
  EXPECT_EQ(b.ids, std::vector<uint32_t>{1}) << "a dropped sink gets no more frames";
  EXPECT_EQ(a.ids, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(c.ids, (std::vector<uint32_t>{1, 2}));
  hub.remove(&b);  // what its owner does later: nothing to undo
  EXPECT_EQ(hub.sinks(), 2u);
  EXPECT_EQ(b.dropped, std::vector<std::string>{"boom"}) << "told once, with what it threw";
  EXPECT_EQ(hub.sinks_dropped(), 1u);
  EXPECT_NE(log.str().find("boom"), std::string::npos) << "logged: " << log.str();
}

// The owner ends the sink when told (a viewer closes), which may remove it
// again or take down others; the frame still reaches those left, and a
// throw from on_dropped goes no further either.
TEST(Hub, ASinkToldItWasDroppedMayLeaveAgainOrThrow) {
  FakePipeline p;
  Hub hub(p.controls());
  ThrowingSink only;
  only.when_dropped = [&] {
    hub.remove(&only);
    throw std::runtime_error("again");
  };
  hub.add(&only);
  EXPECT_NO_THROW(hub.publish(frame(1, true)));
  EXPECT_EQ(hub.sinks(), 0u);
  EXPECT_EQ(p.active_calls, (std::vector<bool>{true, false})) << "the last sink gone: the pipeline stops";

  RecordingSink a, c;
  ThrowingSink b;
  b.when_dropped = [&] { hub.remove(&c); };
  hub.add(&a);
  hub.add(&b);
  hub.add(&c);
  EXPECT_NO_THROW(hub.publish(frame(2, true)));
  EXPECT_EQ(a.ids, std::vector<uint32_t>{2});
  EXPECT_TRUE(c.ids.empty()) << "removed before its turn";
  EXPECT_EQ(hub.sinks(), 1u);
}

TEST(Hub, WorksWithoutPipelineControls) {
  Hub hub(PipelineControls{});
  RecordingSink a;
  hub.add(&a);
  hub.request_keyframe();
  hub.publish(frame(1, true));
  hub.remove(&a);
  EXPECT_EQ(a.ids, std::vector<uint32_t>{1});
  EXPECT_EQ(hub.sinks(), 0u);
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

struct GateSink : VideoSink {
  bool is_ready = true;
  void on_video(const encode::EncodedFramePtr&) override {}
  bool ready() const override { return is_ready; }
};

TEST(HubPause, PausesOnlyWhileEverySinkIsCongested) {
  std::vector<bool> paused;
  Hub hub({.set_paused = [&paused](bool p) { paused.push_back(p); }});
  GateSink a, b;
  hub.add(&a);
  hub.add(&b);
  EXPECT_TRUE(paused.empty()) << "ready sinks: never paused";
  a.is_ready = false;
  hub.refresh_pause();
  EXPECT_TRUE(paused.empty()) << "one slow sink does not hold back the other";
  b.is_ready = false;
  hub.refresh_pause();
  ASSERT_EQ(paused, std::vector<bool>{true});
  hub.refresh_pause();
  EXPECT_EQ(paused.size(), 1u) << "reported on change only";
  b.is_ready = true;
  hub.refresh_pause();
  EXPECT_EQ(paused, (std::vector<bool>{true, false}));
  a.is_ready = b.is_ready = false;
  hub.refresh_pause();
  hub.remove(&a);
  hub.remove(&b);
  EXPECT_EQ(paused.back(), false) << "no sinks left: nothing to wait for";
}

struct RateSink : VideoSink {
  int kbps = 0;
  void on_video(const encode::EncodedFramePtr&) override {}
  int target_kbps() const override { return kbps; }
};

TEST(HubRate, FollowsTheSlowestSinkWithinTheLimits) {
  std::vector<int> set;
  Hub hub({.set_target_kbps = [&set](int rung, int kbps) {
    if (rung == 0) set.push_back(kbps);
  }});
  hub.set_bitrate_limits({2000, 30000});
  EXPECT_EQ(set, std::vector<int>{30000}) << "no sink: the ceiling";
  RateSink fast, slow, recorder;
  fast.kbps = 20000;
  hub.add(&fast);
  hub.add(&recorder);  // no opinion
  EXPECT_EQ(set.back(), 20000);
  slow.kbps = 6000;
  hub.add(&slow);
  EXPECT_EQ(set.back(), 6000);
  slow.kbps = 500;
  hub.refresh_rate();
  EXPECT_EQ(set.back(), 2000) << "the floor: below it the slow sink skips frames";
  const size_t calls = set.size();
  hub.refresh_rate();
  EXPECT_EQ(set.size(), calls) << "reported on change only";
  hub.remove(&slow);
  EXPECT_EQ(set.back(), 20000);
  EXPECT_EQ(hub.target_kbps(), 20000);
}

}  // namespace
}  // namespace voxl::stream

namespace voxl::stream {
namespace VOXL_TEST_FILE {

struct ChromaSink : VideoSink {
  bool full = false;
  void on_video(const encode::EncodedFramePtr&) override {}
  bool takes_full_chroma() const override { return full; }
};

// 4:4:4 only while every sink takes it, and withdrawn before the key frame
// a newcomer that cannot take it is asked for.
TEST(HubChroma, FullChromaOnlyWhileEverySinkTakesIt) {
  std::vector<std::string> calls;
  PipelineControls c;
  c.set_full_chroma = [&calls](bool on) { calls.push_back(on ? "444" : "420"); };
  c.request_keyframe = [&calls](int) { calls.push_back("key"); };
  Hub hub(c);
  ChromaSink a, b;
  a.full = true;
  hub.add(&a);
  EXPECT_TRUE(hub.full_chroma());
  EXPECT_EQ(calls, (std::vector<std::string>{"444", "key"}));
  calls.clear();
  hub.add(&b);  // a recorder or a browser without 4:4:4
  EXPECT_FALSE(hub.full_chroma());
  EXPECT_EQ(calls.front(), "420") << "withdrawn before the newcomer's key frame";
  calls.clear();
  b.full = true;
  hub.refresh_chroma();
  hub.refresh_chroma();
  EXPECT_EQ(calls, std::vector<std::string>{"444"}) << "said on change only";
  hub.remove(&a);
  hub.remove(&b);
  EXPECT_FALSE(hub.full_chroma()) << "nobody watches";
  RecordingSink plain;  // the default: 4:2:0 only
  EXPECT_FALSE(plain.takes_full_chroma());
}

}  // namespace
}  // namespace voxl::stream
