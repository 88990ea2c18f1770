// The encoding ladder end to end (--max-encodes, default 2): a viewer on
// loopback and one behind a 2 Mbit/s link (the bench's link emulator)
// watch a screen of fresh noise, which needs far more than 2 Mbit/s. The
// slow viewer gets a rung of its own, so the LAN viewer keeps the bitrate
// it had alone while the slow one keeps receiving frames without a backlog;
// when the slow link gets fast, that viewer moves up to the LAN viewer's
// rung. Every bound is far from the figures an unloaded machine shows
// (printed for the record) and far from what one shared encode gives (the
// LAN viewer falls to the slow link's rate, a tenth of what it had).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "noise_painter.h"
#include "proxy_link.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using SteadyClock = std::chrono::steady_clock;

constexpr uint32_t kBackground = 0x203040;
constexpr double kSlowMbps = 2.0;
constexpr auto kSlowRtt = std::chrono::milliseconds(40);
// The LAN viewer's bitrate beside the slow one, as a share of its bitrate
// alone, at least. Unloaded it is about 1 (100-108% in three runs); a
// loaded machine codes fewer frames of noise while it also codes the second
// rung and decodes the slow viewer's stream in this process (46% once, at
// 60 fps under the full sanitized suite). One shared encode gives about a
// tenth: the slow link's rate.
constexpr double kLanShare = 0.35;
constexpr int kMinSlowFramesPerWindow = 3;  // per 2 s; the link carries dozens
constexpr double kMaxSlowMedianAgeMs = 1000;  // a backlog ages frames towards the 1 s queue

uint64_t wall_us() {
  return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One viewer read on a thread of its own (it acks as it reads, like a
// browser), keeping every frame's arrival, size and age and the newest
// stats message.
class Watcher {
 public:
  struct Frame {
    SteadyClock::time_point at;
    size_t bytes;
    double age_ms;
  };
  struct Figures {
    double kbps = 0;
    int frames = 0;
    double median_age_ms = 0;
  };

  explicit Watcher(const ClientOptions& options) : client_(options) {
    if (!client_.wait_until([&] { return client_.picture().has_value(); }))
      throw std::runtime_error("no first picture: " + client_.status());
    client_.send_text(R"({"type":"stats","enabled":true})");
    thread_ = std::thread([this] { run(); });
  }
  ~Watcher() {
    stop_ = true;
    thread_.join();
  }

  Figures between(SteadyClock::time_point from, SteadyClock::time_point to) const {
    std::lock_guard lock(mutex_);
    Figures f;
    std::vector<double> ages;
    double bytes = 0;
    for (const Frame& fr : frames_)
      if (fr.at >= from && fr.at < to) {
        ++f.frames;
        bytes += double(fr.bytes);
        ages.push_back(fr.age_ms);
      }
    f.kbps = bytes * 8 / 1000 / std::chrono::duration<double>(to - from).count();
    f.median_age_ms = median(ages);
    return f;
  }
  std::optional<nlohmann::json> stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
  }
  // The rung the server says this viewer takes; -1 before any stats.
  int rung() const {
    const auto s = stats();
    return s && s->contains("viewer") ? (*s)["viewer"].value("rung", -1) : -1;
  }
  std::string status() const {
    std::lock_guard lock(mutex_);
    return status_;
  }
  // Waits until `done(stats)` holds for a stats message (true) or `limit`
  // passes; woken by every stats message.
  bool wait_for_stats(const std::function<bool(const nlohmann::json&)>& done, std::chrono::seconds limit) const {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return closed_ || (stats_ && done(*stats_)); }) && !closed_;
  }
  int decode_errors() const { return decode_errors_; }
  bool closed() const { return closed_; }

 private:
  void run() {
    while (!stop_) {
      const size_t frames = client_.frames().size(), texts = client_.texts().size();
      const uint64_t bytes = client_.video_bytes();
      const auto got = client_.read_one(100ms);
      std::lock_guard lock(mutex_);
      if (got == StreamClient::Got::kClosed) {
        closed_ = true;
        status_ = client_.status();
        changed_.notify_all();
        return;
      }
      if (client_.frames().size() > frames)
        frames_.push_back({SteadyClock::now(), size_t(client_.video_bytes() - bytes),
                           (double(wall_us()) - double(client_.frames().back().capture_us)) / 1000.0});
      if (client_.texts().size() > texts && client_.texts().back().value("type", "") == "stats") {
        stats_ = client_.texts().back();
        changed_.notify_all();
      }
      decode_errors_ = client_.decode_errors();
      status_ = client_.status();
    }
  }

  StreamClient client_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<Frame> frames_;
  std::optional<nlohmann::json> stats_;
  std::string status_;
  std::atomic<int> decode_errors_{0};
  std::atomic<bool> closed_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// The rung a stats message says its viewer takes.
