// What the command line says back: each bad value named, selkies' flag
// names, flags not active yet, the cross-checks between flags, unknown flags
// and --help.
#include "app/config.h"
#include "app/flag_compat.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/flag_set.h"
#include "app/flag_table.h"
#include "app/flag_values.h"
#include "config_parse.h"

namespace voxl::app {
namespace VOXL_TEST_FILE {

using config_testing::accepted;
using config_testing::expect_refusal;
using config_testing::expect_rejected;
using config_testing::notice_flags;
using config_testing::parse;
using config_testing::TempFile;

// ------------------------------------------------------- each bad value named

TEST(ConfigCommandLine, EachBadValueIsRefusedNamingTheFlag) {
  struct Case {
    const char* arg;
    const char* flag;
    const char* says;
  };
  const Case cases[] = {
      {"--port=-1", "--port", "0 to 65535"},
      {"--port=65536", "--port", "0 to 65535"},
      {"--encoder-threads=-1", "--encoder-threads", "0 to 64"},
      {"--max-kbps=99", "--max-kbps", "100 to 1000000"},
      {"--video-bitrate=fast", "--video-bitrate", "kbit/s"},
      {"--min-kbps=1000001", "--min-kbps", "100 to 1000000"},
      {"--paintover-crf=52", "--paintover-crf", "0 to 51"},
      {"--paintover-burst=0", "--paintover-burst", "1 to 30"},
      {"--paintover-delay-ms=-1", "--paintover-delay-ms", "0 to 10000"},
      {"--adaptive-threads=sometimes", "--adaptive-threads", "true or false"},
      {"--stripes=17", "--stripes", "1 to 16"},
      {"--convert-threads=0", "--convert-threads", "1 to 64"},
      {"--coalesce-us=100001", "--coalesce-us", "0 to 100000"},
      {"--scroll-px-per-notch=0", "--scroll-px-per-notch", "1 to 10000"},
      {"--audio-device-name=", "--audio-device-name", "non-empty"},
      {"--audio-bitrate=5999", "--audio-bitrate", "6000 to 510000"},
      {"--microphone-enabled=maybe", "--microphone-enabled", "true or false"},
      {"--microphone-fifo=mic.fifo", "--microphone-fifo", "absolute path"},
      {"--files-root=relative", "--files-root", "absolute path"},
      {"--upload-dir=../outside", "--upload-dir", "no empty, . or .. parts"},
      {"--upload-dir=/abs", "--upload-dir", "relative path"},
      {"--max-upload-mb=-1", "--max-upload-mb", "0 to 1048576"},
      {"--max-record-seconds=0", "--max-record-seconds", "1 to 86400"},
      {"--exec=", "--exec", "non-empty"},
      {"--resize-scale=0.1", "--resize-scale", "0.25 to 4"},
      {"--resize-scale=big", "--resize-scale", "0.25 to 4"},
      {"--round-corners=257", "--round-corners", "0 to 256"},
      {"--enable-https=sure", "--enable-https", "true or false"},
      {"--enable-basic-auth=2", "--enable-basic-auth", "true or false"},
      {"--basic-auth-password=", "--basic-auth-password", "non-empty"},
      {"--stats-seconds=0", "--stats-seconds", "1 to 3600"},
  };
  for (const Case& c : cases) expect_refusal({c.arg}, c.flag, c.says);
}

TEST(ConfigCommandLine, RefusalIsPrintedAsWellAsReturned) {
  ::testing::internal::CaptureStderr();
  const ParseOutcome out = parse({"--stripes=99"});
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_EQ(printed, "voxl: " + out.error + "\n");
}

TEST(ConfigCommandLine, FlagWithoutItsValueIsRefused) {
  expect_refusal({"--crf"}, "--crf");
  expect_refusal({"--port", "--crf=20"}, "--port");
}

// ------------------------------------------------------------ selkies names

TEST(ConfigCommandLine, SelkiesUnderscoreSpellings) {
  const Config c = accepted({
      "--addr", "127.0.0.2", "--port", "8080", "--framerate", "30", "--video_bitrate", "9000",
      "--video_crf", "20", "--enable_clipboard", "out", "--audio_enabled", "false", "--enable_resize",
      "true", "--microphone_enabled", "1", "--file_transfers", "upload", "--enable_basic_auth", "true",
      "--basic_auth_user", "ubuntu", "--basic_auth_password", "pw", "--allowed_origins",
      "https://a.example", "--audio_bitrate=96000", "--audio_device_name=sink.monitor",
      "--basic_auth_viewonly_password=viewer",
  });
  EXPECT_EQ(c.addr, "127.0.0.2");
  EXPECT_EQ(c.port, 8080);
  EXPECT_EQ(c.framerate, 30);
  EXPECT_EQ(c.max_kbps, 9000);
  EXPECT_EQ(c.crf, 20);
  EXPECT_EQ(c.clipboard, ClipboardMode::kOut);
  EXPECT_FALSE(c.audio);
  EXPECT_TRUE(c.resize);
  EXPECT_TRUE(c.microphone);
  EXPECT_EQ(c.file_transfers, (FileTransfers{true, false}));
  EXPECT_TRUE(c.basic_auth);
  EXPECT_EQ(c.basic_auth_user, "ubuntu");
  EXPECT_EQ(c.basic_auth_password, "pw");
  EXPECT_EQ(c.basic_auth_viewonly_password, "viewer");
  EXPECT_EQ(c.allowed_origins, (std::vector<std::string>{"https://a.example"}));
  EXPECT_EQ(c.audio_bitrate, 96000);
  EXPECT_EQ(c.audio_device, "sink.monitor");
}

TEST(ConfigCommandLine, SelkiesHttpsSpellings) {
  TempFile cert, key;
  const Config c = accepted({"--enable_https", "true", "--https_cert", cert.path(), "--https_key=" + key.path()});
  EXPECT_TRUE(c.https);
  EXPECT_EQ(c.https_cert, cert.path());
  EXPECT_EQ(c.https_key, key.path());
}

TEST(ConfigCommandLine, UnderscoreSpellingsOfVoxlFlags) {
  const Config c = accepted({"--max_kbps=5000", "--min_kbps", "1000", "--paintover_delay_ms=10",
                             "--log_level=debug", "--scroll_px_per_notch=90"});
  EXPECT_EQ(c.max_kbps, 5000);
  EXPECT_EQ(c.min_kbps, 1000);
  EXPECT_EQ(c.paintover_delay_ms, 10);
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.scroll_px_per_notch, 90);
}

TEST(ConfigCommandLine, UnderscoresInValuesAreKept) {
  const Config c = accepted({"--basic-auth-user=a_b", "--exec", "run_me --x_y", "--files_root=/srv/a_b",
                             "--audio-device-name", "my_sink"});
  EXPECT_EQ(c.basic_auth_user, "a_b");
  EXPECT_EQ(c.exec, "run_me --x_y");
  EXPECT_EQ(c.files_root, "/srv/a_b");
  EXPECT_EQ(c.audio_device, "my_sink");
}

TEST(ConfigFlagSpelling, OnlyFlagNamesAreRewritten) {
  const char* argv[] = {"prog_name", "--a_b=c_d", "-x_y", "value_1", "--e_f=", "--g=h=", "--", "--after_end"};
  const std::vector<std::string> out = normalise_flag_spelling(8, argv);
  EXPECT_EQ(out, (std::vector<std::string>{"prog_name", "--a-b=c_d", "-x_y", "value_1", "--e-f", "", "--g=h=",
                                           "--", "--after_end"}));
}

TEST(ConfigCommandLine, IgnoredSelkiesFlagWarnsExactlyOnce) {
  const ParseOutcome out =
      parse({"--ui_title", "My Desk", "--ui-title=Other", "--debug", "--cursor_size", "-1", "--turn_tls=true"});
  ASSERT_TRUE(out.config.has_value()) << out.error;
  const auto ignored = notice_flags(out, Notice::Kind::kIgnoredSelkiesFlag);
  EXPECT_EQ(ignored.size(), 4u);
  for (const char* flag : {"--ui-title", "--debug", "--cursor-size", "--turn-tls"})
    EXPECT_EQ(std::count(ignored.begin(), ignored.end(), flag), 1) << flag;
  for (const Notice& n : out.notices) {
    EXPECT_TRUE(n.text.starts_with(n.flag)) << n.text;
    EXPECT_NE(n.text.find("ignored"), std::string::npos) << n.text;
    EXPECT_EQ(n.text.find("My Desk"), std::string::npos) << "values stay out of the log: " << n.text;
  }
}

TEST(ConfigCommandLine, SelkiesFlagsWithAVoxlMeaningAreNotIgnored) {
  const ParseOutcome out = parse({"--video_bitrate=8000", "--enable_basic_auth=false", "--addr=0.0.0.0"});
  ASSERT_TRUE(out.config.has_value()) << out.error;
  EXPECT_TRUE(notice_flags(out, Notice::Kind::kIgnoredSelkiesFlag).empty());
}

TEST(ConfigFlagSpelling, IgnoredSelkiesFlagsAreAllDistinct) {
  std::vector<std::string_view> names(ignored_selkies_flags().begin(), ignored_selkies_flags().end());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  for (std::string_view name : names) {
    EXPECT_FALSE(name.empty());
    EXPECT_EQ(name.find('_'), std::string_view::npos) << name;
  }
}

// -------------------------------------------------------- not active notices

TEST(ConfigCommandLine, EveryFlagOfTheSeedTableIsActive) {
  EXPECT_TRUE(parse({}).notices.empty());
  const ParseOutcome out = parse({"--round-corners=4", "--stripes=2", "--stripes=3", "--adaptive-threads",
                                  "--crf=20", "--audio-enabled=false"});
  ASSERT_TRUE(out.config.has_value()) << out.error;
  EXPECT_TRUE(notice_flags(out, Notice::Kind::kNotActiveYet).empty());
  EXPECT_EQ(out.config->stripes, 3) << "the last one given";
  EXPECT_TRUE(pending_flags().empty());
}

TEST(ConfigCommandLine, AdaptiveThreadsIsActiveInSelkiesSpellingToo) {
  const ParseOutcome out = parse({"--adaptive_threads", "true"});
  ASSERT_TRUE(out.config.has_value()) << out.error;
  EXPECT_TRUE(notice_flags(out, Notice::Kind::kNotActiveYet).empty());
  EXPECT_TRUE(out.config->adaptive_threads);
}

TEST(ConfigCommandLine, WindowRoundingFlagsAreActive) {
  const ParseOutcome out = parse({"--round-corners=6", "--round-windows=Panel:0"});
  ASSERT_TRUE(out.config.has_value()) << out.error;
  EXPECT_TRUE(notice_flags(out, Notice::Kind::kNotActiveYet).empty());
}

TEST(ConfigCommandLine, ResizeFlagsAreActive) {
  const ParseOutcome out = parse({"--enable-resize", "--resize-scale=2"});
  ASSERT_TRUE(out.config.has_value()) << out.error;
  EXPECT_TRUE(notice_flags(out, Notice::Kind::kNotActiveYet).empty());
  EXPECT_TRUE(out.config->resize);
  EXPECT_DOUBLE_EQ(out.config->resize_scale.value_or(0), 2.0);
}

TEST(ConfigCommandLine, ControlTimeout) {
  EXPECT_EQ(accepted({}).control_timeout, 10);
  EXPECT_EQ(accepted({"--control-timeout=0"}).control_timeout, 0) << "never";
  EXPECT_EQ(accepted({"--control-timeout", "30"}).control_timeout, 30);
  expect_refusal({"--control-timeout=-1"}, "--control-timeout", "-1");
  expect_refusal({"--control-timeout=soon"}, "--control-timeout", "soon");
}

TEST(ConfigCommandLine, EveryPendingFlagIsADeclaredFlag) {
  ::testing::internal::CaptureStdout();
  parse({"--help"});
  const std::string help = ::testing::internal::GetCapturedStdout();
  for (const PendingFlag& p : pending_flags())
    EXPECT_NE(help.find(std::string(p.flag) + " "), std::string::npos) << p.flag;
}

// ----------------------------------------------------------- cross-checks

TEST(ConfigCommandLine, HttpsNeedsCertificateAndKey) {
  TempFile cert, key;
  expect_refusal({"--enable-https"}, "--enable-https", "--https-cert");
  expect_refusal({"--enable-https", "--https-cert=" + cert.path()}, "--enable-https", "--https-key");
  expect_refusal({"--enable-https", "--https-cert=/no/such/cert.pem", "--https-key=" + key.path()},
                 "--https-cert", "/no/such/cert.pem");
  expect_refusal({"--enable-https", "--https-cert=" + cert.path(), "--https-key=/no/such/key.pem"},
                 "--https-key", "/no/such/key.pem");
  const std::string dir = std::filesystem::temp_directory_path().string();
  expect_refusal({"--enable-https", "--https-cert=" + cert.path(), "--https-key=" + dir}, "--https-key",
                 "not a readable file");
  EXPECT_TRUE(accepted({"--enable-https", "--https-cert=" + cert.path(), "--https-key=" + key.path()}).https);
  // Files only matter when HTTPS is on.
  EXPECT_FALSE(accepted({"--https-cert=/no/such/cert.pem"}).https);
  EXPECT_FALSE(accepted({"--enable-https=false", "--https-key=/no/such/key.pem"}).https);
}

TEST(ConfigCommandLine, UnreadableCertificateIsRefused) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads any file";
  TempFile cert, key;
  std::filesystem::permissions(key.path(), std::filesystem::perms::none);
  expect_refusal({"--enable-https", "--https-cert=" + cert.path(), "--https-key=" + key.path()}, "--https-key",
                 "cannot be read");
}

