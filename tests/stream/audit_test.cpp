// --audit-log on the real binary: a sign-in, a wrong password, a viewer
// connecting and leaving, a clipboard copy and the users file read again
// become chained lines; `voxl audit-verify` finds the file intact, and
// names the line that was edited, with exit code 1.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "endpoint_fixture.h"
#include "stream_client.h"
#include "xclip.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Runs `command` and returns what it printed and its exit code.
std::pair<std::string, int> run(const std::string& command) {
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) return {"", -1};
  std::string out;
  char buf[512];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

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
  const auto [line, made] = run("printf '%s\\n' 'alice-pw' | '" VOXL_BINARY "' hash-password alice view,control,clipboard");
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

  const auto [verified, code] = run("'" VOXL_BINARY "' audit-verify '" + log + "'");
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
  const auto [broken, broken_code] = run("'" VOXL_BINARY "' audit-verify '" + log + "'");
  EXPECT_EQ(broken_code, 1) << broken;
  EXPECT_NE(broken.find("line " + std::to_string(edited_line) + ":"), std::string::npos) << broken;
  EXPECT_NE(broken.find("edited"), std::string::npos) << broken;
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::testing
