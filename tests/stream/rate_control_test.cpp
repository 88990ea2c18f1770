// Rate control end to end: voxl streams a screen that changes faster than a
// 2 Mbit/s link can carry, through the bench's link emulator (a bottleneck
// with a 1 s queue in front of it). The checks are behaviour, not timing:
// the stream keeps delivering, the server keeps what it has in flight to a
// few round trips' worth instead of filling the queue, and frames do not
// age on the way. Load can only make frames fewer and older, so every bound
// is set far from what an unloaded machine shows (the figures are printed
// for the record) and well short of what a sender filling the queue shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "noise_painter.h"
#include "proxy_link.h"
#include "raw_connection.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;

constexpr uint32_t kBackground = 0x204060;
constexpr uint32_t kFinal = 0x00ff00;

constexpr double kLinkMbps = 2.0;
constexpr auto kLinkRtt = std::chrono::milliseconds(40);
constexpr auto kLinkQueue = std::chrono::milliseconds(1000);  // LinkSettings' default
// What the link holds: one round trip at the cap, and the bottleneck queue.
constexpr double kBdpBytes = kLinkMbps * 1e6 / 8 * 0.040;                 // 10 KB
constexpr double kQueueBytes = kLinkMbps * 1e6 / 8 * 1.000;               // 250 KB
// Until the first acks the encoder runs at --max-kbps, one frame of VBV
// (62.5 KB at 60 fps), and the first frame's RTT sample holds its own
// serialisation: about 300 ms. The minimum RTT can stay there (every later
// frame waits behind the queue that window allows), so the window may keep
// up to that round trip at the delivery rate plus three link-sized frames
// in flight, about 115 KB even at the 2.6 Mbit/s the rate samples overshoot
// to. Half the queue is above that, and half what a sender filling it has.
constexpr double kSettledS = 4;
constexpr double kMaxSettledInFlightBytes = kQueueBytes / 2;             // 125 KB
constexpr size_t kMaxInFlightFrames = 16;                                 // LinkEstimator's cap

constexpr auto kRun = std::chrono::seconds(10);
constexpr auto kWindow = std::chrono::seconds(2);
constexpr int kMinFramesPerWindow = 4;  // the link carries dozens
// A backlog makes frames age towards the 1 s queue and beyond; the stream
// the link window allows ages by a few round trips and a frame or two.
constexpr double kMaxMedianAgeMs = 1000;
constexpr int kDefaultMaxKbps = 30000;  // --max-kbps

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

uint64_t wall_us() {
  return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

class RateControlTest : public VoxlFixture {
 protected:
  void SetUp() override { start_display(kBackground); }

  struct Frame {
    double at_s;    // since the measurement started
    double age_ms;  // received (client wall clock) - captured (server wall clock)
    size_t bytes;
    bool key;
  };
  struct Stats {
    double at_s;
    nlohmann::json viewer;
  };

  // Reads for `run`, keeping every frame's age and every stats message.
  void measure(StreamClient& client, std::chrono::seconds run, std::vector<Frame>& frames,
               std::vector<Stats>& stats) {
    const auto start = SteadyClock::now();
    const auto deadline = start + run;
    for (auto now = start; now < deadline; now = SteadyClock::now()) {
      const size_t frames_before = client.frames().size();
      const size_t texts_before = client.texts().size();
      const uint64_t bytes_before = client.video_bytes();
      const auto got = client.read_one(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) + 1ms);
      if (got == StreamClient::Got::kClosed) return;
      const double at_s = std::chrono::duration<double>(SteadyClock::now() - start).count();
      if (client.frames().size() > frames_before) {
        const uint64_t received = wall_us();
        const uint64_t captured = client.frames().back().capture_us;
        frames.push_back({at_s, (double(received) - double(captured)) / 1000.0,
                          size_t(client.video_bytes() - bytes_before), client.frames().back().key});
      }
      if (client.texts().size() > texts_before) {
        const auto& t = client.texts().back();
        if (t.value("type", "") == "stats" && t.contains("viewer")) stats.push_back({at_s, t["viewer"]});
      }
    }
  }
};