TEST(ConfigCommandLine, BasicAuthNeedsAPassword) {
  expect_refusal({"--enable-basic-auth"}, "--enable-basic-auth", "--basic-auth-password");
  expect_refusal({"--enable-basic-auth", "--basic-auth-user=ann"}, "--basic-auth-password");
  EXPECT_TRUE(accepted({"--enable-basic-auth", "--basic-auth-password=pw"}).basic_auth);
  expect_refusal({"--enable-basic-auth", "--basic-auth-password=pw", "--basic-auth-viewonly-password=pw"},
                 "--basic-auth-viewonly-password", "differ");
  // Without basic auth the password is not needed.
  EXPECT_FALSE(accepted({"--enable-basic-auth=false"}).basic_auth);
}

// ---------------------------------------------------------- unknown and help

TEST(ConfigCommandLine, UnknownOptionIsRejected) {
  expect_refusal({"--no-such-option"}, "--no-such-option");
  expect_refusal({"--no_such_option"}, "--no-such-option");
  expect_rejected({"stray"});
}

TEST(ConfigCommandLine, HelpExitsSuccessfullyWithoutConfig) {
  ::testing::internal::CaptureStdout();
  const ParseOutcome out = parse({"--help"});
  const std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_FALSE(out.config.has_value());
  EXPECT_NE(printed.find("--framerate"), std::string::npos);
}

