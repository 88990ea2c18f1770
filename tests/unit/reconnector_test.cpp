// The one reconnect policy: Backoff's waits, and Reconnector both as a
// blocking loop (run) and one step at a time (restart, next_wait, try_once,
// failed), with a reason repeated reported once.
#include "base/reconnector.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/backoff.h"

namespace voxl {
namespace VOXL_TEST_FILE {

using std::chrono::milliseconds;
using Duration = Reconnector::Duration;

TEST(Backoff, DoublesFromTheFirstWaitUpToTheLongestAndResets) {
  Backoff b(milliseconds(250), milliseconds(5000));
  std::vector<Duration> waits;
  for (int i = 0; i < 8; ++i) waits.push_back(b.next());
  EXPECT_EQ(waits, (std::vector<Duration>{milliseconds(250), milliseconds(500), milliseconds(1000),
                                          milliseconds(2000), milliseconds(4000), milliseconds(5000),
                                          milliseconds(5000), milliseconds(5000)}));
  b.reset();
  EXPECT_EQ(b.next(), milliseconds(250));
}

TEST(Reconnector, RunWaitsTheBackOffBeforeEachAttemptUntilOneSucceeds) {
  Reconnector r(milliseconds(250), milliseconds(1000));
  std::vector<Duration> waits;
  int attempts = 0;
  std::vector<std::string> reported;
  const auto got = r.run(
      [&]() -> std::optional<int> {
        if (++attempts < 5) return std::nullopt;
        return 42;
      },
      [&](Duration d) {
        waits.push_back(d);
        return true;
      },
      [&](const std::string& why) { reported.push_back(why); });
  EXPECT_EQ(got, 42);
  EXPECT_EQ(attempts, 5);
  EXPECT_EQ(waits, (std::vector<Duration>{milliseconds(250), milliseconds(500), milliseconds(1000),
                                          milliseconds(1000), milliseconds(1000)}));
  EXPECT_TRUE(reported.empty());  // "not yet" without a reason says nothing
}

TEST(Reconnector, RunReportsEachReasonOnceWhileItRepeats) {
  Reconnector r(milliseconds(1), milliseconds(8));
  const std::vector<std::string> reasons = {"no display", "no display", "no display", "refused", "no display"};
  size_t attempt = 0;
  std::vector<std::string> reported;
  const auto got = r.run(
      [&]() -> std::optional<std::string> {
        if (attempt < reasons.size()) throw std::runtime_error(reasons[attempt++]);
        return std::string("made");
      },
      [](Duration) { return true; }, [&](const std::string& why) { reported.push_back(why); });
  EXPECT_EQ(got, "made");
  EXPECT_EQ(reported, (std::vector<std::string>{"no display", "refused", "no display"}));
}

TEST(Reconnector, RunEndsWhenTheWaitSaysStop) {
  Reconnector r(milliseconds(1), milliseconds(8));
  int attempts = 0, waits = 0;
  const auto got = r.run(
      [&]() -> std::optional<int> {
        ++attempts;
        throw std::runtime_error("gone");
      },
      [&](Duration) { return ++waits < 3; }, [](const std::string&) {});
  EXPECT_FALSE(got);
  EXPECT_EQ(attempts, 2);
}

TEST(Reconnector, EachRunStartsFromTheFirstWaitAndForgetsTheLastReason) {
  Reconnector r(milliseconds(10), milliseconds(80));
  std::vector<std::string> reported;
  for (int round = 0; round < 2; ++round) {
    int attempts = 0;
    std::vector<Duration> waits;
    r.run(
        [&]() -> std::optional<int> {
          if (++attempts < 3) throw std::runtime_error("no display");
          return 1;
        },
        [&](Duration d) {
          waits.push_back(d);
          return true;
        },
        [&](const std::string& why) { reported.push_back(why); });
    EXPECT_EQ(waits, (std::vector<Duration>{milliseconds(10), milliseconds(20), milliseconds(40)}));
  }
  EXPECT_EQ(reported, (std::vector<std::string>{"no display", "no display"}));
}

TEST(Reconnector, StepsGiveTheSameWaitsAsRun) {
  Reconnector r(milliseconds(250), milliseconds(5000));
  r.restart();
  std::vector<Duration> waits;
  for (int i = 0; i < 7; ++i) waits.push_back(r.next_wait());
  EXPECT_EQ(waits, (std::vector<Duration>{milliseconds(250), milliseconds(500), milliseconds(1000),
                                          milliseconds(2000), milliseconds(4000), milliseconds(5000),
                                          milliseconds(5000)}));
  r.restart();
  EXPECT_EQ(r.next_wait(), milliseconds(250));
}

TEST(Reconnector, TryOnceReturnsTheValueOrNothing) {
  Reconnector r(milliseconds(250), milliseconds(5000));
  std::vector<std::string> reported;
  const auto report = [&](const std::string& why) { reported.push_back(why); };
  EXPECT_EQ(r.try_once([]() -> std::optional<int> { return 7; }, report), 7);
  EXPECT_FALSE(r.try_once([]() -> std::optional<int> { return std::nullopt; }, report));
  EXPECT_FALSE(r.try_once([]() -> std::optional<int> { throw std::runtime_error("no display"); }, report));
  EXPECT_EQ(reported, (std::vector<std::string>{"no display"}));
}

TEST(Reconnector, TryOnceReportsARepeatedReasonOnceUntilRestart) {
  Reconnector r(milliseconds(250), milliseconds(5000));
  std::vector<std::string> reported;
  const auto report = [&](const std::string& why) { reported.push_back(why); };
  const auto fail = [](const char* why) {
    return [why]() -> std::optional<int> { throw std::runtime_error(why); };
  };
  r.restart();
  r.try_once(fail("no display"), report);
  r.try_once(fail("no display"), report);
  r.try_once(fail("refused"), report);
  r.try_once(fail("refused"), report);
  EXPECT_EQ(reported, (std::vector<std::string>{"no display", "refused"}));
  // A success in between does not make the same reason new.
  r.try_once([]() -> std::optional<int> { return 1; }, report);
  r.try_once(fail("refused"), report);
  EXPECT_EQ(reported.size(), 2u);
  // A new outage reports it again.
  r.restart();
  r.try_once(fail("refused"), report);
  EXPECT_EQ(reported, (std::vector<std::string>{"no display", "refused", "refused"}));
}

TEST(Reconnector, FailingSaysAnAttemptFailedSinceTheLastRestart) {
  Reconnector r(milliseconds(250), milliseconds(5000));
  const auto quiet = [](const std::string&) {};
  EXPECT_FALSE(r.failing());
  r.try_once([]() -> std::optional<int> { return 1; }, quiet);
  EXPECT_FALSE(r.failing()) << "a success is no failure";
  r.try_once([]() -> std::optional<int> { return std::nullopt; }, quiet);
  EXPECT_TRUE(r.failing()) << "an empty attempt is one";
  r.restart();
  EXPECT_FALSE(r.failing());
  r.try_once([]() -> std::optional<int> { throw std::runtime_error("refused"); }, quiet);
  EXPECT_TRUE(r.failing()) << "a thrown attempt is one";
  r.restart();
  r.failed("EMFILE", quiet);
  EXPECT_TRUE(r.failing()) << "a failure told by the caller is one";
}

TEST(Reconnector, AFailureToldByTheCallerSharesTheRepeatRuleWithTryOnce) {
  Reconnector r(milliseconds(250), milliseconds(5000));
  std::vector<std::string> reported;
  const auto report = [&](const std::string& why) { reported.push_back(why); };
  r.failed("Too many open files", report);
  r.failed("Too many open files", report);
  r.try_once([]() -> std::optional<int> { throw std::runtime_error("Too many open files"); }, report);
  r.failed("No buffer space available", report);
  r.restart();
  r.failed("No buffer space available", report);
  EXPECT_EQ(reported, (std::vector<std::string>{"Too many open files", "No buffer space available",
                                                "No buffer space available"}));
}

TEST(Reconnector, AnAttemptMayGiveAPointerThatIsNullWhenItFailed) {
  Reconnector r(milliseconds(1), milliseconds(1));
  const auto quiet = [](const std::string&) {};
  EXPECT_EQ(r.try_once([]() -> std::unique_ptr<int> { return nullptr; }, quiet), nullptr);
  const auto got = r.try_once([] { return std::make_unique<int>(5); }, quiet);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(*got, 5);
  int waits = 0;
  const auto stopped = r.run([]() -> std::unique_ptr<int> { return nullptr; },
                             [&](Duration) { return ++waits < 3; }, quiet);
  EXPECT_EQ(stopped, nullptr);
  EXPECT_EQ(waits, 3);
}

}  // namespace
}  // namespace voxl
