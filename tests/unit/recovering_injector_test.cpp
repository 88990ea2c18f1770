// RecoveringInjector against fake injectors and a fake clock: a failed
// injector is replaced at the next call, the call that found it dead goes to
// the new one, attempts back off while the desktop stays away, and the
// desktop size is the last one known meanwhile.
#include "input/recovering_injector.h"

#include <gtest/gtest.h>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>
#include <stdexcept>
#include <vector>

#include "fake_input_injector.h"

namespace voxl::input {
namespace VOXL_TEST_FILE {

using FakeInjector = voxl::testing::FakeInputInjector;
using Clock = RecoveringInjector::Clock;

// Breaks when told to, the way an X connection does: the call that writes
// to a dead server does nothing and leaves the injector failed.
struct DyingInjector : FakeInjector {
  bool die_on_next_call = false;
  void move(int x, int y) override {
    if (die_on_next_call || broken) {
      broken = true;
      return;
    }
    FakeInjector::move(x, y);
  }
};

struct Desktop {
  std::vector<FakeInjector*> made;  // owned by the RecoveringInjector
  int refusals = 0;                 // the next attempts that throw
  int attempts = 0;
  Clock::time_point now{std::chrono::seconds(100)};
  std::ostringstream log_text;
  Logger log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_text));

  RecoveringInjector recovering(std::unique_ptr<InputInjector> first) {
    return RecoveringInjector(
        std::move(first),
        [this]() -> std::unique_ptr<InputInjector> {
          ++attempts;
          if (refusals > 0) {
            --refusals;
            throw std::runtime_error("cannot open display :9");
          }
          auto fresh = std::make_unique<DyingInjector>();
          made.push_back(fresh.get());
          return fresh;
        },
        log, [this] { return now; });
  }
};

TEST(RecoveringInjector, PassesCallsThroughWhileTheInjectorWorks) {
  Desktop d;
  auto first = std::make_unique<DyingInjector>();
  auto* inj = first.get();
  RecoveringInjector r = d.recovering(std::move(first));
  r.move(3, 4);
  EXPECT_EQ(r.key(0x61, true), InputStatus::kOk);
  EXPECT_EQ(inj->log, (std::vector<std::string>{"move 3 4", "key 0x61 down"}));
  EXPECT_EQ(d.attempts, 0);
  EXPECT_FALSE(r.failed());
}

TEST(RecoveringInjector, TheCallThatFindsTheDesktopGoneGoesToTheNewOne) {
  Desktop d;
  auto first = std::make_unique<DyingInjector>();
  first->die_on_next_call = true;
  RecoveringInjector r = d.recovering(std::move(first));
  r.move(10, 20);
  ASSERT_EQ(d.made.size(), 1u);
  EXPECT_EQ(d.made[0]->log, (std::vector<std::string>{"move 10 20"}));
  r.button(1, true);
  EXPECT_EQ(d.made[0]->log, (std::vector<std::string>{"move 10 20", "button 1 down"}));
  EXPECT_EQ(d.attempts, 1);
}

TEST(RecoveringInjector, AFailedInjectorFoundBeforeTheCallIsReplacedAtOnce) {
  Desktop d;
  auto first = std::make_unique<DyingInjector>();
  first->broken = true;
  RecoveringInjector r = d.recovering(std::move(first));
  EXPECT_EQ(r.type_text("hi"), InputStatus::kOk);
  ASSERT_EQ(d.made.size(), 1u);
  EXPECT_EQ(d.made[0]->log, (std::vector<std::string>{"text hi"}));
}

TEST(RecoveringInjector, BacksOffWhileTheDesktopStaysAway) {
  Desktop d;
  auto first = std::make_unique<DyingInjector>();
  first->broken = true;
  RecoveringInjector r = d.recovering(std::move(first));
  d.refusals = 100;
  EXPECT_EQ(r.key(0x61, true), InputStatus::kFailed);
  EXPECT_EQ(d.attempts, 1);
  EXPECT_TRUE(r.failed());
  // Within the first retry interval nothing is tried again.
  d.now += RecoveringInjector::kFirstRetry / 2;
  EXPECT_EQ(r.key(0x61, true), InputStatus::kFailed);
  EXPECT_EQ(d.attempts, 1);
  // Then the waits double, up to the longest.
  d.now += RecoveringInjector::kFirstRetry;
  r.move(1, 1);
  EXPECT_EQ(d.attempts, 2);
  d.now += RecoveringInjector::kFirstRetry * 3 / 2;  // less than the doubled wait
  r.move(1, 1);
  EXPECT_EQ(d.attempts, 2);
  for (int i = 0; i < 20; ++i) {
    d.now += RecoveringInjector::kLongestRetry;
    r.move(1, 1);
  }
  EXPECT_EQ(d.attempts, 22);
  // The desktop is back: the next call after the wait reaches it.
  d.refusals = 0;
  d.now += RecoveringInjector::kLongestRetry;
  EXPECT_EQ(r.key(0x62, true), InputStatus::kOk);
  ASSERT_EQ(d.made.size(), 1u);
  EXPECT_EQ(d.made[0]->log, (std::vector<std::string>{"key 0x62 down"}));
  EXPECT_FALSE(r.failed());
}

TEST(RecoveringInjector, LogsTheLossOnceAndEachReasonOnceWhileItRepeats) {
  Desktop d;
  auto first = std::make_unique<DyingInjector>();
  first->broken = true;
  RecoveringInjector r = d.recovering(std::move(first));
  d.refusals = 100;
  for (int i = 0; i < 10; ++i) {
    r.move(1, 1);
    d.now += RecoveringInjector::kLongestRetry;
  }
  EXPECT_EQ(d.attempts, 10);
  d.refusals = 0;
  r.move(1, 1);
  const std::string log = d.log_text.str();
  const auto count = [&](const std::string& line) {
    size_t n = 0;
    for (size_t at = log.find(line); at != std::string::npos; at = log.find(line, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("input lost: the desktop's connection failed; making a new one"), 1u);
  EXPECT_EQ(count("input: still cannot reach the desktop: cannot open display :9"), 1u);
  EXPECT_EQ(count("input is back"), 1u);
}

TEST(RecoveringInjector, KeepsTheLastDesktopSizeWhileThereIsNone) {
  Desktop d;
  auto first = std::make_unique<DyingInjector>();
  first->broken = true;
  RecoveringInjector r = d.recovering(std::move(first));
  d.refusals = 1;
  EXPECT_FALSE(r.caps_lock());  // drops the failed injector, and none can be made
  ASSERT_TRUE(r.failed());
  EXPECT_EQ(r.desktop_size(), (Size{640, 480}));
}

}  // namespace
}  // namespace voxl::input