TEST(ConfigCommandLine, ServerLimitsDefaults) {
  const Config c = accepted({});
  EXPECT_EQ(c.max_connections, 256);
  EXPECT_EQ(c.max_connections_per_address, 128);
  EXPECT_EQ(c.max_record_mb, 2048);
  EXPECT_EQ(c.max_wait_seconds, 300);
}

TEST(ConfigCommandLine, RecordBufferFlags) {
  const Config off = accepted({});
  EXPECT_EQ(off.record_buffer_seconds, 0);
  EXPECT_EQ(off.record_buffer_mb, 64);
  const Config c = accepted({"--record-buffer-seconds=60", "--record-buffer-mb=200"});
  EXPECT_EQ(c.record_buffer_seconds, 60);
  EXPECT_EQ(c.record_buffer_mb, 200);
  expect_refusal({"--record-buffer-seconds=601"}, "--record-buffer-seconds");
  expect_refusal({"--record-buffer-seconds=-1"}, "--record-buffer-seconds");
  expect_refusal({"--record-buffer-mb=0"}, "--record-buffer-mb");
  expect_refusal({"--record-buffer-mb=1025"}, "--record-buffer-mb");
  expect_refusal({"--record-buffer-seconds=lots"}, "--record-buffer-seconds");
  // The bounds themselves are accepted.
  EXPECT_EQ(accepted({"--record-buffer-seconds=600"}).record_buffer_seconds, 600);
  EXPECT_EQ(accepted({"--record-buffer-mb=1"}).record_buffer_mb, 1);
  EXPECT_EQ(accepted({"--record-buffer-mb=1024"}).record_buffer_mb, 1024);
  // The help says what it costs.
  ::testing::internal::CaptureStdout();
  parse({"--help"});
  const std::string help = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(help.find("--record-buffer-seconds"), std::string::npos);
  EXPECT_NE(help.find("--record-buffer-mb"), std::string::npos);
  EXPECT_NE(help.find("key frame at least every 2 s"), std::string::npos) << help;
}