int rung_in(const nlohmann::json& s) { return s.contains("viewer") ? s["viewer"].value("rung", -1) : -1; }

std::string describe(const Watcher& w) {
  const auto s = w.stats();
  if (!s) return "no stats";
  std::string out = "viewer " + (s->contains("viewer") ? (*s)["viewer"].dump() : "?");
  if (s->contains("ladder")) out += "; ladder " + (*s)["ladder"].dump();
  return out;
}

class LadderTest : public VoxlFixture {
 protected:
  void SetUp() override { start_display(kBackground); }
};

TEST_F(LadderTest, ALanViewerKeepsItsBitrateBesideASlowOneAndAnImprovedLinkMovesUp) {
  NoisePainter noise(display_->name(), Rect::from_size(kScreen), 16ms);
  // A floor under the slow link, so its rung can fit it; 30 fps, so two
  // sanitized encodes of noise stay far within the frame interval on a
  // loaded machine (the ladder would otherwise shrink, as it should).
  start_voxl({"--min-kbps=300", "--framerate=30", "--log-level=debug"});

  Watcher lan(client_options());
  // Alone: what the LAN viewer gets once its estimate has grown.
  std::this_thread::sleep_for(3s);  // warm-up before a measured window, not a wait for a condition
  auto t0 = SteadyClock::now();
  std::this_thread::sleep_for(6s);
  const Watcher::Figures alone = lan.between(t0, SteadyClock::now());
  std::printf("LAN viewer alone: %.0f kbit/s, %d frames in 6 s, median age %.0f ms\n", alone.kbps, alone.frames,
              alone.median_age_ms);
  // What the LAN viewer gets is what this machine paints and codes: noise
  // at 30 fps near 10 Mbit/s on a quiet machine, 11-15 fps and 3-6 Mbit/s
  // on a busy one. Below four times the slow link the two viewers' needs
  // are too close for what follows to show anything (a busy machine does
  // not get the slow viewer back onto the LAN rung within the test's
  // minute): the test says so and skips rather than fail on the machine.
  if (alone.kbps <= 4 * kSlowMbps * 1000)
    GTEST_SKIP() << "this machine painted and coded noise at only " << alone.kbps << " kbit/s (" << alone.frames
                 << " frames in 6 s); the test needs more than " << 4 * kSlowMbps * 1000;

  Link link(voxl_->port(), bench::LinkSettings{kSlowMbps, kSlowRtt});
  ClientOptions options = client_options();
  options.port = link.port();
  options.host = "127.0.0.1:" + std::to_string(voxl_->port());
  Watcher slow(options);
  ASSERT_TRUE(slow.wait_for_stats([](const nlohmann::json& s) { return rung_in(s) == 1; }, 40s)) << "the slow viewer never got a rung of its own; "
                                                                 << describe(slow);
  EXPECT_EQ(lan.rung(), 0) << describe(lan);
  std::this_thread::sleep_for(2s);  // its queue drains after the move: not measured
  t0 = SteadyClock::now();
  std::this_thread::sleep_for(8s);
  const auto t1 = SteadyClock::now();
  const Watcher::Figures together = lan.between(t0, t1);
  std::printf("LAN viewer beside the slow one: %.0f kbit/s (%.0f%% of alone), %d frames in 8 s\n", together.kbps,
              100 * together.kbps / alone.kbps, together.frames);
  EXPECT_GE(together.kbps, kLanShare * alone.kbps) << describe(lan);
  // Its encoder's ceiling stayed its own link's, far above the slow one's.
  ASSERT_TRUE(lan.stats()) << describe(lan);
  EXPECT_GE((*lan.stats())["viewer"].value("encoder_kbps", 0), 4 * kSlowMbps * 1000) << describe(lan);
  for (int w = 0; w < 4; ++w) {
    const auto f = slow.between(t0 + w * 2s, t0 + (w + 1) * 2s);
    std::printf("slow viewer, window %d: %d frames, %.0f kbit/s, median age %.0f ms\n", w, f.frames, f.kbps,
                f.median_age_ms);
    EXPECT_GE(f.frames, kMinSlowFramesPerWindow) << "window " << w << "; " << describe(slow);
    EXPECT_LT(f.median_age_ms, kMaxSlowMedianAgeMs) << "window " << w << "; " << describe(slow);
  }
  // The server says so too: two rungs, the lower one near the slow link.
  const auto figures = slow.stats();
  ASSERT_TRUE(figures && figures->contains("ladder")) << describe(slow);
  const auto& ladder = (*figures)["ladder"];
  EXPECT_EQ(ladder.value("max_encodes", 0), 2);
  ASSERT_EQ(ladder["rungs"].size(), 2u) << ladder.dump();
  EXPECT_LE(ladder["rungs"][1].value("target_kbps", 0), 2 * kSlowMbps * 1000) << ladder.dump();
  EXPECT_GE(ladder["rungs"][0].value("target_kbps", 0), 4 * kSlowMbps * 1000) << ladder.dump();

  // The slow link gets fast: its viewer joins the LAN viewer's rung.
  link.set_mbps(0);
  ASSERT_TRUE(slow.wait_for_stats([](const nlohmann::json& s) { return rung_in(s) == 0; }, 60s)) << "it stayed on its rung; " << describe(slow);
  ASSERT_TRUE(slow.wait_for_stats([](const nlohmann::json& s) {
    return s.contains("ladder") && s["ladder"].value("rungs", nlohmann::json::array()).size() == 1;
  }, 30s))
      << "the rung no one takes is still coded; " << describe(slow);
  EXPECT_FALSE(lan.closed()) << lan.status();
  EXPECT_FALSE(slow.closed()) << slow.status();
  EXPECT_EQ(lan.decode_errors(), 0) << lan.status();
  EXPECT_EQ(slow.decode_errors(), 0) << "the switches between rungs are clean; " << slow.status();
}

