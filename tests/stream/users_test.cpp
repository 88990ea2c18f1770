// --users-file on the real binary: lines written by `voxl hash-password`,
// named users signing in with their own rights (one who may only view
// cannot type), a file others may read or with a broken line refused at
// start with the reason, and the file read again when it is replaced and on
// SIGHUP, a broken version keeping the users before it.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "command_output.h"
#include "endpoint_fixture.h"
#include "event_recorder.h"
#include "stream_client.h"
#include "xclip.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr Rect kArea{40, 30, 400, 300};

class UsersTest : public EndpointFixture {
 protected:
  UsersTest() {
    std::random_device r;
    dir_ = fs::temp_directory_path() / ("voxl-users-" + std::to_string(r()) + std::to_string(r()));
    fs::create_directories(dir_);
    alice_ = user_line("alice", "alice-pw", "view,control");
    bob_ = user_line("bob", "bob-pw", "view");
    carol_ = user_line("carol", "carol-pw", "view,control");
  }
  ~UsersTest() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Replaces the users file as an editor saves it: a new file renamed over it.
  void write_users(const std::string& text, mode_t mode = 0600) {
    const fs::path next = dir_ / "users.next";
    std::ofstream(next) << text;
    ::chmod(next.c_str(), mode);
    fs::rename(next, file());
  }
  std::string file() const { return (dir_ / "users").string(); }

  HttpAnswer page(const std::string& name, const std::string& password) {
    return call("GET", "/", {{"Authorization", basic_authorization(name, password)}});
  }
  HttpAnswer click(const std::string& name, const std::string& password) {
    return call("POST", "/input", R"({"type":"click","x":100,"y":100})",
                {{"Authorization", basic_authorization(name, password)}});
  }
  size_t presses() const {
    const auto& ev = recorder_->events();
    return size_t(std::count_if(ev.begin(), ev.end(), [](const InputEvent& e) { return e.kind == InputEvent::Kind::kButtonPress; }));
  }

  // A viewer signed in as `name`.
  std::unique_ptr<StreamClient> viewer(const std::string& name, const std::string& password) {
    ClientOptions o = client_options();
    o.authorization = basic_authorization(name, password);
    return std::make_unique<StreamClient>(o);
  }
  static std::vector<nlohmann::json> of_type(const StreamClient& c, const std::string& type) {
    std::vector<nlohmann::json> r;
    for (const auto& m : c.texts())
      if (m.value("type", "") == type) r.push_back(m);
    return r;
  }

  fs::path dir_;
  std::string alice_, bob_, carol_;
  std::optional<EventRecorder> recorder_;
};

TEST_F(UsersTest, HashPasswordWritesALineForTheFile) {
  ASSERT_FALSE(alice_.empty());
  EXPECT_TRUE(alice_.starts_with("alice:$argon2id$v=19$")) << alice_;
  EXPECT_TRUE(alice_.ends_with(":view,control\n")) << alice_;
  EXPECT_EQ(user_line("bad name", "pw", "view"), "") << "a name with a space is refused";
  EXPECT_EQ(user_line("dave", "pw", "fly"), "") << "an unknown right is refused";
}

TEST_F(UsersTest, EachUserSignsInWithTheirOwnRights) {
  write_users(alice_ + bob_);
  start({"--users-file", file()});
  recorder_.emplace(display_->name(), kArea);
  const HttpAnswer none = get("/");
  EXPECT_EQ(none.status, 401);
  EXPECT_NE(none.header("www-authenticate").find("Basic"), std::string::npos);
  EXPECT_EQ(page("alice", "alice-pw").status, 200);
  EXPECT_EQ(page("bob", "bob-pw").status, 200);
  EXPECT_EQ(page("alice", "bob-pw").status, 401);
  EXPECT_EQ(page("nobody", "alice-pw").status, 401);
  // bob may only view: his click is refused, saying so, and never reaches
  // the desktop.
  const HttpAnswer refused = click("bob", "bob-pw");
  expect_error(refused, 403, "");
  EXPECT_NE(refused.body.find("bob cannot send input: the users file does not give them the control right"),
            std::string::npos)
      << refused.body;
  recorder_->poll();
  EXPECT_EQ(presses(), 0u);
  const HttpAnswer ok = click("alice", "alice-pw");
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_TRUE(recorder_->wait_until([&](const auto&) { return presses() >= 1; }));
}

