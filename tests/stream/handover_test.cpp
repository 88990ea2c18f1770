// Control handover and per-viewer settings on the real binary and a private
// Xvfb, with two full viewers and a view-only one: only the holder's keys
// reach the X client that records them, a request and a grant move
// control, the idle timeout passes it on, a view-only viewer cannot ask
// for it, and every viewer sees the list. A viewer's settings are answered
// with what the server applied, the stream runs at the highest frame rate
// any viewer allows, and the motion choice the viewers agree on holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "event_recorder.h"
#include "http_client.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr auto kLimit = std::chrono::seconds(60);
constexpr Rect kWindow{100, 100, 200, 150};  // the recorder's
constexpr Rect kMotion{400, 300, 160, 120};  // painted on the root, beside it
constexpr uint32_t kBackground = 0x204060;

class HandoverTest : public VoxlFixture {
 protected:
  void start(const std::string& timeout) {
    start_display(kBackground);
    recorder_.emplace(display_->name(), kWindow);
    start_voxl({"--enable-basic-auth", "--basic-auth-password=s3cret", "--basic-auth-viewonly-password=look",
                "--control-timeout=" + timeout});
    a_.emplace(options("s3cret"));
    b_.emplace(options("s3cret"));
    v_.emplace(options("look"));
    ASSERT_TRUE(pump_until([&] {
      return last(*a_, "viewers")["viewers"].size() == 3 && last(*b_, "viewers")["viewers"].size() == 3 &&
             last(*v_, "viewers")["viewers"].size() == 3;
    })) << "the viewer list never reached everyone";
  }

  ClientOptions options(const std::string& password) const {
    ClientOptions o = client_options();
    o.authorization = basic_authorization("voxl", password);
    return o;
  }

  // The newest message of `type` the viewer was sent (null before any).
  static json last(const StreamClient& c, const std::string& type) {
    for (auto it = c.texts().rbegin(); it != c.texts().rend(); ++it)
      if ((*it)["type"] == type) return *it;
    return nullptr;
  }
  static size_t count(const StreamClient& c, const std::string& type, const std::string& what = {}) {
    return size_t(std::count_if(c.texts().begin(), c.texts().end(), [&](const json& m) {
      return m["type"] == type && (what.empty() || m["what"] == what);
    }));
  }
  static uint64_t id(const StreamClient& c) { return last(c, "hello")["id"].get<uint64_t>(); }

  // Reads every viewer (so each keeps acking and sends what it queued) and
  // the recorder until `done` or the limit.
  bool pump_until(const std::function<bool()>& done) {
    const auto end = Clock::now() + kLimit;
    while (Clock::now() < end) {
      for (StreamClient* c : {&*a_, &*b_, &*v_}) c->read_one(std::chrono::milliseconds(5));
      recorder_->poll();
      if (done()) return true;
    }
    return false;
  }

  static void type_key(StreamClient& c, char letter) {
    const std::string code = std::string("Key") + char(letter - 'a' + 'A');
    const std::string key(1, letter);
    c.send_text(json{{"type", "key"}, {"code", code}, {"key", key}, {"down", true}, {"mods", 0}}.dump());
    c.send_text(json{{"type", "key"}, {"code", code}, {"key", key}, {"down", false}, {"mods", 0}}.dump());
  }
  bool pressed(char letter) const {
    const auto keys = pressed_keysyms(recorder_->events());
    return std::find(keys.begin(), keys.end(), uint32_t(letter)) != keys.end();
  }
  bool holder_is(const StreamClient& c, uint64_t holder) const { return last(c, "viewers")["holder"] == holder; }

  std::optional<EventRecorder> recorder_;
  std::optional<StreamClient> a_, b_, v_;
};