TEST(ConfigCommandLine, ServerLimitsFlags) {
  const Config c = accepted({"--max-connections=1000", "--max-connections-per-address=8", "--max-record-mb=10",
                             "--max-wait-seconds=3600"});
  EXPECT_EQ(c.max_connections, 1000);
  EXPECT_EQ(c.max_connections_per_address, 8);
  EXPECT_EQ(c.max_record_mb, 10);
  EXPECT_EQ(c.max_wait_seconds, 3600);
  for (const char* flag : {"--max-connections", "--max-connections-per-address", "--max-record-mb",
                           "--max-wait-seconds"}) {
    expect_refusal({std::string(flag) + "=0"}, flag);
    expect_refusal({std::string(flag) + "=-3"}, flag);
    expect_refusal({std::string(flag) + "=lots"}, flag);
  }
  expect_refusal({"--max-wait-seconds=86401"}, "--max-wait-seconds");
}

// The --help groups, in their order.
// ("Files" would not do: help2man takes a "Files:" heading for the man
// page's FILES section.)
constexpr const char* kHelpGroups[] = {
    "General",        "Display and capture",    "Input and clipboard", "Video and encoding",
    "Audio",          "Server and TLS",         "Access and credentials", "Limits",
    "Agents and recordings", "File transfer",   "Logs and metrics",    "Windows only",
    "Compatibility aliases"};

