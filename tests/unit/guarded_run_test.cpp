// The loop's last resort: a handler that throws costs itself, not the loop;
// a burst of them stops it.
#include <gtest/gtest.h>

#include <boost/asio/post.hpp>

#include <stdexcept>

#include <spdlog/sinks/ostream_sink.h>
#include <sstream>

#include "app/guarded_run.h"

namespace voxl::app {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;

struct CapturedLog {
  std::ostringstream out;
  Logger log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
};

TEST(FaultBudget, MoreThanMaxWithinTheWindowIsTooMany) {
  FaultBudget budget(3, 1s);
  const auto t0 = FaultBudget::Clock::time_point() + 100s;
  EXPECT_TRUE(budget.take(t0));
  EXPECT_TRUE(budget.take(t0 + 100ms));
  EXPECT_TRUE(budget.take(t0 + 200ms));
  EXPECT_FALSE(budget.take(t0 + 300ms));
  // Spread out, any number is fine.
  FaultBudget slow(3, 1s);
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(slow.take(t0 + i * 400ms)) << i;
}

TEST(GuardedRun, AThrowingHandlerDoesNotStopTheOthers) {
  CapturedLog c;
  boost::asio::io_context io;
  int ran = 0;
  boost::asio::post(io, [] { throw std::runtime_error("boom"); });
  boost::asio::post(io, [&] { ++ran; });
  boost::asio::post(io, [] { throw 42; });
  boost::asio::post(io, [&] { ++ran; });
  EXPECT_TRUE(run_guarded(io, c.log));
  EXPECT_EQ(ran, 2);
  EXPECT_NE(c.out.str().find("boom"), std::string::npos) << c.out.str();
  EXPECT_NE(c.out.str().find("unknown exception"), std::string::npos) << c.out.str();
}

TEST(GuardedRun, ABurstOfFaultsGivesUp) {
  CapturedLog c;
  boost::asio::io_context io;
  int ran = 0;
  for (int i = 0; i < 50; ++i) boost::asio::post(io, [] { throw std::runtime_error("again"); });
  boost::asio::post(io, [&] { ++ran; });
  EXPECT_FALSE(run_guarded(io, c.log, 10));
  EXPECT_EQ(ran, 0);
  EXPECT_NE(c.out.str().find("stopping"), std::string::npos) << c.out.str();
}

}  // namespace
}  // namespace voxl::app