TEST_F(UsersTest, AFileOthersMayReadOrWithABrokenLineStopsVoxlWithTheReason) {
  start_display(kBackground);
  write_users(alice_, 0644);
  try {
    VoxlProcess p(display_->name(), {"--users-file", file()});
    ADD_FAILURE() << "voxl started with a users file every user may read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("may be read by any user"), std::string::npos) << e.what();
  }
  write_users(alice_ + "bob:not-a-hash:view\n");
  try {
    VoxlProcess p(display_->name(), {"--users-file", file()});
    ADD_FAILURE() << "voxl started with a broken users file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST_F(UsersTest, TheFileIsReadAgainWhenReplacedAndOnSighup) {
  write_users(alice_);
  start({"--users-file", file()});
  EXPECT_EQ(page("carol", "carol-pw").status, 401);
  // Replaced: carol may sign in once voxl has read it again.
  write_users(alice_ + carol_);
  ASSERT_TRUE(voxl_->wait_for_log("users: 2 from", 60s)) << voxl_->log();
  EXPECT_EQ(page("carol", "carol-pw").status, 200);
  // A broken version is refused and the users before it stay.
  write_users(alice_ + carol_ + "broken\n");
  ASSERT_TRUE(voxl_->wait_for_log("the users read before stay", 60s)) << voxl_->log();
  EXPECT_EQ(page("carol", "carol-pw").status, 200);
  // SIGHUP reads it again and voxl keeps serving.
  write_users(alice_);
  ASSERT_TRUE(voxl_->wait_for_log("users: 1 from " + file() + ", read again", 60s)) << voxl_->log();
  ASSERT_EQ(::kill(voxl_->pid(), SIGHUP), 0);
  ASSERT_TRUE(voxl_->wait_for_log("read again (SIGHUP)", 60s)) << voxl_->log();
  EXPECT_TRUE(voxl_->running());
  EXPECT_EQ(page("carol", "carol-pw").status, 401);
  EXPECT_EQ(page("alice", "alice-pw").status, 200);
}

TEST_F(UsersTest, OnlyAUserWithClipboardRightsReceivesOrPastesTheClipboard) {
  // alice may use the clipboard both ways; dave may control but not the clipboard.
  write_users(user_line("alice", "alice-pw", "view,control,clipboard") + user_line("dave", "dave-pw", "view,control"));
  start({"--users-file", file()});
  auto alice = viewer("alice", "alice-pw");
  auto dave = viewer("dave", "dave-pw");
  ASSERT_TRUE(alice->wait_until([&] { return !of_type(*alice, "interaction").empty(); })) << alice->status();
  ASSERT_TRUE(dave->wait_until([&] { return !of_type(*dave, "interaction").empty(); })) << dave->status();
  EXPECT_EQ(of_type(*alice, "interaction")[0].value("clipboard", ""), "both");
  EXPECT_EQ(of_type(*dave, "interaction")[0].value("clipboard", ""), "off");
  EXPECT_TRUE(of_type(*dave, "interaction")[0].value("input", false)) << "dave may still type";

  auto owner = xclip_owner(display_->name(), "copied on the desktop");
  ASSERT_TRUE(alice->wait_until([&] {
    const auto c = of_type(*alice, "clipboard");
    return !c.empty() && c.back().value("text", "") == "copied on the desktop";
  })) << alice->status() << "\n" << voxl_->log();
  // A viewer joining now reaches every viewer with the new list, after the
  // copy: once dave has that list, a copy sent to him would have come first.
  const size_t lists = of_type(*dave, "viewers").size();
  auto third = viewer("alice", "alice-pw");
  ASSERT_TRUE(dave->wait_until([&] { return of_type(*dave, "viewers").size() > lists; })) << dave->status();
  EXPECT_TRUE(of_type(*dave, "clipboard").empty()) << "dave received the desktop's clipboard";

  // What dave pastes is refused, and the desktop's clipboard stays.
  dave->send_text(R"({"type":"clipboard","mime":"text/plain","text":"from dave"})");
  ASSERT_TRUE(dave->wait_until([&] {
    for (const auto& r : of_type(*dave, "refused"))
      if (r.value("what", "") == "clipboard") return true;
    return false;
  })) << dave->status();
  const XclipOutput held = run_xclip(display_->name(), {"-o"});
  EXPECT_EQ(held.out, "copied on the desktop");
}

TEST_F(UsersTest, FilesAndRecordingsFollowEachUsersRights) {
  const fs::path root = dir_ / "root";
  fs::create_directories(root / "Downloads");
  std::ofstream(root / "report.txt") << "the report";
  write_users(user_line("erin", "erin-pw", "view,control,files-down") + user_line("frank", "frank-pw", "all"));
  start({"--users-file", file(), "--files-root=" + root.string()});
  const auto as = [](const std::string& name, const std::string& password) {
    return Headers{{"Authorization", basic_authorization(name, password)}};
  };
  // What each may do, as the Files panel asks it.
  const auto caps = body_json(call("GET", "/files", as("erin", "erin-pw")));
  EXPECT_EQ(caps.value("download", false), true) << caps;
  EXPECT_EQ(caps.value("upload", true), false) << caps;
  EXPECT_EQ(body_json(call("GET", "/files", as("frank", "frank-pw"))).value("upload", false), true);
  // erin downloads, and may not upload.
  const HttpAnswer down = call("GET", "/files/download?path=report.txt", as("erin", "erin-pw"));
  EXPECT_EQ(down.status, 200);
  EXPECT_EQ(down.body, "the report");
  const std::string announce = R"({"path":"Downloads/x.txt","size":3})";
  const HttpAnswer up = call("POST", "/files/upload", announce, as("erin", "erin-pw"));
  expect_error(up, 403, "");
  EXPECT_NE(up.body.find("erin"), std::string::npos) << up.body;
  EXPECT_EQ(call("POST", "/files/upload", announce, as("frank", "frank-pw")).status, 201);
  // erin may not record; frank may.
  expect_error(call("POST", "/record/start", "", as("erin", "erin-pw")), 403, "");
  expect_error(call("GET", "/record?seconds=1", as("erin", "erin-pw")), 403, "");
  const HttpAnswer started = call("POST", "/record/start", "", as("frank", "frank-pw"));
  EXPECT_EQ(started.status, 200) << started.body;
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
