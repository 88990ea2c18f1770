// --record-sessions on the real binary: a session recorded while a viewer
// watches (segments that ffprobe decodes, one after the other with no gap,
// the events with keystrokes as markers only), the admins' endpoints and
// their refusals, and a disk that fills up: the recording stops with one
// log line and the stream goes on.
#include <gtest/gtest.h>

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "command_output.h"
#include "endpoint_fixture.h"
#include "media_probe.h"
#include "noise_painter.h"
#include "stream_client.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using json = nlohmann::json;

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class SessionsTest : public EndpointFixture {
 protected:
  SessionsTest() {
    std::random_device r;
    dir_ = fs::temp_directory_path() / ("voxl-sessions-" + std::to_string(r()) + std::to_string(r()));
    fs::create_directories(dir_ / "recorded");
    fs::permissions(dir_, fs::perms::owner_all);
    fs::permissions(dir_ / "recorded", fs::perms::owner_all);
    const fs::path users = dir_ / "users";
    std::ofstream(users) << user_line("ops", "ops-pw", "admin") << user_line("alice", "alice-pw", "view,control");
    ::chmod(users.c_str(), 0600);
    users_ = users.string();
  }
  ~SessionsTest() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  Headers as(const char* user) const {
    return {{"Authorization", basic_authorization(user, std::string(user) + "-pw")}};
  }
  json admin_get(const std::string& target) { return body_json(call("GET", target, as("ops"))); }
  // The sessions listed, once `done` holds for them (or the last list seen).
  json sessions_when(const std::function<bool(const json&)>& done) {
    json list;
    for (const auto until = std::chrono::steady_clock::now() + 90s; std::chrono::steady_clock::now() < until;) {
      list = admin_get("/sessions/list");
      if (list.is_object() && done(list["sessions"])) break;
      std::this_thread::sleep_for(200ms);  // a poll of the server's own answer: no event to wait on
    }
    return list;
  }
  StreamClient::Got viewer_frame(StreamClient& viewer) { return viewer.read_one(30s); }

  fs::path dir_;
  std::string users_;
};

TEST_F(SessionsTest, AViewersSessionIsRecordedInSegmentsWithItsEvents) {
  start({"--users-file", users_, "--record-sessions", (dir_ / "recorded").string(),
         "--record-sessions-segment-seconds", "5"});
  std::string id;
  {
    ClientOptions o = client_options();
    o.authorization = basic_authorization("alice", "alice-pw");
    StreamClient viewer(o);
    ASSERT_TRUE(viewer.wait_until([&] {
      for (const auto& m : viewer.texts())
        if (m.value("type", "") == "interaction") return true;
      return false;
    })) << viewer.status();
    // /metrics counts each user's viewers.
    const HttpAnswer metrics = call("GET", "/metrics", as("ops"));
    EXPECT_NE(metrics.body.find("voxl_viewers_by_user{user=\"alice\"} 1\n"), std::string::npos) << metrics.body;
    viewer.send_text(R"({"type":"key","code":"KeyQ","key":"q","down":true})");
    viewer.send_text(R"({"type":"key","code":"KeyQ","key":"q","down":false})");
    // The screen changes until the first segment has been cut and sealed.
    uint32_t colour = 0x800000;
    const json list = sessions_when([&](const json& s) {
      fill({0, 0, 200, 200}, colour ^= 0x808080);
      return s.size() == 1 && s[0].value("segments", 0) >= 1;
    });
    ASSERT_EQ(list["sessions"].size(), 1u) << list.dump() << voxl_->log();
    EXPECT_TRUE(list["sessions"][0].value("live", false));
    id = list["sessions"][0].value("id", "");
  }
  const json ended = sessions_when([](const json& s) { return s.size() == 1 && !s[0].value("live", true); });
  ASSERT_EQ(ended["sessions"].size(), 1u) << ended.dump() << voxl_->log();
  const json& s = ended["sessions"][0];
  EXPECT_GE(s.value("segments", 0), 2) << s.dump();
  EXPECT_EQ(s["users"], json::array({"alice"}));
  EXPECT_TRUE(s["stopped"].is_null()) << s.dump();

  const json info = admin_get("/sessions/info?id=" + id);
  ASSERT_TRUE(info.is_object()) << voxl_->log();
  const json& segments = info["segments"];
  ASSERT_GE(segments.size(), 2u);
  for (size_t i = 1; i < segments.size(); ++i) {
    const int64_t end = segments[i - 1].value("start_ms", 0) + segments[i - 1].value("duration_ms", 0);
    EXPECT_NEAR(double(segments[i].value("start_ms", 0)), double(end), 1.0) << "segments follow one another";
  }
  std::map<std::string, json> events;
  for (const json& e : info["events"]) events[e.value("event", "")] = e;
  ASSERT_TRUE(events.count("connect")) << info.dump();
  EXPECT_EQ(events["connect"].value("user", ""), "alice");
  ASSERT_TRUE(events.count("keys")) << info.dump();
  EXPECT_EQ(events["keys"].value("count", 0), 1) << "one key pressed: its release is not counted";
  EXPECT_TRUE(events.count("leave"));
  EXPECT_FALSE(events.count("key"));
  std::ifstream in(dir_ / "recorded" / id / "events.jsonl");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("KeyQ"), std::string::npos) << "which key was pressed is never written";

  const HttpAnswer mp4 = call("GET", "/sessions/video?id=" + id + "&segment=1", as("ops"));
  ASSERT_EQ(mp4.status, 200);
  EXPECT_EQ(mp4.header("content-type"), "video/mp4");
  const Mp4Probe p = probe_mp4(mp4.body);
  EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.codec, "h264");
  EXPECT_EQ(p.width, kScreen.width);
  EXPECT_GT(p.frames, 0);
  EXPECT_TRUE(p.first_frame_key);
  EXPECT_EQ(p.decode_log, "");
  Headers range = as("ops");
  range.push_back({"Range", "bytes=0-99"});
  const HttpAnswer part = call("GET", "/sessions/video?id=" + id + "&segment=1", range);
  EXPECT_EQ(part.status, 206);
  EXPECT_EQ(part.body, mp4.body.substr(0, 100));
  const HttpAnswer zip = call("GET", "/sessions/download?id=" + id, as("ops"));
  EXPECT_EQ(zip.status, 200);
  EXPECT_EQ(zip.body.substr(0, 2), "PK");

  // Admins only, ids and segments checked.
  expect_error(call("GET", "/sessions/list", as("alice")), 403, "");
  EXPECT_NE(call("GET", "/sessions/list", as("alice")).body.find("admin"), std::string::npos);
  expect_error(call("GET", "/sessions/video?id=" + id + "&segment=1", as("alice")), 403, "");
  expect_error(call("GET", "/sessions/info?id=../../etc", as("ops")), 400, "id");
  expect_error(call("GET", "/sessions/video?id=" + id + "&segment=999", as("ops")), 404, "segment");
  expect_error(call("GET", "/sessions/video?id=" + id + "&segment=0", as("ops")), 400, "segment");
  expect_error(call("GET", "/sessions/info?id=20990101T000000Z-000000", as("ops")), 404, "id");

  EXPECT_EQ(call("DELETE", "/sessions/info?id=" + id, as("ops")).status, 200);
  EXPECT_TRUE(admin_get("/sessions/list")["sessions"].empty());
  EXPECT_FALSE(fs::exists(dir_ / "recorded" / id));
}

