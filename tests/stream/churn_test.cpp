// Churn and stall against the real binary: a thousand viewers that come
// and go (cleanly, by dropping the connection, or in the middle of the
// handshake) and two thousand screenshots leave voxl's descriptors and
// memory where they were; a viewer that stops reading while the screen
// animates costs bounded memory and does not slow the other one.
//
// The figures are printed so that they can be quoted. The build under test
// has AddressSanitizer, which keeps freed memory in a quarantine (256 MiB by
// default) before reusing it: voxl runs with quarantine_size_mb=16 so that
// RSS tracks what voxl holds, not what ASan holds back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "animator.h"
#include "endpoint_fixture.h"
#include "proc_stats.h"
#include "raw_connection.h"
#include "viewer_checks.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kCycles = 1000;
constexpr int kScreenshots = 2000;
constexpr Rect kAnimated{40, 40, 560, 400};
// ASan's quarantine (16 MiB), its allocator's per-thread caches and the
// arenas glibc keeps after a peak: what RSS may grow by without a leak.
// 1,000 leaked viewers or 2,000 leaked screenshots (a 640x480 frame each)
// would be far more.
constexpr long kChurnRssGrowthKib = 48 * 1024;
// A stalled viewer may hold its frame queue (16 MiB at most) and its text
// queue; with the quarantine and the encoder's buffers, 64 MiB of growth.
constexpr long kStallRssGrowthKib = 64 * 1024;
constexpr long kFdSlack = 4;  // descriptors still being closed

std::vector<std::string> asan_env() {
  const char* given = std::getenv("ASAN_OPTIONS");
  std::string o = given ? given : "";
  if (!o.empty()) o += ":";
  return {"ASAN_OPTIONS=" + o + "quarantine_size_mb=16:thread_local_quarantine_size_kb=256"};
}

class ChurnTest : public EndpointFixture {
 protected:
  void start_churn(const std::vector<std::string>& args = {}) {
    start_display(kBackground);
    start_voxl(args, asan_env());
  }

  // voxl's descriptor count once it stops changing (closing is
  // asynchronous); the last reading after `limit` otherwise.
  long settled_fds(std::chrono::milliseconds limit = 30s) {
    const auto end = Clock::now() + limit;
    long last = open_fds_of(voxl_->pid());
    int same = 0;
    while (Clock::now() < end && same < 4) {
      std::this_thread::sleep_for(250ms);  // sampling, not a wait for an event
      const long now = open_fds_of(voxl_->pid());
      same = now == last ? same + 1 : 0;
      last = now;
    }
    return last;
  }

  // Viewer `i` coming and going: cleanly (i % 5 is 0 or 1), by dropping the
  // connection with a FIN (2) or a RST (3), or in the middle of the
  // handshake (4).
  void cycle(int i) {
    const int how = i % 5;
    const std::string host = "127.0.0.1:" + std::to_string(voxl_->port());
    const std::string upgrade = websocket_upgrade_request(host);
    RawConnection c(voxl_->port(), 30s);
    if (how == 4) {  // mid-handshake: half the request, then gone
      c.send(upgrade.substr(0, upgrade.size() / 2));
      c.close((i / 5) % 2 != 0);
      return;
    }
    c.send(upgrade);
    ASSERT_EQ(c.read_status(30s).value_or(-1), 101);
    c.consume(c.received().find("\r\n\r\n") + 4);
    // The hello: the session is fully set up.
    ASSERT_TRUE(c.read_until(
        [](const std::string& r) {
          size_t at = 0;
          return next_server_frame(r, at).has_value();
        },
        30s));
    if (how <= 1) {  // a clean close: close frame, then wait for voxl's
      c.send(websocket_frame(8, std::string("\x03\xe8", 2)));
      c.read_until_closed(30s);
    } else {  // dropped: FIN or RST
      c.close(how == 3);
    }
  }
};