TEST_F(RateControlTest, TwoMegabitLinkKeepsDeliveringWithoutABacklog) {
  NoisePainter noise(display_->name(), Rect::from_size(kScreen), 16ms);
  // Debug logging says, on a failure, whether the viewer fell behind.
  start_voxl({"--log-level=debug"});
  Link link(voxl_->port(), bench::LinkSettings{kLinkMbps, kLinkRtt, kLinkQueue});
  ClientOptions options = client_options();
  options.port = link.port();
  options.host = "127.0.0.1:" + std::to_string(voxl_->port());
  StreamClient client(options);
  ASSERT_TRUE(client.wait_until([&] { return client.picture().has_value(); })) << client.status();
  client.send_text(R"({"type":"stats","enabled":true})");

  std::vector<Frame> frames;
  std::vector<Stats> stats;
  measure(client, kRun, frames, stats);
  ASSERT_FALSE(client.closed()) << client.status();

  // Frames keep arriving, every window of the run, and all of them decode.
  const int windows = int(kRun / kWindow);
  std::vector<int> per_window(static_cast<size_t>(windows), 0);
  int key_frames = 0;
  std::vector<std::vector<double>> ages(static_cast<size_t>(windows));
  double bytes = 0;
  for (const auto& f : frames) {
    const int w = std::min(windows - 1, int(f.at_s / std::chrono::duration<double>(kWindow).count()));
    ++per_window[size_t(w)];
    ages[size_t(w)].push_back(f.age_ms);
    bytes += double(f.bytes);
    key_frames += f.key ? 1 : 0;
  }
  std::string record = "frames per 2 s window:";
  for (int w = 0; w < windows; ++w) record += " " + std::to_string(per_window[size_t(w)]);
  record += "; median age per window (ms):";
  for (int w = 0; w < windows; ++w) record += " " + std::to_string(int(median(ages[size_t(w)])));
  record += "; received " + std::to_string(int(bytes * 8 / 1000 / std::chrono::duration<double>(kRun).count())) +
            " kbit/s in " + std::to_string(frames.size()) + " frames, " + std::to_string(key_frames) + " of them key";
  std::printf("%s\n", record.c_str());
  if (std::getenv("VOXL_RATE_TRACE"))
    for (const auto& f : frames) std::printf("frame at %.3f s: age %.0f ms, %zu bytes%s\n", f.at_s, f.age_ms, f.bytes, f.key ? " key" : "");
  for (int w = 0; w < windows; ++w)
    EXPECT_GE(per_window[size_t(w)], kMinFramesPerWindow) << "window " << w << "; " << record;
  EXPECT_EQ(client.decode_errors(), 0) << client.status();

  // The server never has anywhere near the link's queue in flight, and it
  // asked the encoder for about what the link carries.
  ASSERT_GE(stats.size(), 5u) << "stats arrive once a second; got " << stats.size();
  double max_bytes = 0, max_settled_bytes = 0;
  size_t max_frames = 0;
  for (const auto& s : stats) {
    const auto& v = s.viewer;
    std::printf("stats at %.1f s: in_flight %d frames / %d bytes, rtt %.0f ms (min %.0f), delivery %.0f kbit/s, "
                "target %d, encoder %d kbit/s, held back %d, dropped %d\n",
                s.at_s, v.value("in_flight", -1), v.value("in_flight_bytes", -1), v.value("rtt_ms", -1.0),
                v.value("min_rtt_ms", -1.0), v.value("delivery_kbps", -1.0), v.value("target_kbps", -1),
                v.value("encoder_kbps", -1), v.value("held_back", -1), v.value("dropped_frames", -1));
    max_bytes = std::max(max_bytes, v.value("in_flight_bytes", 0.0));
    if (s.at_s >= kSettledS) max_settled_bytes = std::max(max_settled_bytes, v.value("in_flight_bytes", 0.0));
    max_frames = std::max(max_frames, v.value("in_flight", size_t(0)));
  }
  std::printf("max in flight: %.0f bytes (%.1f round trips at the cap), after %.0f s %.0f bytes; %zu frames\n",
              max_bytes, max_bytes / kBdpBytes, kSettledS, max_settled_bytes, max_frames);
  EXPECT_LE(max_settled_bytes, kMaxSettledInFlightBytes);
  EXPECT_LE(max_frames, kMaxInFlightFrames);
  const int encoder_kbps = stats.back().viewer.value("encoder_kbps", 0);
  EXPECT_GT(encoder_kbps, 0);
  EXPECT_LE(encoder_kbps, kDefaultMaxKbps / 4) << "the encoder's target did not come down to the link";

  // No backlog, from the first frames (sent before any ack) to the last:
  // in no window do frames take anywhere near the link's queue to arrive.
  for (int w = 0; w < windows; ++w)
    EXPECT_LT(median(ages[size_t(w)]), kMaxMedianAgeMs) << "window " << w << "; " << record;

  // Once the screen stops changing, the newest picture shows it.
  noise.stop();
  fill(Rect::from_size(kScreen), kFinal);
  const auto filled = SteadyClock::now();
  ASSERT_TRUE(client.wait_for_colour(kScreen.width / 2, kScreen.height / 2, kFinal, 5s))
      << "centre is " << (client.pixel(kScreen.width / 2, kScreen.height / 2) ? colour_name(*client.pixel(kScreen.width / 2, kScreen.height / 2)) : "undecoded")
      << "; " << client.status();
  std::printf("final fill shown after %.0f ms (frame age %.0f ms); %d noise pictures painted\n",
              std::chrono::duration<double, std::milli>(SteadyClock::now() - filled).count(),
              (double(wall_us()) - double(client.frames().back().capture_us)) / 1000.0, noise.painted());
  EXPECT_EQ(client.decode_errors(), 0) << client.status();
}

