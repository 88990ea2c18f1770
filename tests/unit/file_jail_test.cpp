// The jail on the real kernel, in a fresh folder per test: every way out
// of the root fails, and nothing outside it is read, made or changed.
#include "platform/file_jail.h"
#include "../common/read_jailed.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace voxl::platform {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;

class FileJailTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device r;
    base_ = fs::temp_directory_path() / ("voxl-jail-" + std::to_string(r()) + std::to_string(r()));
    root_ = base_ / "root";
    fs::create_directories(root_ / "docs" / "deep");
    write(root_ / "docs" / "a.txt", "hello");
    write(base_ / "secret.txt", "outside");
    fs::create_directories(base_ / "outside-dir");
    write(base_ / "outside-dir" / "x.txt", "out");
    fs::create_symlink("../secret.txt", root_ / "up-link");
    fs::create_symlink(base_ / "secret.txt", root_ / "abs-link");
    fs::create_symlink("../outside-dir", root_ / "dir-link");
    fs::create_symlink("docs/a.txt", root_ / "in-link");
    fs::create_symlink("nowhere", root_ / "dangling");
    std::string error;
    jail_ = FileJail::open(root_.string(), error);
    ASSERT_TRUE(jail_) << error;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(base_, ec);
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  std::string read_jailed(const std::string& rel, JailStatus& s) { return platform::read_jailed(*jail_, rel, s); }

  fs::path base_, root_;
  std::unique_ptr<FileJail> jail_;
};

TEST_F(FileJailTest, ReadsFilesBeneathTheRoot) {
  JailStatus s;
  EXPECT_EQ(read_jailed("docs/a.txt", s), "hello");
  EXPECT_TRUE(s) << s.message;
  EXPECT_EQ(read_jailed("in-link", s), "hello");  // a symlink that stays inside is followed
  EXPECT_TRUE(s) << s.message;
  FileInfo info;
  ASSERT_TRUE(jail_->stat("docs", info));
  EXPECT_EQ(info.kind, FileInfo::Kind::kDirectory);
  ASSERT_TRUE(jail_->stat("", info));
  EXPECT_EQ(info.kind, FileInfo::Kind::kDirectory);
}

TEST_F(FileJailTest, NothingOutsideTheRootCanBeRead) {
  for (const char* escape : {"up-link", "abs-link", "dir-link/x.txt", "../secret.txt", "docs/../../secret.txt",
                             "/etc/passwd", "dangling"}) {
    JailStatus s;
    EXPECT_EQ(read_jailed(escape, s), "") << escape;
    EXPECT_FALSE(s) << escape;
    FileInfo info;
    EXPECT_FALSE(jail_->stat(escape, info)) << escape;
  }
}

TEST_F(FileJailTest, ListingDescribesSymlinksByTheirTargetsInsideOnly) {
  std::vector<DirEntry> entries;
  bool truncated = true;
  ASSERT_TRUE(jail_->list("", 100, entries, truncated));
  EXPECT_FALSE(truncated);
  std::map<std::string, FileInfo::Kind> kinds;
  for (const auto& e : entries) kinds[e.name] = e.info.kind;
  EXPECT_EQ(kinds["docs"], FileInfo::Kind::kDirectory);
  EXPECT_EQ(kinds["in-link"], FileInfo::Kind::kFile);
  EXPECT_EQ(kinds["up-link"], FileInfo::Kind::kOther);
  EXPECT_EQ(kinds["abs-link"], FileInfo::Kind::kOther);
  EXPECT_EQ(kinds["dir-link"], FileInfo::Kind::kOther);
  EXPECT_EQ(kinds["dangling"], FileInfo::Kind::kOther);
  EXPECT_EQ(entries.size(), 6u);
  EXPECT_FALSE(jail_->list("dir-link", 100, entries, truncated));
  EXPECT_FALSE(jail_->list("..", 100, entries, truncated));
  ASSERT_TRUE(jail_->list("", 2, entries, truncated));
  EXPECT_TRUE(truncated);
  EXPECT_EQ(entries.size(), 2u);
}

TEST_F(FileJailTest, CreatesOnlyInsideAndNeverReplaces) {
  OwnedFile f;
  ASSERT_TRUE(jail_->make_dirs("Downloads/a/b"));
  EXPECT_TRUE(fs::is_directory(root_ / "Downloads" / "a" / "b"));
  EXPECT_TRUE(jail_->make_dirs("Downloads/a"));  // exists: fine
  EXPECT_FALSE(jail_->make_dirs("dir-link/new"));
  EXPECT_FALSE(fs::exists(base_ / "outside-dir" / "new"));
  EXPECT_EQ(jail_->make_dirs("docs/a.txt/x").error, JailError::kNotADirectory);

  ASSERT_TRUE(jail_->create_new("Downloads/p.part", f));
  std::string error;
  ASSERT_TRUE(write_all(f.get(), "data", 4, error)) << error;
  EXPECT_EQ(jail_->create_new("Downloads/p.part", f).error, JailError::kExists);
  EXPECT_FALSE(jail_->create_new("dir-link/evil", f));
  EXPECT_FALSE(jail_->create_new("up-link", f));  // not through a symlink either
  EXPECT_EQ(read(base_ / "secret.txt"), "outside");
  // Never executable, whatever the umask allows.
  const auto perms = fs::status(root_ / "Downloads" / "p.part").permissions();
  EXPECT_EQ(perms & (fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec), fs::perms::none);

  EXPECT_EQ(jail_->rename_new("Downloads/p.part", "docs/a.txt").error, JailError::kExists);
  EXPECT_EQ(read(root_ / "docs" / "a.txt"), "hello");
  EXPECT_FALSE(jail_->rename_new("Downloads/p.part", "dir-link/stolen"));
  ASSERT_TRUE(jail_->rename_new("Downloads/p.part", "Downloads/p.txt"));
  EXPECT_EQ(read(root_ / "Downloads" / "p.txt"), "data");
  ASSERT_TRUE(jail_->remove("Downloads/p.txt"));
  EXPECT_FALSE(fs::exists(root_ / "Downloads" / "p.txt"));
  EXPECT_FALSE(jail_->remove("up-link/x"));
  EXPECT_TRUE(fs::exists(base_ / "secret.txt"));
}

TEST_F(FileJailTest, RefusesPathsThatAreNotPlain) {
  FileInfo info;
  OwnedFile f;
  for (const char* bad : {"/docs", "docs/", "docs//a.txt", "./docs", "docs/./a.txt", ".."})
    EXPECT_EQ(jail_->stat(bad, info).error, JailError::kNotAllowed) << bad;
  EXPECT_FALSE(jail_->create_new("", f));
}

TEST_F(FileJailTest, ReportsFreeSpaceAndRefusesAMissingRoot) {
  EXPECT_TRUE(jail_->free_bytes().has_value());
  std::string error;
  EXPECT_EQ(FileJail::open((base_ / "missing").string(), error), nullptr);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(FileJail::open("relative/path", error), nullptr);
}

// Linux holds any name but '/' and NUL: what Windows refuses is fine here.
TEST(FileJailNames, LinuxHoldsEveryPlainName) {
  for (const char* good : {"CON.txt", "a:b", "trailing.", "x/a<b>|?*", "Grüße ✓.txt"})
    EXPECT_TRUE(FileJail::check_names(good)) << good;
  for (const char* bad : {"../x", "a//b", "/abs", "a/", "./a"})
    EXPECT_EQ(FileJail::check_names(bad).error, JailError::kNotAllowed) << bad;
}

}  // namespace
}  // namespace voxl::platform
