// The Windows file jail under Wine, in the fixture run_platform_tests.sh
// makes (VOXL_JAIL_FIXTURE: Unix symlinks out of the shared folder and
// into it, which Wine follows without showing a reparse point), and in a
// fresh folder per test for what it creates: every way out fails, names
// Windows cannot hold safely are refused, and nothing outside is read,
// made or changed.
#include <gtest/gtest.h>
#include <windows.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "platform/file_jail.h"
#include "../common/read_jailed.h"
#include "platform/windows/wide_string.h"

namespace voxl::platform {
namespace {

// The fixture's base as a Windows path (Wine maps / to Z:), "" without it.
std::string fixture_base() {
  const char* unix_path = std::getenv("VOXL_JAIL_FIXTURE");
  if (!unix_path || !*unix_path) return {};
  std::string path = std::string("Z:") + unix_path;
  for (char& c : path)
    if (c == '/') c = '\\';
  return path;
}

std::string read_file(const std::string& path) {
  HANDLE h = CreateFileW(windows::to_wide(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING, 0,
                         nullptr);
  if (h == INVALID_HANDLE_VALUE) return "<missing>";
  char buf[256];
  DWORD n = 0;
  ReadFile(h, buf, sizeof buf, &n, nullptr);
  CloseHandle(h);
  return std::string(buf, n);
}

bool exists(const std::string& path) { return GetFileAttributesW(windows::to_wide(path).c_str()) != INVALID_FILE_ATTRIBUTES; }

class WindowsFileJail : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fixture_base();
    if (base_.empty()) GTEST_SKIP() << "no VOXL_JAIL_FIXTURE: run through tests/windows/run_platform_tests.sh";
    std::string error;
    jail_ = FileJail::open(base_ + "\\root", error);
    ASSERT_TRUE(jail_) << error;
  }

  std::string read_jailed(const std::string& rel, JailStatus& s) { return platform::read_jailed(*jail_, rel, s); }

