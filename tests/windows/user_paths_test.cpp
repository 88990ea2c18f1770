// Paths as Windows spells them: which flag values are absolute, and the
// home folder the Files panel shows by default (the profile folder, read
// as UTF-16 so a name outside the code page survives).
#include <gtest/gtest.h>
#include <windows.h>

#include <string>

#include "platform/user_paths.h"
#include "platform/windows/wide_string.h"

namespace voxl::platform {
namespace {

TEST(WindowsUserPaths, AbsolutePathsAreADrivesOrAShares) {
  for (const char* good : {"C:\\", "C:\\Users\\ana", "d:/data", "\\\\server\\share", "//server/share"})
    EXPECT_TRUE(is_absolute_path(good)) << good;
  for (const char* bad : {"", "C:", "C:relative", "\\Users", "/tmp", "relative\\x", "\\\\\\x", "1:\\x", "é:\\x"})
    EXPECT_FALSE(is_absolute_path(bad)) << bad;
}

// Restores one environment variable when it goes.
class SavedVariable {
 public:
  explicit SavedVariable(const wchar_t* name) : name_(name) {
    wchar_t buffer[4096];
    const DWORD n = GetEnvironmentVariableW(name, buffer, DWORD(std::size(buffer)));
    had_ = n > 0 && n < std::size(buffer);
    if (had_) value_.assign(buffer, n);
  }
  ~SavedVariable() { SetEnvironmentVariableW(name_, had_ ? value_.c_str() : nullptr); }
  SavedVariable(const SavedVariable&) = delete;
  SavedVariable& operator=(const SavedVariable&) = delete;

 private:
  const wchar_t* name_;
  bool had_ = false;
  std::wstring value_;
};

TEST(WindowsUserPaths, HomeIsTheProfileFolderInUtf8) {
  SavedVariable saved(L"USERPROFILE");
  ASSERT_TRUE(SetEnvironmentVariableW(L"USERPROFILE", L"C:\\Users\\Jos\u00e9 \u0416"));
  EXPECT_EQ(home_folder(), "C:\\Users\\Jos\xc3\xa9 \xd0\x96");
  // None, or one that is not absolute: no default folder (file transfer
  // stays off until --files-root names one).
  ASSERT_TRUE(SetEnvironmentVariableW(L"USERPROFILE", L"Users\\nobody"));
  EXPECT_EQ(home_folder(), "");
  ASSERT_TRUE(SetEnvironmentVariableW(L"USERPROFILE", nullptr));
  EXPECT_EQ(home_folder(), "");
}

}  // namespace
}  // namespace voxl::platform
