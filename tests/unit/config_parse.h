// Parsing a command line in the config tests: what voxl makes of "voxl"
// followed by some arguments, accepted or refused with its message.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/config.h"

namespace voxl::app::config_testing {

// Runs parse_command_line on "voxl" followed by `args`.
inline ParseOutcome parse(std::vector<std::string> args) {
  args.insert(args.begin(), "voxl");
  std::vector<char*> argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  return parse_command_line(static_cast<int>(args.size()), argv.data());
}

// Parses and insists on success.
inline Config accepted(std::vector<std::string> args) {
  const ParseOutcome out = parse(args);
  EXPECT_EQ(out.exit_code, 0) << out.error;
  EXPECT_TRUE(out.error.empty()) << out.error;
  return out.config.value_or(Config{});
}

inline void expect_rejected(std::vector<std::string> args) {
  const std::string first = args.empty() ? "" : args.front();
  const ParseOutcome out = parse(std::move(args));
  EXPECT_FALSE(out.config.has_value()) << first;
  EXPECT_EQ(out.exit_code, 2) << first;
  EXPECT_FALSE(out.error.empty()) << first;
}

// Refused, and the message names `flag` and contains `says`.
inline void expect_refusal(std::vector<std::string> args, const std::string& flag, const std::string& says = "") {
  const std::string first = args.empty() ? "" : args.front();
  const ParseOutcome out = parse(std::move(args));
  EXPECT_FALSE(out.config.has_value()) << first;
  EXPECT_EQ(out.exit_code, 2) << first;
  EXPECT_NE(out.error.find(flag), std::string::npos) << first << " -> " << out.error;
  EXPECT_NE(out.error.find(says), std::string::npos) << first << " -> " << out.error;
}

// The flags of the notices of `kind` the parse made.
inline std::vector<std::string> notice_flags(const ParseOutcome& out, Notice::Kind kind) {
  std::vector<std::string> flags;
  for (const Notice& n : out.notices)
    if (n.kind == kind) flags.push_back(n.flag);
  return flags;
}

// A file with some text in it, removed at the end of the test.
class TempFile {
 public:
  TempFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "voxl-config-test-XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd >= 0) close(fd);
    path_ = pattern;
    std::ofstream(path_) << "-----BEGIN TEST-----\n";
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace voxl::app::config_testing
