// /healthz, /readyz and /metrics against the real binary: the probes answer
// without a credential, /metrics does not; what /metrics says parses with
// Prometheus' own Python parser and counts what happened (a viewer that got
// frames, key frames, stage times, a wrong credential).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "http_client.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

constexpr const char* kToken = "metrics-test-token-0123456789";
constexpr uint32_t kBackground = 0x204060;
constexpr Rect kRect{100, 100, 200, 150};

// Sample lines as read_metrics.py prints them ("name{k=v} value"), or the
// parser's complaint in `error`.
struct ParsedMetrics {
  std::string error;
  std::map<std::string, double> samples;
  std::map<std::string, std::string> families;  // name -> type

  double at(const std::string& key) const {
    const auto it = samples.find(key);
    return it == samples.end() ? -1 : it->second;
  }
};

ParsedMetrics parse_metrics(const std::string& text) {
  ParsedMetrics out;
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("voxl-metrics-" + std::to_string(getpid()) + ".txt")).string();
  std::ofstream(file, std::ios::binary) << text;
  // Debian's Python, which has python3-prometheus-client (scripts/setup).
  const std::string cmd = "/usr/bin/python3 '" VOXL_SOURCE_DIR "/tests/deploy/read_metrics.py' '" + file + "' 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(cmd.c_str(), "r"), &::pclose);
  std::string printed;
  char buf[4096];
  while (pipe && std::fgets(buf, sizeof buf, pipe.get())) printed += buf;
  const int status = pipe ? ::pclose(pipe.release()) : -1;
  std::filesystem::remove(file);
  if (status != 0) {
    out.error = "read_metrics.py failed (" + std::to_string(status) + "): " + printed;
    return out;
  }
  size_t at = 0;
  while (at < printed.size()) {
    const size_t end = printed.find('\n', at);
    const std::string line = printed.substr(at, end - at);
    at = end == std::string::npos ? printed.size() : end + 1;
    const size_t space = line.rfind(' ');
    if (line.rfind("family ", 0) == 0) {
      out.families[line.substr(7, space - 7)] = line.substr(space + 1);
    } else if (space != std::string::npos) {
      out.samples[line.substr(0, space)] = std::stod(line.substr(space + 1));
    }
  }
  return out;
}

class MetricsTest : public VoxlFixture {
 protected:
  HttpAnswer get(const std::string& target, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return http_request(voxl_->port(), {"GET", target, std::move(headers)});
  }
  HttpAnswer get_metrics() { return get("/metrics", {{"Authorization", std::string("Bearer ") + kToken}}); }
};

