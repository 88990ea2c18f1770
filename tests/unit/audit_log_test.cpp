// The audit log's writer on a real file: events become chained lines,
// written by its thread and flushed at the end; the chain goes on after a
// restart and across rotated files; fields cannot overwrite the chain's
// own members.
#include "audit/audit_log.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace voxl::audit {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;

class AuditLogTest : public ::testing::Test {
 protected:
  AuditLogTest() {
    std::random_device r;
    dir_ = fs::temp_directory_path() / ("voxl-audit-" + std::to_string(r()) + std::to_string(r()));
    fs::create_directories(dir_);
  }
  ~AuditLogTest() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  AuditOptions options(uint64_t rotate_bytes = 64 << 20) {
    AuditOptions o;
    o.path = (dir_ / "audit.log").string();
    o.rotate_bytes = rotate_bytes;
    o.keep = 3;
    return o;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  Logger log_ = std::make_shared<spdlog::logger>("audit-test", std::make_shared<spdlog::sinks::null_sink_mt>());
  fs::path dir_;
};

TEST_F(AuditLogTest, EventsBecomeChainedLinesInAPrivateFile) {
  {
    AuditLog a(options(), log_);
    a.record("sign_in", {{"user", "alice"}, {"address", "10.0.0.5"}});
    a.record("connect", {{"user", "alice"}, {"seq", 99}, {"hash", "forged"}});
  }
  const std::string text = read(dir_ / "audit.log");
  const ChainCheck c = check_chain(text);
  ASSERT_TRUE(c.ok) << c.reason << "\n" << text;
  EXPECT_EQ(c.lines, 2u);
  EXPECT_NE(text.find(R"("event":"sign_in")"), std::string::npos);
  EXPECT_NE(text.find(R"("time":"20)"), std::string::npos);
  EXPECT_EQ(text.find("forged"), std::string::npos) << "a field cannot stand in for the chain's own";
#ifndef _WIN32
  EXPECT_EQ(fs::status(dir_ / "audit.log").permissions() & (fs::perms::group_all | fs::perms::others_all),
            fs::perms::none);
#endif
}

TEST_F(AuditLogTest, TheChainGoesOnAfterARestart) {
  {
    AuditLog a(options(), log_);
    a.record("start");
  }
  {
    AuditLog a(options(), log_);
    a.record("start");
    a.record("stop");
  }
  const ChainCheck c = check_chain(read(dir_ / "audit.log"));
  EXPECT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.lines, 3u);
  EXPECT_EQ(c.end.seq, 3u);
}

TEST_F(AuditLogTest, ALineCutOffByACrashIsEndedAndTheChainGoesOn) {
  {
    AuditLog a(options(), log_);
    a.record("start");
  }
  std::ofstream(dir_ / "audit.log", std::ios::app) << R"({"seq":2,"prev":"00)";  // a crash mid-line
  {
    AuditLog a(options(), log_);
    a.record("after");
  }
  const std::string text = read(dir_ / "audit.log");
  const ChainCheck c = check_chain(text);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.bad_line, 2u) << "the cut-off line is reported where it is";
  const size_t after = text.rfind(R"({"seq":2,"prev":")");
  ASSERT_NE(after, std::string::npos);
  ChainState one = *last_state(text.substr(0, text.find('\n') + 1));
  EXPECT_TRUE(check_chain(text.substr(after), one).ok) << "the new line follows the last whole one";
}

TEST_F(AuditLogTest, RotatedFilesKeepOneChain) {
  {
    AuditLog a(options(600), log_);  // a few lines per file
    for (int i = 0; i < 12; ++i) {
      a.record("input", {{"kinds", "click"}, {"n", i}});
      ASSERT_TRUE(a.flush());  // one batch per line, so each can rotate
    }
    EXPECT_GT(a.health().rotations, 0u);
  }
  // Each file, oldest first, follows the one before it.
  std::optional<ChainState> from;
  size_t lines = 0, files = 0;
  for (const char* name : {"audit.log.3", "audit.log.2", "audit.log.1", "audit.log"}) {
    if (!fs::exists(dir_ / name)) continue;
    const ChainCheck c = check_chain(read(dir_ / name), from);
    ASSERT_TRUE(c.ok) << name << ": " << c.reason;
    lines += c.lines;
    ++files;
    from = c.end;
  }
  EXPECT_EQ(files, 4u) << "the live file and `keep` rotated ones";
  EXPECT_GE(lines, 4u);
  EXPECT_EQ(from->seq, 12u) << "the newest file ends the chain at the last event";
  EXPECT_FALSE(fs::exists(dir_ / "audit.log.4")) << "no more than `keep` rotated files";
}

TEST_F(AuditLogTest, AFileThatCannotBeOpenedIsRefusedByName) {
  AuditOptions o = options();
  o.path = (dir_ / "no-such-folder" / "audit.log").string();
  try {
    AuditLog a(o, log_);
    ADD_FAILURE() << "opened";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-folder"), std::string::npos) << e.what();
  }
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::audit