  std::string base_;
  std::unique_ptr<FileJail> jail_;
};

TEST_F(WindowsFileJail, ReadsFilesBeneathTheRoot) {
  JailStatus s;
  EXPECT_EQ(read_jailed("docs/a.txt", s), "hello");
  EXPECT_TRUE(s) << s.message;
  EXPECT_EQ(read_jailed("DOCS/A.TXT", s), "hello") << "Windows names are found whatever their case";
  FileInfo info;
  ASSERT_TRUE(jail_->stat("docs", info));
  EXPECT_EQ(info.kind, FileInfo::Kind::kDirectory);
  ASSERT_TRUE(jail_->stat("", info));
  EXPECT_EQ(info.kind, FileInfo::Kind::kDirectory);
  ASSERT_TRUE(jail_->stat("docs/a.txt", info));
  EXPECT_EQ(info.kind, FileInfo::Kind::kFile);
  EXPECT_EQ(info.size, 5u);
  EXPECT_FALSE(info.version.empty());
  OwnedFile folder;
  EXPECT_EQ(jail_->open_read("docs", folder, info).error, JailError::kIsADirectory);
  EXPECT_EQ(jail_->stat("docs/missing.txt", info).error, JailError::kNotFound);
}

TEST_F(WindowsFileJail, NothingOutsideTheRootCanBeRead) {
  // Links: out of the root, and (unlike Linux) into it too: Windows' jail
  // follows none.
  for (const char* escape : {"up-link", "abs-link", "dir-link/x.txt", "dir-link", "in-link", "dangling",
                             "../secret.txt", "docs/../../secret.txt", "/etc/passwd", "docs\\..\\..\\secret.txt",
                             "C:/windows/win.ini", "\\\\?\\Z:\\etc\\passwd"}) {
    JailStatus s;
    EXPECT_EQ(read_jailed(escape, s), "") << escape;
    EXPECT_FALSE(s) << escape;
    FileInfo info;
    EXPECT_FALSE(jail_->stat(escape, info)) << escape;
  }
}

TEST_F(WindowsFileJail, RefusesNamesWindowsCannotHoldSafely) {
  FileInfo info;
  OwnedFile f;
  // Device names with and without extensions, streams, reserved
  // characters, a trailing dot or space, and an 8.3 alias of another entry.
  wchar_t shortened[MAX_PATH];
  const DWORD n = GetShortPathNameW(windows::to_wide(base_ + "\\root\\a long folder name").c_str(), shortened, MAX_PATH);
  ASSERT_GT(n, 0u);
  const std::string shortened_path = windows::to_utf8(std::wstring_view(shortened, n));
  const std::string alias = shortened_path.substr(shortened_path.rfind('\\') + 1);
  ASSERT_NE(alias, "a long folder name");
  ASSERT_TRUE(jail_->stat("a long folder name", info));
  const std::vector<std::string> bad_names = {
      "CON", "con.txt", "NUL", "aux.tar.gz", "COM1", "lpt9.log", "CONIN$", "docs/PRN", "docs/a.txt:secret",
      "docs/a.txt::$DATA", "a<b", "a|b", "a?", "a*", "a\"b", "docs\\a.txt", "trailing.", "trail ", "ctl\x01", alias};
  for (const std::string& bad : bad_names) {
    EXPECT_EQ(jail_->stat(bad, info).error, JailError::kNotAllowed) << bad;
    EXPECT_FALSE(jail_->create_new(bad, f)) << bad;
    EXPECT_FALSE(jail_->make_dirs(bad)) << bad;
    // The alias is a name Windows holds; it is refused only where it
    // stands for another entry.
    if (bad != alias) {
      EXPECT_EQ(FileJail::check_names(bad).error, JailError::kNotAllowed) << bad;
    }
  }
  EXPECT_FALSE(exists(base_ + "\\root\\docs\\a.txt:secret"));
  // The message names the part, for the viewer who chose it.
  EXPECT_NE(FileJail::check_names("photos/CON.txt/a.jpg").message.find("'CON.txt' is not a name Windows can hold"),
            std::string::npos);
  for (const char* good : {"a.txt", "docs/Grüße ✓.txt", "a (1).tar.gz", ".hidden", "CONSOLE.txt", "COM10", "x/y/z"})
    EXPECT_TRUE(FileJail::check_names(good)) << good;
}

TEST_F(WindowsFileJail, ListingShowsLinksAndOddNamesAsOther) {
  std::vector<DirEntry> entries;
  bool truncated = true;
  ASSERT_TRUE(jail_->list("", 100, entries, truncated));
  EXPECT_FALSE(truncated);
  std::map<std::string, FileInfo> by_name;
  for (const auto& e : entries) by_name[e.name] = e.info;
  EXPECT_EQ(by_name["docs"].kind, FileInfo::Kind::kDirectory);
  EXPECT_EQ(by_name["a long folder name"].kind, FileInfo::Kind::kDirectory);
  // Wine leaves a dangling symlink out of a listing; shown, it is kOther.
  if (by_name.count("dangling")) {
    EXPECT_EQ(by_name["dangling"].kind, FileInfo::Kind::kOther);
  }
  for (const char* other : {"up-link", "abs-link", "dir-link", "in-link", "trailing."}) {
    ASSERT_TRUE(by_name.count(other)) << other;
    EXPECT_EQ(by_name[other].kind, FileInfo::Kind::kOther) << other;
    EXPECT_EQ(by_name[other].size, 0u) << other << ": nothing of the target is told";
  }
  ASSERT_TRUE(jail_->list("docs", 100, entries, truncated));
  ASSERT_EQ(entries.size(), 2u);  // a.txt, deep
  EXPECT_FALSE(jail_->list("dir-link", 100, entries, truncated));
  ASSERT_TRUE(jail_->list("", 2, entries, truncated));
  EXPECT_TRUE(truncated);
  EXPECT_EQ(entries.size(), 2u);
}

// A listing is a fresh look each time, at the root too: what was made since
// the last one shows (the Files panel lists the root again after uploads).
TEST_F(WindowsFileJail, ListingTheRootAgainShowsWhatWasMadeSince) {
  auto names = [&] {
    std::vector<DirEntry> entries;
    bool truncated = true;
    EXPECT_TRUE(jail_->list("", 100, entries, truncated));
    std::vector<std::string> out;
    for (const auto& e : entries) out.push_back(e.name);
    return out;
  };
  const std::string made = "listed-" + std::to_string(GetTickCount64());
  const auto before = names();
  EXPECT_EQ(std::count(before.begin(), before.end(), made), 0);
  ASSERT_TRUE(jail_->make_dirs(made));
  const auto after = names();
  EXPECT_EQ(std::count(after.begin(), after.end(), made), 1);
  EXPECT_EQ(after.size(), before.size() + 1);
}

TEST_F(WindowsFileJail, CreatesOnlyInsideAndNeverReplaces) {
  // A folder of its own, so a second run in the same fixture starts clean.
  const std::string top = "made-" + std::to_string(GetTickCount64());
  OwnedFile f;
  ASSERT_TRUE(jail_->make_dirs(top + "/a/b"));
  EXPECT_TRUE(exists(base_ + "\\root\\" + top + "\\a\\b"));
  EXPECT_TRUE(jail_->make_dirs(top + "/a"));  // exists: fine
  EXPECT_FALSE(jail_->make_dirs("dir-link/new"));
  EXPECT_FALSE(exists(base_ + "\\outside-dir\\new"));
  EXPECT_EQ(jail_->make_dirs("docs/a.txt/x").error, JailError::kNotADirectory);

  ASSERT_TRUE(jail_->create_new(top + "/p.part", f));
  std::string error;
  ASSERT_TRUE(write_all(f.get(), "data", 4, error)) << error;
  ASSERT_TRUE(JailStatus(FileJail::sync(f)));
  f.reset();
  EXPECT_EQ(jail_->create_new(top + "/p.part", f).error, JailError::kExists);
  EXPECT_EQ(jail_->create_new(top + "/P.PART", f).error, JailError::kExists) << "the same name in another case";
  EXPECT_FALSE(jail_->create_new("dir-link/evil", f));
  EXPECT_FALSE(jail_->create_new("up-link", f));
  EXPECT_FALSE(jail_->create_new("dangling", f));
  EXPECT_EQ(read_file(base_ + "\\secret.txt"), "outside");
  EXPECT_FALSE(exists(base_ + "\\outside-dir\\evil"));

  EXPECT_EQ(jail_->rename_new(top + "/p.part", "docs/a.txt").error, JailError::kExists);
  EXPECT_EQ(jail_->rename_new(top + "/p.part", "DOCS/A.TXT").error, JailError::kExists);
  EXPECT_EQ(read_file(base_ + "\\root\\docs\\a.txt"), "hello");
  EXPECT_FALSE(jail_->rename_new(top + "/p.part", "dir-link/stolen"));
  EXPECT_FALSE(jail_->rename_new(top + "/p.part", top + "/CON"));
  EXPECT_FALSE(jail_->rename_new(top + "/p.part", top + "/p.txt:stream"));
  EXPECT_FALSE(exists(base_ + "\\outside-dir\\stolen"));
  ASSERT_TRUE(jail_->rename_new(top + "/p.part", top + "/a/p.txt"));
  EXPECT_EQ(read_file(base_ + "\\root\\" + top + "\\a\\p.txt"), "data");
  ASSERT_TRUE(jail_->remove(top + "/a/p.txt"));
  EXPECT_FALSE(exists(base_ + "\\root\\" + top + "\\a\\p.txt"));
  EXPECT_FALSE(jail_->remove("up-link"));
  EXPECT_FALSE(jail_->remove("dir-link/x.txt"));
  EXPECT_TRUE(exists(base_ + "\\secret.txt"));
  EXPECT_TRUE(exists(base_ + "\\outside-dir\\x.txt"));
}

TEST_F(WindowsFileJail, RefusesPathsThatAreNotPlainAndRootsThatAreNotFolders) {
  FileInfo info;
  for (const char* bad : {"/docs", "docs/", "docs//a.txt", "./docs", "docs/./a.txt", ".."})
    EXPECT_EQ(jail_->stat(bad, info).error, JailError::kNotAllowed) << bad;
  EXPECT_TRUE(jail_->free_bytes().has_value());
  std::string error;
  EXPECT_EQ(FileJail::open(base_ + "\\missing", error), nullptr);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(FileJail::open("relative\\path", error), nullptr);
  EXPECT_EQ(FileJail::open(base_ + "\\secret.txt", error), nullptr);
}

}  // namespace
}  // namespace voxl::platform