TEST_F(MetricsTest, ProbesNeedNoCredentialAndMetricsDo) {
  start_display(kBackground);
  start_voxl({}, {std::string("VOXL_AUTH_TOKEN=") + kToken});
  const HttpAnswer health = get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
  const HttpAnswer ready = get("/readyz");
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(ready.body, "ready\n");
  EXPECT_EQ(http_request(voxl_->port(), {"HEAD", "/healthz", {}}).status, 200);
  EXPECT_EQ(http_request(voxl_->port(), {"POST", "/healthz", {}}, "{}").status, 401)
      << "only GET and HEAD are the probe's; anything else goes through the access rules";

  EXPECT_EQ(get("/metrics").status, 401);
  const HttpAnswer m = get_metrics();
  ASSERT_EQ(m.status, 200) << m.body;
  EXPECT_EQ(m.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
}

TEST_F(MetricsTest, MetricsParseAndCountAViewersFramesAndAWrongCredential) {
  start_display(kBackground);
  fill(kRect, 0xff0000);
  start_voxl({}, {std::string("VOXL_AUTH_TOKEN=") + kToken});
  ClientOptions o = client_options();
  o.authorization = std::string("Bearer ") + kToken;
  StreamClient client(o);
  ASSERT_TRUE(client.wait_for_colour(kRect.x + 10, kRect.y + 10, 0xff0000)) << client.status();
  EXPECT_EQ(get("/stats", {{"Authorization", "Bearer wrong-token-0123456789"}}).status, 401);

  // The viewer has its frame, so it was counted as sent; its send time is
  // counted once the server sees the write complete, which may come a moment
  // later: ask again until it is there.
  ParsedMetrics p;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  do {
    p = parse_metrics(get_metrics().body);
    ASSERT_TRUE(p.error.empty()) << p.error;
  } while (p.at("voxl_send_seconds_count{}") < 1 && std::chrono::steady_clock::now() < deadline);

  EXPECT_EQ(p.families["voxl_video_frames_sent"], "counter");  // the parser names counters without _total
  EXPECT_EQ(p.families["voxl_stage_seconds"], "histogram");
  EXPECT_EQ(p.families["voxl_viewers"], "gauge");
  EXPECT_EQ(p.at("voxl_viewers{role=full}"), 1);
  EXPECT_EQ(p.at("voxl_viewers{role=view_only}"), 0);
  EXPECT_GE(p.at("voxl_video_frames_sent_total{}"), 1);
  EXPECT_GE(p.at("voxl_video_key_frames_sent_total{}"), 1);
  EXPECT_GT(p.at("voxl_video_bytes_sent_total{}"), p.at("voxl_video_frames_sent_total{}"));
  EXPECT_GE(p.at("voxl_pictures_encoded_total{rung=0}"), 1);
  EXPECT_GE(p.at("voxl_key_frames_total{rung=0}"), 1);
  EXPECT_GE(p.at("voxl_stage_seconds_count{stage=encode}"), 1);
  EXPECT_EQ(p.at("voxl_stage_seconds_count{stage=encode}"), p.at("voxl_stage_seconds_bucket{le=+Inf,stage=encode}"));
  EXPECT_GT(p.at("voxl_stage_seconds_sum{stage=encode}"), 0);
  EXPECT_EQ(p.families["voxl_send_seconds"], "histogram");
  EXPECT_GE(p.at("voxl_send_seconds_count{}"), 1);
  EXPECT_GE(p.at("voxl_auth_failures_total{}"), 1);
  EXPECT_GE(p.at("voxl_connections_open{}"), 2);  // the viewer and the request asking
  EXPECT_EQ(p.at("voxl_build_info{version=0.1.0}"), 1);
  EXPECT_EQ(p.at("voxl_recordings{}"), 0);
  EXPECT_EQ(p.at("voxl_waiters{}"), 0);
  // One viewer's own figures, under its id.
  int viewers = 0;
  for (const auto& [key, value] : p.samples) {
    if (key.rfind("voxl_viewer_frames_sent{viewer=", 0) != 0) continue;
    ++viewers;
    EXPECT_GE(value, 1) << key;
    const std::string id = key.substr(key.find('{'));
    EXPECT_GE(p.at("voxl_viewer_rtt_seconds" + id), 0) << id;
    EXPECT_GE(p.at("voxl_viewer_target_bits_per_second" + id), 0) << id;
  }
  EXPECT_EQ(viewers, 1);
}

TEST_F(MetricsTest, AMetricsAddressServesThemWithoutCredentialsAndNothingElse) {
  start_display(kBackground);
  start_voxl({"--metrics-addr=127.0.0.1:0"}, {std::string("VOXL_AUTH_TOKEN=") + kToken});
  ASSERT_TRUE(voxl_->wait_for_log("without credentials (--metrics-addr)", std::chrono::seconds(30))) << voxl_->log();
  const std::string log = voxl_->log();
  const std::string marker = "metrics: http://127.0.0.1:";
  const size_t at = log.find(marker);
  ASSERT_NE(at, std::string::npos) << log;
  const uint16_t port = uint16_t(std::stoi(log.substr(at + marker.size())));
  ASSERT_NE(port, voxl_->port());

  EXPECT_EQ(get("/metrics").status, 401) << "the main port keeps its credentials";
  EXPECT_EQ(get("/stats", {{"Authorization", "Bearer wrong-token-0123456789"}}).status, 401);
  const HttpAnswer m = http_request(port, {"GET", "/metrics", {}});
  ASSERT_EQ(m.status, 200) << m.body;
  const ParsedMetrics p = parse_metrics(m.body);
  ASSERT_TRUE(p.error.empty()) << p.error;
  // The main server's figures, not the metrics listener's own.
  EXPECT_GE(p.at("voxl_auth_failures_total{}"), 1);
  EXPECT_EQ(p.at("voxl_viewers{role=full}"), 0);
  EXPECT_GT(p.at("voxl_start_time_seconds{}"), 1.7e9);
  EXPECT_EQ(http_request(port, {"GET", "/readyz", {}}).status, 200);
  for (const char* other : {"/", "/stats", "/screenshot", "/ws", "/app.js"})
    EXPECT_EQ(http_request(port, {"GET", other, {}}).status, 404) << other;
  EXPECT_EQ(http_request(port, {"POST", "/metrics", {}}, "{}").status, 404);
}

}  // namespace
}  // namespace voxl::testing