// What `ss` says of voxl's side of each established connection on
// `voxl_port`: its line of TCP information (options, the congestion
// control's name, then figures), one per socket.
std::vector<std::string> tcp_info_lines(uint16_t voxl_port) {
  const std::string command = "ss -tinH state established sport = :" + std::to_string(voxl_port) + " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), &::pclose);
  std::string out;
  char buf[4096];
  while (pipe && std::fgets(buf, sizeof buf, pipe.get())) out += buf;
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.find("rto:") != std::string::npos) lines.push_back(line.substr(line.find_first_not_of(" \t")));
  return lines;
}

// The ceiling the kernel paces voxl's side of each connection to `peer_port`
// at (`ss` shows SO_MAX_PACING_RATE as the second figure of pacing_rate),
// in bit/s: none for a socket without one.
std::vector<std::optional<double>> pacing_ceilings(uint16_t voxl_port) {
  std::vector<std::optional<double>> ceilings;
  static const std::regex kCeiling(R"(pacing_rate [0-9.]+[kMG]?bps/([0-9.]+)([kMG]?)bps)");
  for (const std::string& info : tcp_info_lines(voxl_port)) {
    std::smatch m;
    if (!std::regex_search(info, m, kCeiling)) {
      ceilings.emplace_back();
      continue;
    }
    const double scale = m[2] == "k" ? 1e3 : m[2] == "M" ? 1e6 : m[2] == "G" ? 1e9 : 1;
    ceilings.emplace_back(std::stod(m[1]) * scale);
  }
  return ceilings;
}

