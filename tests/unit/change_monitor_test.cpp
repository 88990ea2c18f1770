// ChangeMonitor on a real io_context with fake damage watchers: changes are
// numbered, and a watcher that lost the display is made again after the
// back-off, the new screen counting as one change and the seq going on.
#include "endpoints/change_monitor.h"

#include <boost/asio/post.hpp>

#include <gtest/gtest.h>

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <chrono>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;

// Reports what the test tells it to, on the loop, as a platform's watcher does.
struct FakeWatcher : capture::DamageWatcher {
  explicit FakeWatcher(asio::io_context& context) : io(context) {}
  void async_wait(std::function<void()> f) override { ready = std::move(f); }
  bool poll() override { return !rects.empty(); }
  void sync() override {}
  bool take(std::vector<Rect>& out) override {
    out.insert(out.end(), rects.begin(), rects.end());
    rects.clear();
    return true;
  }
  bool failed() const override { return dead; }

  void report() {
    asio::post(io, [f = std::move(ready)] {
      if (f) f();
    });
  }
  asio::io_context& io;
  std::function<void()> ready;
  std::vector<Rect> rects;
  bool dead = false;
};

struct Display {
  asio::io_context io;
  std::ostringstream log_text;
  Logger log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_text));
  std::vector<FakeWatcher*> made;  // owned by the monitor
  std::vector<const char*> refusals;  // what the next attempts throw, in order

  ChangeMonitor::WatcherFactory factory() {
    return [this]() -> std::unique_ptr<capture::DamageWatcher> {
      if (!refusals.empty()) {
        const char* why = refusals.front();
        refusals.erase(refusals.begin());
        throw std::runtime_error(why);
      }
      auto w = std::make_unique<FakeWatcher>(io);
      made.push_back(w.get());
      return w;
    };
  }

  // Runs the loop's handlers until `done` or `limit` has passed.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < end) {
      if (io.stopped()) io.restart();
      if (io.run_one_until(end) == 0 && io.stopped()) break;  // nothing left to run
    }
    return done();
  }
};

TEST(ChangeMonitor, NumbersTheReportedChanges) {
  Display d;
  ChangeMonitor m(d.io, d.factory(), d.log);
  EXPECT_EQ(m.current_seq(), 0u);
  d.made[0]->rects = {Rect{0, 0, 16, 16}};
  d.made[0]->report();
  d.io.poll();
  EXPECT_EQ(m.current_seq(), 1u);
  EXPECT_EQ(m.current_seq(), 1u);  // nothing new
}

TEST(ChangeMonitor, WatchesAgainAfterTheBackOffWhenTheDisplayComesBack) {
  Display d;
  ChangeMonitor m(d.io, d.factory(), d.log);
  d.made[0]->rects = {Rect{0, 0, 16, 16}};
  d.made[0]->report();
  d.io.poll();
  ASSERT_EQ(m.current_seq(), 1u);

  d.refusals = {"cannot open display :9"};
  const auto lost_at = std::chrono::steady_clock::now();
  d.made[0]->dead = true;
  d.made[0]->report();
  // The first attempt, after the first wait, is refused; the next, twice as
  // long after, makes a watcher.
  ASSERT_TRUE(d.run_until([&] { return d.made.size() == 2; }, std::chrono::seconds(5)));
  EXPECT_GE(std::chrono::steady_clock::now() - lost_at, 3 * ChangeMonitor::kFirstRetry);
  const std::string log = d.log_text.str();
  EXPECT_NE(log.find("the damage watcher lost the display"), std::string::npos);
  EXPECT_NE(log.find("the damage watcher still cannot watch: cannot open display :9"), std::string::npos);
  EXPECT_NE(log.find("the damage watcher is back"), std::string::npos);
  // The new server's screen is one change, and the seq goes on.
  EXPECT_EQ(m.current_seq(), 2u);
  d.made[1]->rects = {Rect{16, 16, 16, 16}};
  d.made[1]->report();
  d.io.poll();
  EXPECT_EQ(m.current_seq(), 3u);
}

}  // namespace
}  // namespace voxl::endpoints