// Every flag declared (voxl's own, not the hidden selkies ones), in order.
std::vector<std::string> declared_flags() {
  CLI::App cli;
  Config config;
  FlagSet flags(cli);
  declare_flags(flags, config);
  return flags.names();
}

// The flags --help lists, by group: each option line ("  --name ..." or
// "  -h,--help ...") under the last "Group:" line before it.
std::vector<std::pair<std::string, std::string>> help_listing(const std::string& help) {
  std::vector<std::pair<std::string, std::string>> listed;
  std::string group;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == ':' && line.front() != ' ') {
      group = line.substr(0, line.size() - 1);
      continue;
    }
    const size_t dashes = line.find("--");
    if (dashes == std::string::npos || line.find_first_not_of(' ') != (line.starts_with("  -h") ? 2 : dashes))
      continue;
    const size_t end = line.find_first_of(" [", dashes);
    listed.emplace_back(group, line.substr(dashes, end - dashes));
  }
  return listed;
}

TEST(ConfigCommandLine, HelpListsEveryFlagOnceUnderItsGroup) {
  ::testing::internal::CaptureStdout();
  parse({"--help"});
  const std::string help = ::testing::internal::GetCapturedStdout();
  const auto listed = help_listing(help);
  std::vector<std::string> groups;
  for (const auto& [group, flag] : listed) {
    EXPECT_FALSE(group.empty()) << flag << " is listed before any group";
    if (groups.empty() || groups.back() != group) groups.push_back(group);
  }
  // Each group is one block, in the documented order.
  EXPECT_EQ(groups, std::vector<std::string>(std::begin(kHelpGroups), std::end(kHelpGroups)));
  // Every declared flag once, and nothing else but --help and --version.
  std::vector<std::string> expected = declared_flags();
  expected.insert(expected.end(), {"--help", "--version"});
  std::vector<std::string> shown;
  for (const auto& entry : listed) shown.push_back(entry.second);
  std::sort(expected.begin(), expected.end());
  std::sort(shown.begin(), shown.end());
  EXPECT_EQ(shown, expected);
  // A few flags where a reader looks for them.
  const std::map<std::string, std::string> placed = {
      {"--check-config", "General"},
      {"--xvfb", "Display and capture"},
      {"--exec", "Display and capture"},
      {"--max-kbps", "Video and encoding"},
      {"--https-cert", "Server and TLS"},
      {"--allowed-origins", "Access and credentials"},
      {"--max-connections-per-address", "Limits"},
      {"--record-buffer-seconds", "Agents and recordings"},
      {"--metrics-addr", "Logs and metrics"},
      {"--microphone-device", "Windows only"},
      {"--video-bitrate", "Compatibility aliases"},
      {"--video-crf", "Compatibility aliases"}};
  for (const auto& [group, flag] : listed) {
    if (placed.contains(flag)) {
      EXPECT_EQ(group, placed.at(flag)) << flag;
    }
  }
}