// A download through the same slow link as a viewer (one link for both, as
// a client's access link is) is held back by the kernel to a rate the link
// can carry beside the picture: its socket gets a pacing ceiling once the
// viewer's acks have measured the link, and the stream keeps running. How
// much frame rate that saves is a benchmark (bench/files/share.mjs).
TEST_F(RateControlTest, ADownloadBesideAViewerOnASlowLinkIsPaced) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("voxl-pacing-" + std::to_string(::getpid()));
  fs::create_directories(root);
  struct Remove {
    fs::path p;
    ~Remove() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } remove{root};
  { std::ofstream(root / "big.bin", std::ios::binary); }
  fs::resize_file(root / "big.bin", 64u << 20);  // larger than the link moves in the test

  NoisePainter noise(display_->name(), Rect::from_size(kScreen), 16ms);
  start_voxl({"--files-root=" + root.string(), "--log-level=debug"});
  bench::LinkSettings settings{kLinkMbps, kLinkRtt, kLinkQueue};
  settings.shared = true;
  Link link(voxl_->port(), settings);
  ClientOptions options = client_options();
  options.port = link.port();
  options.host = "127.0.0.1:" + std::to_string(voxl_->port());
  StreamClient client(options);
  // The viewer acks frames: the link has been measured.
  ASSERT_TRUE(client.wait_until([&] { return client.frames().size() >= 5; })) << client.status();

  RawConnection download(link.port());
  ASSERT_TRUE(download.send("GET /files/download?path=big.bin HTTP/1.1\r\nHost: " + options.host + "\r\n\r\n"));
  ASSERT_TRUE(download.read_until([](const std::string& r) { return r.size() > 64 * 1024; }, 60s))
      << download.received().substr(0, 300);
  EXPECT_NE(download.received().find("200 OK"), std::string::npos) << download.received().substr(0, 300);

  // The viewer keeps reading (and acking) while the ceiling is looked for.
  std::optional<double> ceiling;
  const auto deadline = SteadyClock::now() + 60s;
  while (!ceiling && SteadyClock::now() < deadline) {
    for (const auto& c : pacing_ceilings(voxl_->port()))
      if (c) ceiling = c;
    if (!ceiling) client.read_one(200ms);
  }
  ASSERT_TRUE(ceiling) << "no socket of voxl's has a pacing ceiling";
  // Far below what an unpaced socket may send, and the viewer's own
  // connection is not the one held back.
  EXPECT_LT(*ceiling, 1e9);
  size_t paced = 0;
  for (const auto& c : pacing_ceilings(voxl_->port())) paced += c.has_value();
  EXPECT_EQ(paced, 1u);
  const size_t frames_before = client.frames().size();
  EXPECT_TRUE(client.wait_until([&] { return client.frames().size() >= frames_before + 5; })) << client.status();
  ASSERT_FALSE(client.closed()) << client.status();
}

// --tcp-congestion: voxl's side of a viewer's connection runs the
// congestion control asked for (reno: every Linux has it and allows it to
// any user); a name the kernel does not offer is said at start, and the
// stream runs on the system's.
TEST_F(RateControlTest, ConnectionsRunTheCongestionControlAskedFor) {
  start_voxl({"--tcp-congestion=reno"});
  EXPECT_TRUE(voxl_->wait_for_log("TCP congestion control: reno (--tcp-congestion)", 10s)) << voxl_->log();
  {
    StreamClient client(client_options());
    ASSERT_TRUE(client.wait_until([&] { return !client.frames().empty(); })) << client.status();
    const auto lines = tcp_info_lines(voxl_->port());
    ASSERT_FALSE(lines.empty()) << "ss shows no connection of voxl's";
    // e.g. "ts sack reno wscale:7,7 rto:204 ...": the name is a word of its own.
    for (const std::string& line : lines) EXPECT_NE((" " + line + " ").find(" reno "), std::string::npos) << line;
  }
  start_voxl({"--tcp-congestion=nosuch"});
  EXPECT_TRUE(voxl_->wait_for_log("asked for nosuch: the kernel does not offer 'nosuch'", 10s)) << voxl_->log();
  StreamClient client(client_options());
  EXPECT_TRUE(client.wait_until([&] { return !client.frames().empty(); })) << client.status();
}

// --adaptive-threads: the encoder starts on one slice thread (the rule
// that fans out is unit-tested on synthetic traces), and the stream's
// stats say how many threads it runs; without the flag, the count asked for.
TEST_F(RateControlTest, AdaptiveThreadsStartOnOneThreadAndTheStatsSaySo) {
  for (const bool adaptive : {true, false}) {
    std::vector<std::string> args{"--encoder-threads=2"};
    if (adaptive) args.push_back("--adaptive-threads");
    start_voxl(args);
    StreamClient client(client_options());
    ASSERT_TRUE(client.wait_until([&] { return client.picture().has_value(); })) << client.status();
    client.send_text(R"({"type":"stats","enabled":true})");
    const int want = adaptive ? 1 : 2;
    nlohmann::json last;
    EXPECT_TRUE(client.wait_until([&] {
      for (const auto& t : client.texts())
        if (t.value("type", "") == "stats" && t.contains("encoder_threads")) last = t;
      return last.is_object() && last["encoder_threads"] == want;
    })) << (adaptive ? "adaptive: " : "fixed: ") << last.dump();
    if (adaptive) {
      EXPECT_EQ(voxl_->stop(), 0) << "voxl did not exit cleanly after SIGTERM";
    }
  }
}

}  // namespace
}  // namespace voxl::testing