TEST_F(LadderTest, OneEncodeFollowsTheSlowestViewerWithMaxEncodesOne) {
  NoisePainter noise(display_->name(), Rect::from_size(kScreen), 16ms);
  start_voxl({"--min-kbps=300", "--framerate=30", "--max-encodes=1"});
  Watcher lan(client_options());
  Link link(voxl_->port(), bench::LinkSettings{kSlowMbps, kSlowRtt});
  ClientOptions options = client_options();
  options.port = link.port();
  options.host = "127.0.0.1:" + std::to_string(voxl_->port());
  Watcher slow(options);
  // The one encode comes down to the slow link, for both.
  ASSERT_TRUE(lan.wait_for_stats(
      [](const nlohmann::json& s) {
        const int kbps = s.contains("viewer") ? s["viewer"].value("encoder_kbps", 0) : 0;
        return kbps > 0 && kbps <= 2 * kSlowMbps * 1000;
      },
      60s))
      << describe(lan);
  ASSERT_TRUE(slow.wait_for_stats([](const nlohmann::json& s) { return rung_in(s) >= 0; }, 30s)) << describe(slow);
  EXPECT_EQ(lan.rung(), 0);
  EXPECT_EQ(slow.rung(), 0);
  EXPECT_EQ((*lan.stats())["ladder"].value("max_encodes", 0), 1);
}

}  // namespace
}  // namespace voxl::testing
