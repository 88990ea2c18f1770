// --audit-log on the real binary: a sign-in, a wrong password, a viewer
// connecting and leaving, a clipboard copy and the users file read again
// become chained lines; `voxl audit-verify` finds the file intact, and
// names the line that was edited, with exit code 1.
#include <gtest/gtest.h>

#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <cstring>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "command_output.h"
#include "endpoint_fixture.h"
#include "stream_client.h"
#include "xclip.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class AuditTest : public EndpointFixture {
 protected:
  AuditTest() {
    std::random_device r;
    dir_ = fs::temp_directory_path() / ("voxl-audit-" + std::to_string(r()) + std::to_string(r()));
    fs::create_directories(dir_);
  }
  ~AuditTest() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::vector<nlohmann::json> lines() const {
    std::ifstream in(dir_ / "audit.log");
    std::vector<nlohmann::json> out;
    for (std::string l; std::getline(in, l);) out.push_back(nlohmann::json::parse(l, nullptr, false));
    return out;
  }
  std::vector<nlohmann::json> events(const std::string& name) const {
    std::vector<nlohmann::json> out;
    for (const auto& j : lines())
      if (j.is_object() && j.value("event", "") == name) out.push_back(j);
    return out;
  }
  fs::path dir_;
};

TEST_F(AuditTest, WhatPeopleDidIsChainedAndAnEditIsFound) {
  const auto [line, made] = run_command("printf '%s\\n' 'alice-pw' | '" VOXL_BINARY "' hash-password alice view,control,clipboard");
  ASSERT_EQ(made, 0);
  const fs::path users = dir_ / "users";
  std::ofstream(users) << line;
  ::chmod(users.c_str(), 0600);
  const std::string log = (dir_ / "audit.log").string();
  start({"--users-file", users.string(), "--audit-log", log});

  EXPECT_EQ(call("GET", "/", {{"Authorization", basic_authorization("alice", "wrong")}}).status, 401);
  EXPECT_EQ(call("GET", "/", {{"Authorization", basic_authorization("alice", "alice-pw")}}).status, 200);
  {
    ClientOptions o = client_options();
    o.authorization = basic_authorization("alice", "alice-pw");
    StreamClient viewer(o);
    ASSERT_TRUE(viewer.wait_until([&] {
      for (const auto& m : viewer.texts())
        if (m.value("type", "") == "interaction") return true;
      return false;
    })) << viewer.status();
    auto owner = xclip_owner(display_->name(), "copied text");
    ASSERT_TRUE(viewer.wait_until([&] {
      for (const auto& m : viewer.texts())
        if (m.value("type", "") == "clipboard") return true;
      return false;
    })) << viewer.status();
  }
  // An agent's action: who, what and how it ended; never the typed text.
  const HttpAnswer typed = call("POST", "/input", R"({"type":"type","text":"secret typing"})",
                                {{"Authorization", basic_authorization("alice", "alice-pw")}});
  EXPECT_EQ(typed.status, 200) << typed.body;
  ASSERT_EQ(voxl_->stop(), 0) << voxl_->log();

  const auto [verified, code] = run_command("'" VOXL_BINARY "' audit-verify '" + log + "'");
  EXPECT_EQ(code, 0) << verified;
  EXPECT_NE(verified.find("intact"), std::string::npos) << verified;
  ASSERT_FALSE(events("sign_in").empty()) << verified;
  EXPECT_EQ(events("sign_in")[0].value("user", ""), "alice");
  ASSERT_FALSE(events("sign_in_failed").empty());
  EXPECT_EQ(events("sign_in_failed")[0].value("address", ""), "127.0.0.1");
  ASSERT_EQ(events("connect").size(), 1u);
  EXPECT_EQ(events("connect")[0].value("user", ""), "alice");
  EXPECT_EQ(events("leave").size(), 1u);
  ASSERT_FALSE(events("clipboard").empty());
  EXPECT_EQ(events("clipboard")[0].value("direction", ""), "out");
  EXPECT_EQ(events("clipboard")[0].value("bytes", 0), 11);
  std::stringstream whole;
  whole << std::ifstream(log).rdbuf();
  EXPECT_EQ(whole.str().find("copied text"), std::string::npos) << "the clipboard's content is never recorded";
  EXPECT_EQ(whole.str().find("alice-pw"), std::string::npos);
  ASSERT_EQ(events("request").size(), 1u);
  EXPECT_EQ(events("request")[0].value("path", ""), "/input");
  EXPECT_EQ(events("request")[0].value("user", ""), "alice");
  EXPECT_EQ(events("request")[0].value("status", 0), 200);
  EXPECT_EQ(whole.str().find("secret typing"), std::string::npos) << "typed text is never recorded";

  // An edit: the verifier names the line and fails.
  std::string text = whole.str();
  const size_t at = text.find("\"user\":\"alice\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 14, "\"user\":\"carol\"");
  std::ofstream(log, std::ios::trunc) << text;
  const size_t edited_line = size_t(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
  const auto [broken, broken_code] = run_command("'" VOXL_BINARY "' audit-verify '" + log + "'");
  EXPECT_EQ(broken_code, 1) << broken;
  EXPECT_NE(broken.find("line " + std::to_string(edited_line) + ":"), std::string::npos) << broken;
  EXPECT_NE(broken.find("edited"), std::string::npos) << broken;
}

// The entries a journal socket of the test's own received: each a map of
// its fields (the native protocol's NAME=value lines; values with a newline
// come in its binary form, which voxl's lines never need).
std::vector<std::map<std::string, std::string>> journal_entries(int sock) {
  std::vector<std::map<std::string, std::string>> out;
  std::vector<char> buf(1 << 20);
  for (;;) {
    const ssize_t n = ::recv(sock, buf.data(), buf.size(), MSG_DONTWAIT);
    if (n <= 0) return out;
    std::map<std::string, std::string> entry;
    std::istringstream in(std::string(buf.data(), size_t(n)));
    for (std::string line; std::getline(in, line);)
      if (const size_t eq = line.find('='); eq != std::string::npos) entry[line.substr(0, eq)] = line.substr(eq + 1);
    out.push_back(std::move(entry));
  }
}

TEST_F(AuditTest, TheJournalGetsTheChainedLines) {
  // A /run of the test's own, in a mount namespace voxl inherits, with a
  // socket where journald's would be.
  if (::geteuid() != 0) GTEST_SKIP() << "a journal socket of the test's own needs root (mount)";
  if (::unshare(CLONE_NEWNS) != 0) GTEST_SKIP() << "no mount namespace here: " << std::strerror(errno);
  ASSERT_EQ(::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr), 0) << std::strerror(errno);
  ASSERT_EQ(::mount("tmpfs", "/run", "tmpfs", 0, "mode=0755"), 0) << std::strerror(errno);
  fs::create_directories("/run/systemd/journal");
  const int sock = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, "/run/systemd/journal/socket");
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << std::strerror(errno);
  int size = 8 << 20;
  ::setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size);

  start({"--audit-journal"});
  {
    StreamClient viewer(client_options());
    ASSERT_TRUE(viewer.wait_until([&] { return !viewer.frames().empty(); })) << viewer.status();
  }
  ASSERT_EQ(voxl_->stop(), 0) << voxl_->log();
  const auto entries = journal_entries(sock);
  ::close(sock);
  std::string lines;
  std::vector<std::string> events;
  for (const auto& e : entries) {
    if (e.count("SYSLOG_IDENTIFIER") == 0 || e.at("SYSLOG_IDENTIFIER") != "voxl-audit") continue;
    lines += e.at("MESSAGE") + "\n";
    events.push_back(e.count("VOXL_EVENT") ? e.at("VOXL_EVENT") : "");
  }
  EXPECT_EQ(events, (std::vector<std::string>{"start", "connect", "leave", "stop"})) << lines;
  const fs::path trail = dir_ / "from-the-journal";
  std::ofstream(trail) << lines;
  const auto [verified, code] = run_command("'" VOXL_BINARY "' audit-verify '" + trail.string() + "'");
  EXPECT_EQ(code, 0) << verified << lines;
  ASSERT_EQ(::umount2("/run", MNT_DETACH), 0);
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
