#include "app/config.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace voxl::app {
namespace {

// Runs parse_command_line on "voxl" followed by `args`.
ParseOutcome parse(std::initializer_list<const char*> args) {
  std::vector<std::string> storage{"voxl"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  return parse_command_line(int(storage.size()), argv.data());
}

void expect_rejected(std::initializer_list<const char*> args) {
  const ParseOutcome out = parse(args);
  EXPECT_FALSE(out.config.has_value()) << *args.begin();
  EXPECT_NE(out.exit_code, 0) << *args.begin();
}

TEST(ParseSize, AcceptsWidthByHeight) {
  EXPECT_EQ(parse_size("1920x1080"), (Size{1920, 1080}));
  EXPECT_EQ(parse_size("1x1"), (Size{1, 1}));
  EXPECT_EQ(parse_size("16384x16384"), (Size{16384, 16384}));
}

TEST(ParseSize, RejectsZeroOrNegative) {
  EXPECT_FALSE(parse_size("0x5"));
  EXPECT_FALSE(parse_size("5x0"));
  EXPECT_FALSE(parse_size("-5x5"));
  EXPECT_FALSE(parse_size("5x-5"));
}

TEST(ParseSize, RejectsMissingParts) {
  EXPECT_FALSE(parse_size("12x"));
  EXPECT_FALSE(parse_size("x12"));
  EXPECT_FALSE(parse_size("x"));
  EXPECT_FALSE(parse_size(""));
  EXPECT_FALSE(parse_size("1920"));
}

TEST(ParseSize, RejectsJunk) {
  EXPECT_FALSE(parse_size("abcxdef"));
  EXPECT_FALSE(parse_size("1920x1080x24"));
  EXPECT_FALSE(parse_size("1920X1080"));
  EXPECT_FALSE(parse_size("1920*1080"));
  EXPECT_FALSE(parse_size(" 1920x1080"));
  EXPECT_FALSE(parse_size("1920x1080 "));
  EXPECT_FALSE(parse_size("1920 x 1080"));
  EXPECT_FALSE(parse_size("+1920x1080"));
}

TEST(ParseSize, RejectsTooLarge) {
  EXPECT_FALSE(parse_size("20000x10"));
  EXPECT_FALSE(parse_size("10x20000"));
  EXPECT_FALSE(parse_size("16385x16"));
  EXPECT_FALSE(parse_size("99999999999x10"));
}

TEST(ParseCommandLine, Defaults) {
  const ParseOutcome out = parse({});
  EXPECT_EQ(out.exit_code, 0);
  ASSERT_TRUE(out.config.has_value());
  const Config& c = *out.config;
  EXPECT_EQ(c.display, "");
  EXPECT_FALSE(c.xvfb.has_value());
  EXPECT_FALSE(c.capture_region.has_value());
  EXPECT_EQ(c.capture_window, 0u);
  EXPECT_EQ(c.framerate, 60);
  EXPECT_EQ(c.stats_seconds, 5);
  EXPECT_EQ(c.log_level, "info");
}

TEST(ParseCommandLine, Framerate) {
  const ParseOutcome out = parse({"--framerate=30"});
  EXPECT_EQ(out.exit_code, 0);
  ASSERT_TRUE(out.config.has_value());
  EXPECT_EQ(out.config->framerate, 30);

  const ParseOutcome spaced = parse({"--framerate", "240"});
  ASSERT_TRUE(spaced.config.has_value());
  EXPECT_EQ(spaced.config->framerate, 240);
}

TEST(ParseCommandLine, FramerateOutOfRangeIsRejected) {
  expect_rejected({"--framerate=0"});
  expect_rejected({"--framerate=241"});
  expect_rejected({"--framerate=-5"});
  expect_rejected({"--framerate=fast"});
}

TEST(ParseCommandLine, XvfbWithoutValueIsFullHd) {
  const ParseOutcome out = parse({"--xvfb"});
  EXPECT_EQ(out.exit_code, 0);
  ASSERT_TRUE(out.config.has_value());
  EXPECT_EQ(out.config->xvfb, (Size{1920, 1080}));
}

TEST(ParseCommandLine, XvfbWithoutValueFollowedByAnotherOption) {
  const ParseOutcome out = parse({"--xvfb", "--framerate=30"});
  EXPECT_EQ(out.exit_code, 0);
  ASSERT_TRUE(out.config.has_value());
  EXPECT_EQ(out.config->xvfb, (Size{1920, 1080}));
  EXPECT_EQ(out.config->framerate, 30);
}

TEST(ParseCommandLine, XvfbWithSize) {
  const ParseOutcome out = parse({"--xvfb=1280x720"});
  EXPECT_EQ(out.exit_code, 0);
  ASSERT_TRUE(out.config.has_value());
  EXPECT_EQ(out.config->xvfb, (Size{1280, 720}));
}

TEST(ParseCommandLine, XvfbWithBadSizeIsRejected) {
  expect_rejected({"--xvfb=bad"});
  expect_rejected({"--xvfb=0x720"});
  expect_rejected({"--xvfb=1920x1080x24"});
}

TEST(ParseCommandLine, XvfbAndDisplayExcludeEachOther) {
  expect_rejected({"--xvfb", "--display=:1"});
}

TEST(ParseCommandLine, Display) {
  const ParseOutcome out = parse({"--display=:7"});
  ASSERT_TRUE(out.config.has_value());
  EXPECT_EQ(out.config->display, ":7");
  EXPECT_FALSE(out.config->xvfb.has_value());
}

TEST(ParseCommandLine, CaptureRegion) {
  const ParseOutcome out = parse({"--capture-region=1,2,3,4"});
  EXPECT_EQ(out.exit_code, 0);
  ASSERT_TRUE(out.config.has_value());
  EXPECT_EQ(out.config->capture_region, (Rect{1, 2, 3, 4}));
}

TEST(ParseCommandLine, BadCaptureRegionIsRejected) {
  expect_rejected({"--capture-region=1,2,3"});
  expect_rejected({"--capture-region=1,2,0,4"});
  expect_rejected({"--capture-region=a,b,c,d"});
  expect_rejected({"--capture-region=1,2,3,4,5"});
}

TEST(ParseCommandLine, CaptureWindowInHexOrDecimal) {
  const ParseOutcome hex = parse({"--capture-window=0x2a"});
  EXPECT_EQ(hex.exit_code, 0);
  ASSERT_TRUE(hex.config.has_value());
  EXPECT_EQ(hex.config->capture_window, 42u);

  const ParseOutcome dec = parse({"--capture-window=42"});
  ASSERT_TRUE(dec.config.has_value());
  EXPECT_EQ(dec.config->capture_window, 42u);

  const ParseOutcome top = parse({"--capture-window=0xffffffff"});
  ASSERT_TRUE(top.config.has_value());
  EXPECT_EQ(top.config->capture_window, 0xffffffffu);
}

TEST(ParseCommandLine, BadCaptureWindowIsRejected) {
  expect_rejected({"--capture-window=zz"});
  expect_rejected({"--capture-window=0"});
  expect_rejected({"--capture-window=42abc"});
  expect_rejected({"--capture-window=0x100000000"});
  expect_rejected({"--capture-window=-1"});
}

TEST(ParseCommandLine, RegionAndWindowExcludeEachOther) {
  expect_rejected({"--capture-region=1,2,3,4", "--capture-window=42"});
}

TEST(ParseCommandLine, LogLevelAndStatsInterval) {
  const ParseOutcome out = parse({"--log-level=debug", "--stats-seconds=10"});
  ASSERT_TRUE(out.config.has_value());
  EXPECT_EQ(out.config->log_level, "debug");
  EXPECT_EQ(out.config->stats_seconds, 10);
  expect_rejected({"--log-level=verbose"});
  expect_rejected({"--stats-seconds=0"});
}

TEST(ParseCommandLine, UnknownOptionIsRejected) {
  expect_rejected({"--no-such-option"});
}

TEST(ParseCommandLine, HelpExitsSuccessfullyWithoutConfig) {
  testing::internal::CaptureStdout();
  const ParseOutcome out = parse({"--help"});
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_FALSE(out.config.has_value());
  EXPECT_NE(printed.find("--framerate"), std::string::npos);
}

}  // namespace
}  // namespace voxl::app