TEST_F(ChurnTest, ViewersAndScreenshotsComingAndGoingLeaveFdsAndRssFlat) {
  start_churn();
  const auto screenshots = [&](int n) {
    // Two clients at a time.
    std::vector<std::thread> t;
    for (int k = 0; k < 2; ++k)
      t.emplace_back([&, k] {
        for (int i = k; i < n; i += 2) {
          const HttpAnswer a = http_request(voxl_->port(), {"GET", "/screenshot", {}}, 60s);
          if (a.status != 200) ADD_FAILURE() << "screenshot " << i << ": " << a.status << " " << a.body;
        }
      });
    for (auto& th : t) th.join();
  };
  // Warm-up: the first viewers and screenshots size pools and caches.
  for (int i = 0; i < 50; ++i) ASSERT_NO_FATAL_FAILURE(cycle(i));
  screenshots(50);
  const long fds_before = settled_fds();
  const long rss_before = voxl_->rss_kib();
  ASSERT_GT(fds_before, 0);
  ASSERT_GT(rss_before, 0);

  const auto t0 = Clock::now();
  for (int i = 0; i < kCycles; ++i) ASSERT_NO_FATAL_FAILURE(cycle(i)) << "cycle " << i;
  const double cycles_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const long fds_after_cycles = settled_fds();
  const long rss_after_cycles = voxl_->rss_kib();
  const auto t1 = Clock::now();
  screenshots(kScreenshots);
  const double shots_s = std::chrono::duration<double>(Clock::now() - t1).count();
  const long fds_after = settled_fds();
  const long rss_after = voxl_->rss_kib();

  std::cout << "churn: baseline " << fds_before << " fds, " << rss_before << " KiB RSS\n"
            << "churn: after " << kCycles << " WebSocket cycles (" << cycles_s << " s): " << fds_after_cycles
            << " fds, " << rss_after_cycles << " KiB RSS\n"
            << "churn: after " << kScreenshots << " screenshots (" << shots_s << " s): " << fds_after << " fds, "
            << rss_after << " KiB RSS (growth " << rss_after - rss_before << " KiB, bound " << kChurnRssGrowthKib
            << ")" << std::endl;
  EXPECT_LE(fds_after_cycles, fds_before + kFdSlack);
  EXPECT_LE(fds_after, fds_before + kFdSlack);
  EXPECT_LT(rss_after - rss_before, kChurnRssGrowthKib);
  EXPECT_TRUE(still_serving(*voxl_));
  StreamClient viewer(client_options());
  EXPECT_TRUE(viewer.wait_until([&] { return viewer.picture().has_value(); }, 60s)) << viewer.status();
}

TEST_F(ChurnTest, AStalledViewerKeepsRssBoundedAndTheOtherAtFullRate) {
  // Debug logging says when voxl gave up on the stalled viewer's backlog;
  // a fixed high bitrate keeps the frames large whatever the healthy
  // viewer's link estimate says.
  start_churn({"--log-level=debug", "--min-kbps=20000", "--max-kbps=20000"});
  ClientOptions stalled_options = client_options();
  stalled_options.receive_buffer = 4096;
  StreamClient stalled(stalled_options);
  ASSERT_TRUE(stalled.wait_until([&] { return !stalled.texts().empty(); })) << stalled.status();
  ASSERT_TRUE(voxl_->wait_for_log("viewer 1 connected", 30s)) << voxl_->log();
  // From here on the stalled viewer is never read again; its socket stays open.

  StreamClient healthy(client_options());
  ASSERT_TRUE(healthy.wait_until([&] { return healthy.picture().has_value(); }, 60s)) << healthy.status();
  Animator animator(display_->name(), kAnimated, 60);

  // 60 s in windows of 5 s. The first one is the warm-up whose end is the
  // RSS baseline. At least 20 frames a window: a starved stream, not a
  // slow machine, falls below that.
  constexpr int kWindows = 13;
  long rss_baseline = -1, rss_max = -1;
  size_t min_frames = SIZE_MAX, total = 0;
  for (int w = 0; w < kWindows; ++w) {
    const size_t n = frames_within(healthy, 5s);
    const long rss = voxl_->rss_kib();
    std::cout << "stall: window " << w << ": healthy viewer " << n << " frames in 5 s, voxl " << rss << " KiB RSS, "
              << open_fds_of(voxl_->pid()) << " fds" << std::endl;
    if (w == 0) {
      rss_baseline = rss;
      continue;
    }
    rss_max = std::max(rss_max, rss);
    min_frames = std::min(min_frames, n);
    total += n;
    EXPECT_GE(n, 20u) << "window " << w << "; " << healthy.status();
  }
  std::cout << "stall: animated " << animator.changes() << " changes; healthy viewer " << total << " frames in "
            << (kWindows - 1) * 5 << " s (fewest in a window " << min_frames << "); RSS baseline " << rss_baseline
            << " KiB, max " << rss_max << " KiB (growth " << rss_max - rss_baseline << " KiB, bound "
            << kStallRssGrowthKib << ")" << std::endl;
  EXPECT_LT(rss_max - rss_baseline, kStallRssGrowthKib);
  EXPECT_FALSE(healthy.closed()) << healthy.status();
  EXPECT_EQ(healthy.decode_errors(), 0) << healthy.status();
  // voxl dropped the stalled viewer's backlog (and resynced it with a key
  // frame) or closed it.
  const std::string log = voxl_->log();
  EXPECT_TRUE(log.find("viewer 1 fell behind") != std::string::npos ||
              log.find("viewer 1 is not reading") != std::string::npos || log.find("viewer 1 left") != std::string::npos)
      << "voxl neither resynced nor dropped the stalled viewer";
  EXPECT_TRUE(still_serving(*voxl_));
}

}  // namespace
}  // namespace voxl::testing