TEST_F(SessionsTest, AFullDiskStopsTheRecordingAndTheStreamGoesOn) {
  // A 1 MB file system of the test's own, in a mount namespace that voxl
  // inherits and nothing else sees.
  if (::geteuid() != 0) GTEST_SKIP() << "making a small file system to fill needs root (mount)";
  if (::unshare(CLONE_NEWNS) != 0) GTEST_SKIP() << "no mount namespace here: " << std::strerror(errno);
  ASSERT_EQ(::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr), 0) << std::strerror(errno);
  const fs::path small = dir_ / "recorded";
  ASSERT_EQ(::mount("tmpfs", small.c_str(), "tmpfs", 0, "size=1m,mode=0700"), 0) << std::strerror(errno);
  start({"--users-file", users_, "--record-sessions", small.string(), "--record-sessions-min-free-mb", "0"});
  ClientOptions o = client_options();
  o.authorization = basic_authorization("ops", "ops-pw");
  StreamClient viewer(o);
  {
    NoisePainter noise(display_->name(), {0, 0, kScreen.width, kScreen.height}, 30ms);
    const json list = sessions_when([](const json& s) { return s.size() == 1 && !s[0]["stopped"].is_null(); });
    ASSERT_EQ(list["sessions"].size(), 1u) << list.dump() << voxl_->log();
    EXPECT_NE(list["sessions"][0].value("stopped", "").find("space"), std::string::npos) << list.dump();
    const size_t before = viewer.frames().size();
    ASSERT_TRUE(viewer.wait_until([&] { return viewer.frames().size() > before + 10; })) << viewer.status();
  }
  EXPECT_EQ(count_of(voxl_->log(), "is no longer recorded"), 1u) << voxl_->log();
  EXPECT_EQ(viewer.decode_errors(), 0);
  // The lost segment's file was removed: the disk has room again.
  for (const auto& e : fs::recursive_directory_iterator(small))
    EXPECT_NE(e.path().extension(), ".part") << e.path();
  EXPECT_EQ(call("GET", "/", as("ops")).status, 200);
  ASSERT_EQ(::umount2(small.c_str(), MNT_DETACH), 0);
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