TEST_F(HandoverTest, OnlyTheHolderTypesAndARequestAndAGrantMoveControl) {
  start("0");
  for (StreamClient* c : {&*a_, &*b_, &*v_}) {
    const json hello = last(*c, "hello");
    // File transfer is on by default (beneath $HOME): full viewers are
    // offered it, the view-only one is not.
    EXPECT_EQ(hello["files"], c != &*v_);
    EXPECT_EQ(last(*c, "viewers")["you"], hello["id"]);
    EXPECT_EQ(last(*c, "viewers")["timeout_s"], 0);
  }
  const json list = last(*v_, "viewers")["viewers"];
  EXPECT_EQ(list[0], (json{{"id", id(*a_)}, {"role", "full"}, {"name", ""}, {"user", ""}, {"requesting", false}}));
  EXPECT_EQ(list[2]["role"], "view-only");

  // A lone first input takes control at once.
  type_key(*a_, 'a');
  ASSERT_TRUE(pump_until([&] { return pressed('a') && holder_is(*b_, id(*a_)); }));
  // The other full viewer's keys are dropped, and it is told once.
  type_key(*b_, 'b');
  type_key(*b_, 'b');
  ASSERT_TRUE(pump_until([&] { return count(*b_, "refused") == 1; }));
  EXPECT_EQ(last(*b_, "refused"),
            (json{{"type", "refused"}, {"what", "input"}, {"reason", "another viewer has control"}}));
  type_key(*a_, 'c');
  ASSERT_TRUE(pump_until([&] { return pressed('c'); }));
  EXPECT_FALSE(pressed('b')) << "a key of the viewer without control reached the desktop";

  // B asks, A grants: B types, A is refused.
  b_->send_text(R"({"type":"control","action":"request"})");
  ASSERT_TRUE(pump_until([&] { return last(*a_, "viewers")["viewers"][1]["requesting"] == true; }));
  EXPECT_TRUE(holder_is(*a_, id(*a_)));
  a_->send_text(json{{"type", "control"}, {"action", "grant"}, {"to", id(*b_)}}.dump());
  ASSERT_TRUE(pump_until([&] { return holder_is(*a_, id(*b_)) && holder_is(*b_, id(*b_)) && holder_is(*v_, id(*b_)); }));
  type_key(*b_, 'd');
  ASSERT_TRUE(pump_until([&] { return pressed('d'); }));
  type_key(*a_, 'e');
  ASSERT_TRUE(pump_until([&] { return count(*a_, "refused") == 1; }));
  type_key(*b_, 'f');
  ASSERT_TRUE(pump_until([&] { return pressed('f'); }));
  EXPECT_FALSE(pressed('e'));

  // The view-only viewer cannot ask for control.
  v_->send_text(R"({"type":"control","action":"request"})");
  ASSERT_TRUE(pump_until([&] { return count(*v_, "refused", "control") == 1; }));
  v_->send_text(R"({"type":"ping","t":1})");
  ASSERT_TRUE(pump_until([&] { return count(*v_, "pong") == 1; }));
  EXPECT_TRUE(holder_is(*v_, id(*b_)));
  EXPECT_EQ(last(*v_, "viewers")["viewers"][2]["requesting"], false);

  // The holder releases with nobody asking: control is free, and the next
  // input takes it.
  b_->send_text(R"({"type":"control","action":"release"})");
  ASSERT_TRUE(pump_until([&] { return holder_is(*a_, 0); }));
  type_key(*a_, 'g');
  ASSERT_TRUE(pump_until([&] { return pressed('g') && holder_is(*b_, id(*a_)); }));

  // The holder leaves while B asks: B gets it.
  b_->send_text(R"({"type":"control","action":"request"})");
  ASSERT_TRUE(pump_until([&] { return last(*a_, "viewers")["viewers"][1]["requesting"] == true; }));
  a_.reset();
  const auto end = Clock::now() + kLimit;
  while (Clock::now() < end && !holder_is(*b_, id(*b_))) {
    b_->read_one(std::chrono::milliseconds(20));
    v_->read_one(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(holder_is(*b_, id(*b_)));
  EXPECT_EQ(last(*b_, "viewers")["viewers"].size(), 2u);
}

TEST_F(HandoverTest, AnIdleHolderLosesControlToARequester) {
  start("1");
  type_key(*a_, 'a');
  ASSERT_TRUE(pump_until([&] { return pressed('a') && holder_is(*b_, id(*a_)); }));
  b_->send_text(R"({"type":"control","action":"request"})");
  // A sends nothing more: after its second of idling B has control.
  ASSERT_TRUE(pump_until([&] { return holder_is(*b_, id(*b_)) && holder_is(*a_, id(*b_)); }));
  type_key(*b_, 'b');
  ASSERT_TRUE(pump_until([&] { return pressed('b'); }));
}

TEST_F(HandoverTest, SettingsAreAnsweredAndTheStreamRunsAtTheHighestRateAllowed) {
  start("10");
  const json first = last(*a_, "settings");
  EXPECT_EQ(first, (json{{"type", "settings"},
                         {"max_fps", 0},
                         {"max_kbps", 0},
                         {"name", ""},
                         {"motion", nullptr},
                         {"server_motion", "auto"},
                         {"server_max_fps", 60},
                         {"server_max_kbps", 30000},
                         {"server_min_kbps", 2000}}));
  a_->send_text(R"({"type":"settings","max_fps":12,"max_kbps":5000,"name":"Ada"})");
  ASSERT_TRUE(pump_until([&] { return count(*a_, "settings") == 2; }));
  EXPECT_EQ(last(*a_, "settings"), (json{{"type", "settings"},
                                         {"max_fps", 12},
                                         {"max_kbps", 5000},
                                         {"name", "Ada"},
                                         {"motion", nullptr},
                                         {"server_motion", "auto"},
                                         {"server_max_fps", 60},
                                         {"server_max_kbps", 30000},
                                         {"server_min_kbps", 2000}}));
  ASSERT_TRUE(pump_until([&] { return last(*v_, "viewers")["viewers"][0]["name"] == "Ada"; }));
  // A bad field changes nothing and is answered with what holds.
  a_->send_text(R"({"type":"settings","max_fps":500,"name":"Bob"})");
  ASSERT_TRUE(pump_until([&] { return count(*a_, "settings") == 3; }));
  EXPECT_EQ(last(*a_, "settings")["name"], "Ada");
  EXPECT_EQ(last(*a_, "settings")["max_fps"], 12);

  // Everyone capped: the stream runs at the highest of the caps.
  b_->send_text(R"({"type":"settings","max_fps":20})");
  v_->send_text(R"({"type":"settings","max_fps":8})");
  a_->send_text(R"({"type":"stats","enabled":true})");
  ASSERT_TRUE(pump_until([&] { return count(*b_, "settings") == 2 && count(*v_, "settings") == 2; }));
  uint32_t colour = 0x101010;
  // Until A's stats say `key` is `value`, with motion, so frames come at
  // the rate the pipeline paces.
  const auto stats_say = [&](const char* key, const json& value) {
    return pump_until([&] {
      colour ^= 0x3f3f3f;
      fill(kMotion, colour);
      painter_->sync();
      const json s = last(*a_, "stats");
      return s.is_object() && s[key] == value;
    });
  };
  const auto frame_rate_is = [&](int fps) { return stats_say("frame_rate", fps); };
  const auto motion_is = [&](const char* motion) { return stats_say("motion", motion); };
  EXPECT_TRUE(frame_rate_is(20)) << last(*a_, "stats").dump();
  // One viewer without a cap: the server's maximum again.
  b_->send_text(R"({"type":"settings","max_fps":0})");
  EXPECT_TRUE(frame_rate_is(60)) << last(*a_, "stats").dump();

  // The motion choice: what the viewers agree on holds for the stream.
  for (StreamClient* c : {&*a_, &*b_, &*v_}) {
    const size_t before = count(*c, "settings");
    c->send_text(R"({"type":"settings","motion":"smooth"})");
    ASSERT_TRUE(pump_until([&] { return count(*c, "settings") == before + 1; }));
    EXPECT_EQ(last(*c, "settings")["motion"], "smooth");
  }
  EXPECT_TRUE(motion_is("smooth")) << last(*a_, "stats").dump();
  // An unknown choice changes nothing.
  const size_t answers = count(*a_, "settings");
  a_->send_text(R"({"type":"settings","motion":"fast"})");
  ASSERT_TRUE(pump_until([&] { return count(*a_, "settings") == answers + 1; }));
  EXPECT_EQ(last(*a_, "settings")["motion"], "smooth");
  for (StreamClient* c : {&*a_, &*b_, &*v_}) c->send_text(R"({"type":"settings","motion":"sharp"})");
  EXPECT_TRUE(motion_is("sharp")) << last(*a_, "stats").dump();
  EXPECT_EQ(a_->decode_errors(), 0) << a_->status();
}

}  // namespace
}  // namespace voxl::testing
