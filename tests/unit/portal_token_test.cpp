// The desktop portal's restore token kept between runs (restore_token_file.h):
// where it lives, that it is written 0600 in a 0700 folder and read back,
// and that a file which is not a token (binary, too long, a link, empty) is
// not taken.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "platform/portal/portal_results.h"
#include "platform/portal/restore_token_file.h"

namespace voxl::platform::portal {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;

class PortalTokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/voxl-token-test-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(PortalTokenTest, LivesInTheStateFolder) {
  const char* old_state = std::getenv("XDG_STATE_HOME");
  const std::string saved = old_state ? old_state : "";
  setenv("XDG_STATE_HOME", dir_.c_str(), 1);
  EXPECT_EQ(restore_token_path(), dir_ + "/voxl/portal-restore-token");
  setenv("XDG_STATE_HOME", "relative/path", 1);  // not absolute: HOME's
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') {
    EXPECT_EQ(restore_token_path(), std::string(home) + "/.local/state/voxl/portal-restore-token");
  }
  if (old_state) setenv("XDG_STATE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_STATE_HOME");
}

TEST_F(PortalTokenTest, IsWrittenPrivatelyAndReadBack) {
  const std::string path = dir_ + "/state/voxl/portal-restore-token";
  std::string why;
  ASSERT_TRUE(write_restore_token(path, "3d4f-9a1c-token", why)) << why;
  EXPECT_EQ(read_restore_token(path), "3d4f-9a1c-token");
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(stat((dir_ + "/state/voxl").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  // A new token replaces the old one whole.
  ASSERT_TRUE(write_restore_token(path, "second", why)) << why;
  EXPECT_EQ(read_restore_token(path), "second");
  EXPECT_FALSE(fs::exists(path + ".new"));
}

TEST_F(PortalTokenTest, WhatIsNotATokenIsNotTaken) {
  const std::string path = dir_ + "/token";
  const auto write_raw = [&](const std::string& bytes) {
    fs::remove(path);
    std::ofstream(path, std::ios::binary) << bytes;
  };
  write_raw("");
  EXPECT_EQ(read_restore_token(path), "");
  write_raw("has space");
  EXPECT_EQ(read_restore_token(path), "");
  write_raw(std::string("bin\0ary", 7));
  EXPECT_EQ(read_restore_token(path), "");
  write_raw(std::string(kMaxTokenBytes + 1, 'a'));
  EXPECT_EQ(read_restore_token(path), "");
  write_raw(std::string(kMaxTokenBytes, 'a') + "\n");
  EXPECT_EQ(read_restore_token(path), std::string(kMaxTokenBytes, 'a'));
  // A link is not followed, nor a folder read.
  fs::remove(path);
  write_raw("target");
  fs::rename(path, dir_ + "/elsewhere");
  fs::create_symlink(dir_ + "/elsewhere", path);
  EXPECT_EQ(read_restore_token(path), "");
  EXPECT_EQ(read_restore_token(dir_), "");
  EXPECT_EQ(read_restore_token(dir_ + "/missing"), "");
  std::string why;
  EXPECT_FALSE(write_restore_token(dir_ + "/t", "two words", why));
  EXPECT_FALSE(why.empty());
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::platform::portal