TEST(ConfigCommandLine, MinKbpsWinsOverAnAliasRangeDeclaredAfterIt) {
  // --video-bitrate is listed under the aliases, after --min-kbps; the
  // floor given on its own still wins over the range's.
  EXPECT_EQ(accepted({"--video-bitrate=3000-9000", "--min-kbps=4000"}).min_kbps, 4000);
  EXPECT_EQ(accepted({"--min-kbps=4000", "--video-bitrate=3000-9000"}).min_kbps, 4000);
}

TEST(ConfigCommandLine, HelpIsGroupedWithDefaults) {
  ::testing::internal::CaptureStdout();
  parse({"--help"});
  const std::string help = ::testing::internal::GetCapturedStdout();
  size_t last = 0;
  for (const char* group : kHelpGroups) {
    const size_t at = help.find(std::string("\n") + group + ":\n");
    ASSERT_NE(at, std::string::npos) << group;
    EXPECT_GT(at, last) << group << " out of order";
    last = at;
  }
  for (const char* shown : {"(default: 6901)", "(default: 30000)", "(default: ultrafast)", "(default: 1.5)",
                            "(default: upload,download)", "(default: true)"})
    EXPECT_NE(help.find(shown), std::string::npos) << shown;
  // Ignored selkies flags stay out of the help.
  EXPECT_EQ(help.find("--ui-title"), std::string::npos);
}

TEST(ConfigCommandLine, VersionExitsSuccessfully) {
  ::testing::internal::CaptureStdout();
  const ParseOutcome out = parse({"--version"});
  const std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_FALSE(out.config.has_value());
  EXPECT_NE(printed.find("voxl"), std::string::npos);
}

}  // namespace
}  // namespace voxl::app
