// RebuiltPart on a real io_context with fake parts: a part that says it lost
// the desktop is dropped and made again after the back-off, each reason
// for failing is logged, and nothing is tried once the RebuiltPart is gone.
#include "input/rebuilt_part.h"

#include <gtest/gtest.h>

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <chrono>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace voxl::input {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

struct FakePart {
  explicit FakePart(int n, int* destroyed) : id(n), destroyed_count(destroyed) {}
  ~FakePart() { ++*destroyed_count; }
  void set_lost_handler(std::function<void()> f) { lose = std::move(f); }
  int id;
  int* destroyed_count;
  std::function<void()> lose;  // what the platform's part calls when its display goes
};

struct Desktop {
  asio::io_context io;
  std::ostringstream log_text;
  Logger log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_text));
  int destroyed = 0;
  int attempts = 0;
  std::vector<const char*> refusals;  // what the next attempts throw, in order
  std::vector<int> set_up;            // the parts on_made saw, by id

  std::unique_ptr<FakePart> make(int id) { return std::make_unique<FakePart>(id, &destroyed); }

  std::unique_ptr<RebuiltPart<FakePart>> rebuilt() {
    return std::make_unique<RebuiltPart<FakePart>>(
        io, make(1),
        [this]() -> std::unique_ptr<FakePart> {
          ++attempts;
          if (!refusals.empty()) {
            const char* why = refusals.front();
            refusals.erase(refusals.begin());
            throw std::runtime_error(why);
          }
          return make(attempts + 1);
        },
        "parts", log, [this](FakePart& p) { set_up.push_back(p.id); });
  }

  // Runs the loop's handlers until `done` or `limit` has passed.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
    const auto end = Clock::now() + limit;
    while (!done() && Clock::now() < end) {
      if (io.stopped()) io.restart();
      if (io.run_one_until(end) == 0 && io.stopped()) break;  // nothing left to run
    }
    return done();
  }
};

TEST(RebuiltPart, MakesThePartAgainAfterTheFirstWait) {
  Desktop d;
  auto part = d.rebuilt();
  ASSERT_NE(part->get(), nullptr);
  EXPECT_EQ(d.set_up, (std::vector<int>{1}));
  const auto lost_at = Clock::now();
  part->get()->lose();
  ASSERT_TRUE(d.run_until([&] { return d.set_up.size() == 2; }, std::chrono::seconds(5)));
  EXPECT_GE(Clock::now() - lost_at, RebuiltPart<FakePart>::kFirstRetry);
  EXPECT_EQ(d.attempts, 1);
  EXPECT_EQ(d.destroyed, 1);  // the dead one
  ASSERT_NE(part->get(), nullptr);
  EXPECT_EQ(part->get()->id, 2);
  EXPECT_NE(d.log_text.str().find("parts: lost the desktop; making them again once it is back"), std::string::npos);
  EXPECT_NE(d.log_text.str().find("parts: back"), std::string::npos);
}

TEST(RebuiltPart, WaitsLongerAfterEachFailureAndLogsTheReason) {
  Desktop d;
  auto part = d.rebuilt();
  d.refusals = {"cannot open display :9"};
  const auto lost_at = Clock::now();
  part->get()->lose();
  ASSERT_TRUE(d.run_until([&] { return d.attempts == 1; }, std::chrono::seconds(5)));
  EXPECT_EQ(part->get(), nullptr);  // away meanwhile
  ASSERT_TRUE(d.run_until([&] { return d.set_up.size() == 2; }, std::chrono::seconds(5)));
  // The first wait, then twice as long.
  EXPECT_GE(Clock::now() - lost_at, 3 * RebuiltPart<FakePart>::kFirstRetry);
  EXPECT_EQ(d.attempts, 2);
  EXPECT_NE(d.log_text.str().find("parts: still cannot reach the desktop: cannot open display :9"),
            std::string::npos);
  // It is the new one that reports the next loss.
  part->get()->lose();
  ASSERT_TRUE(d.run_until([&] { return d.set_up.size() == 3; }, std::chrono::seconds(5)));
}

TEST(RebuiltPart, NothingIsTriedOnceItIsGone) {
  Desktop d;
  auto part = d.rebuilt();
  part->get()->lose();
  ASSERT_TRUE(d.run_until([&] { return d.destroyed == 1; }, std::chrono::seconds(5)));
  part.reset();  // with its retry pending
  if (d.io.stopped()) d.io.restart();
  d.io.run();  // returns once the cancelled retry has run
  EXPECT_EQ(d.attempts, 0);
}

}  // namespace
}  // namespace voxl::input
