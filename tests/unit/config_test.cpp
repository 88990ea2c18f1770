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

#include "app/flag_compat.h"
#include "app/flag_set.h"
#include "app/flag_table.h"
#include "app/flag_values.h"
#include "config_parse.h"

namespace voxl::app {
namespace VOXL_TEST_FILE {

using config_testing::accepted;
using config_testing::expect_refusal;
using config_testing::expect_rejected;
using config_testing::parse;

std::vector<std::string> notice_flags(const ParseOutcome& out, Notice::Kind kind) {
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

// ---------------------------------------------------------------- parse_size

TEST(ConfigParseSize, AcceptsWidthByHeight) {
  EXPECT_EQ(parse_size("1920x1080"), (Size{1920, 1080}));
  EXPECT_EQ(parse_size("1x1"), (Size{1, 1}));
  EXPECT_EQ(parse_size("16384x16384"), (Size{16384, 16384}));
}

TEST(ConfigParseSize, RejectsZeroOrNegative) {
  EXPECT_FALSE(parse_size("0x5"));
  EXPECT_FALSE(parse_size("5x0"));
  EXPECT_FALSE(parse_size("-5x5"));
  EXPECT_FALSE(parse_size("5x-5"));
}

TEST(ConfigParseSize, RejectsMissingParts) {
  EXPECT_FALSE(parse_size("12x"));
  EXPECT_FALSE(parse_size("x12"));
  EXPECT_FALSE(parse_size("x"));
  EXPECT_FALSE(parse_size(""));
  EXPECT_FALSE(parse_size("1920"));
}

TEST(ConfigParseSize, RejectsJunk) {
  EXPECT_FALSE(parse_size("abcxdef"));
  EXPECT_FALSE(parse_size("1920x1080x24"));
  EXPECT_FALSE(parse_size("1920X1080"));
  EXPECT_FALSE(parse_size("1920*1080"));
  EXPECT_FALSE(parse_size(" 1920x1080"));
  EXPECT_FALSE(parse_size("1920x1080 "));
  EXPECT_FALSE(parse_size("1920 x 1080"));
  EXPECT_FALSE(parse_size("+1920x1080"));
}

TEST(ConfigParseSize, RejectsTooLarge) {
  EXPECT_FALSE(parse_size("20000x10"));
  EXPECT_FALSE(parse_size("10x20000"));
  EXPECT_FALSE(parse_size("16385x16"));
  EXPECT_FALSE(parse_size("99999999999x10"));
}

// ------------------------------------------------------------- value parsers

TEST(ConfigFlagValues, RangeSpecForms) {
  const auto plain = parse_range_spec("30", 1, 240);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->value, 30);
  EXPECT_FALSE(plain->range);

  const auto range = parse_range_spec("10-50", 1, 240);
  ASSERT_TRUE(range);
  EXPECT_FALSE(range->value);
  EXPECT_EQ(range->range, (IntRange{10, 50}));

  const auto both = parse_range_spec("30,10-50", 1, 240);
  ASSERT_TRUE(both);
  EXPECT_EQ(both->value, 30);
  EXPECT_EQ(both->range, (IntRange{10, 50}));
}

TEST(ConfigFlagValues, RangeSpecRefusals) {
  for (const char* bad : {"", "50-10", "0-60", "10-241", "10-", "-10", "a-b", "10-20-30", "60,10-50",
                          "30,", ",10-50", "30,40", "+30", "3 0", "30.5"})
    EXPECT_FALSE(parse_range_spec(bad, 1, 240)) << bad;
}

TEST(ConfigFlagValues, Booleans) {
  for (const char* yes : {"", "true", "TRUE", "1", "yes", "on", "On"}) EXPECT_EQ(parse_bool(yes), true) << yes;
  for (const char* no : {"false", "False", "0", "no", "off"}) EXPECT_EQ(parse_bool(no), false) << no;
  for (const char* bad : {"maybe", "2", "t", " true", "yes!"}) EXPECT_FALSE(parse_bool(bad)) << bad;
}

TEST(ConfigFlagValues, ContainedRelativePaths) {
  EXPECT_TRUE(is_contained_relative_path("Downloads"));
  EXPECT_TRUE(is_contained_relative_path("a/b/c"));
  EXPECT_TRUE(is_contained_relative_path("a..b"));
  for (const char* bad : {"", "/abs", "..", "../x", "a/../b", "./a", "a/.", "a//b", "a/", "a\\b", "C:x", "a:b"})
    EXPECT_FALSE(is_contained_relative_path(bad)) << bad;
}

TEST(ConfigFlagValues, CongestionControlNames) {
  for (const char* good : {"bbr", "cubic", "reno", "bbr2", "tcp_x-1", "abcdefghijklmno"})
    EXPECT_TRUE(is_congestion_control_name(good)) << good;
  for (const char* bad : {"", "BBR", "bb r", "abcdefghijklmnop", "cubic;", "c\xc3\xbc", "../bbr"})
    EXPECT_FALSE(is_congestion_control_name(bad)) << bad;
}

TEST(ConfigCommandLine, TcpCongestion) {
  EXPECT_FALSE(parse({}).config->tcp_congestion) << "unset: bbr, quietly the system's where refused";
  EXPECT_EQ(parse({"--tcp-congestion=cubic"}).config->tcp_congestion, "cubic");
  EXPECT_EQ(parse({"--tcp-congestion", "system"}).config->tcp_congestion, "system");
  const ParseOutcome bad = parse({"--tcp-congestion=Cubic!"});
  EXPECT_FALSE(bad.config.has_value());
  EXPECT_NE(bad.error.find("--tcp-congestion"), std::string::npos) << bad.error;
}

// ------------------------------------------------------------------ defaults

TEST(ConfigCommandLine, Defaults) {
  const ParseOutcome out = parse({});
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_TRUE(out.error.empty());
  EXPECT_TRUE(out.notices.empty());
  ASSERT_TRUE(out.config.has_value());
  const Config& c = *out.config;
  EXPECT_EQ(c.addr, "0.0.0.0");
  EXPECT_EQ(c.port, 6901);
  EXPECT_FALSE(c.https);
  EXPECT_EQ(c.https_cert, "");
  EXPECT_EQ(c.https_key, "");
  EXPECT_FALSE(c.basic_auth);
  EXPECT_EQ(c.basic_auth_user, "voxl");
  EXPECT_EQ(c.basic_auth_password, "");
  EXPECT_EQ(c.basic_auth_viewonly_password, "");
  EXPECT_TRUE(c.allowed_origins.empty());
  EXPECT_EQ(c.framerate, 60);
  EXPECT_EQ(c.framerate_min, 20);
  EXPECT_EQ(c.preset, "ultrafast");
  EXPECT_EQ(c.encoder_threads, 0);  // chosen per picture size and frame rate
  EXPECT_EQ(c.crf, 24);
  EXPECT_EQ(c.max_kbps, 30000);
  EXPECT_EQ(c.min_kbps, 2000);
  EXPECT_EQ(c.paintover_crf, 16);
  EXPECT_EQ(c.paintover_burst, 3);
  EXPECT_EQ(c.paintover_delay_ms, 150);
  EXPECT_FALSE(c.adaptive_threads);
  EXPECT_EQ(c.stripes, 1);
  EXPECT_EQ(c.convert_threads, 4);
  EXPECT_EQ(c.coalesce_us, 500);
  EXPECT_EQ(c.clipboard, ClipboardMode::kBoth);
  EXPECT_EQ(c.scroll_px_per_notch, 180);
  EXPECT_TRUE(c.audio);
  EXPECT_EQ(c.audio_device, "output.monitor");
  EXPECT_EQ(c.audio_bitrate, 128000);
  EXPECT_FALSE(c.microphone);
  EXPECT_EQ(c.microphone_fifo, "") << "empty: $XDG_RUNTIME_DIR/voxl-mic.fifo, resolved at start";
  EXPECT_EQ(c.file_transfers, (FileTransfers{true, true}));
  EXPECT_EQ(c.files_root, default_files_root());
  EXPECT_EQ(c.upload_dir, "Downloads");
  EXPECT_EQ(c.max_upload_mb, 0);
  EXPECT_EQ(c.exec, "");
  EXPECT_EQ(c.max_record_seconds, 300);
  EXPECT_EQ(c.display, "");
  EXPECT_FALSE(c.xvfb.has_value());
  EXPECT_FALSE(c.capture_region.has_value());
  EXPECT_EQ(c.capture_window, 0u);
  EXPECT_FALSE(c.resize);
  EXPECT_FALSE(c.resize_scale.has_value()) << "1.5, or the display's scaling on Windows";
  EXPECT_EQ(c.round_corners, 0);
  EXPECT_TRUE(c.round_windows.empty());
  EXPECT_EQ(c.stats_seconds, 5);
  EXPECT_EQ(c.log_level, "info");
}

TEST(ConfigCommandLine, FilesRootDefaultsToHome) {
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] == '/') {
    EXPECT_EQ(default_files_root(), home);
  } else {
    EXPECT_EQ(default_files_root(), "");
  }
}

// ----------------------------------------------------- every flag, non-default

TEST(ConfigCommandLine, EveryFlagWithANonDefaultValue) {
  TempFile cert, key;
  const Config c = accepted({
      "--addr=127.0.0.1", "--port=8443", "--enable-https", "--https-cert=" + cert.path(),
      "--https-key", key.path(), "--enable-basic-auth=yes", "--basic-auth-user=ann",
      "--basic-auth-password=s3cret", "--basic-auth-viewonly-password=look",
      "--allowed-origins=https://a.example,http://b.example:8080",
      "--framerate=20-50", "--preset=veryfast", "--encoder-threads=3", "--crf=30",
      "--max-kbps=20000", "--min-kbps=500", "--paintover-crf=10", "--paintover-burst=5",
      "--paintover-delay-ms=300", "--adaptive-threads", "--stripes=4", "--convert-threads=2",
      "--coalesce-us=700", "--enable-clipboard=in", "--scroll-px-per-notch=120",
      "--audio-enabled=false", "--audio-device-name=mic.monitor", "--audio-bitrate=64000",
      "--microphone-enabled=on", "--microphone-fifo=/run/mic.fifo", "--file-transfers=download",
      "--files-root=/srv/files", "--upload-dir=in/box", "--max-upload-mb=100", "--exec=xterm -e top",
      "--max-record-seconds=60", "--xvfb=1280x720", "--capture-region=1,2,30,40",
      "--enable-resize", "--resize-scale=2", "--round-corners=8", "--round-windows=Terminal:4,Note: a:0",
      "--stats-seconds=9", "--log-level=warn",
  });
  EXPECT_EQ(c.addr, "127.0.0.1");
  EXPECT_EQ(c.port, 8443);
  EXPECT_TRUE(c.https);
  EXPECT_EQ(c.https_cert, cert.path());
  EXPECT_EQ(c.https_key, key.path());
  EXPECT_TRUE(c.basic_auth);
  EXPECT_EQ(c.basic_auth_user, "ann");
  EXPECT_EQ(c.basic_auth_password, "s3cret");
  EXPECT_EQ(c.basic_auth_viewonly_password, "look");
  EXPECT_EQ(c.allowed_origins, (std::vector<std::string>{"https://a.example", "http://b.example:8080"}));
  EXPECT_EQ(c.framerate, 50);
  EXPECT_EQ(c.framerate_min, 20);
  EXPECT_EQ(c.preset, "veryfast");
  EXPECT_EQ(c.encoder_threads, 3);
  EXPECT_EQ(c.crf, 30);
  EXPECT_EQ(c.max_kbps, 20000);
  EXPECT_EQ(c.min_kbps, 500);
  EXPECT_EQ(c.paintover_crf, 10);
  EXPECT_EQ(c.paintover_burst, 5);
  EXPECT_EQ(c.paintover_delay_ms, 300);
  EXPECT_TRUE(c.adaptive_threads);
  EXPECT_EQ(c.stripes, 4);
  EXPECT_EQ(c.convert_threads, 2);
  EXPECT_EQ(c.coalesce_us, 700);
  EXPECT_EQ(c.clipboard, ClipboardMode::kIn);
  EXPECT_EQ(c.scroll_px_per_notch, 120);
  EXPECT_FALSE(c.audio);
  EXPECT_EQ(c.audio_device, "mic.monitor");
  EXPECT_EQ(c.audio_bitrate, 64000);
  EXPECT_TRUE(c.microphone);
  EXPECT_EQ(c.microphone_fifo, "/run/mic.fifo");
  EXPECT_EQ(c.file_transfers, (FileTransfers{false, true}));
  EXPECT_EQ(c.files_root, "/srv/files");
  EXPECT_EQ(c.upload_dir, "in/box");
  EXPECT_EQ(c.max_upload_mb, 100);
  EXPECT_EQ(c.exec, "xterm -e top");
  EXPECT_EQ(c.max_record_seconds, 60);
  EXPECT_EQ(c.xvfb, (Size{1280, 720}));
  EXPECT_EQ(c.capture_region, (Rect{1, 2, 30, 40}));
  EXPECT_TRUE(c.resize);
  EXPECT_DOUBLE_EQ(c.resize_scale.value_or(0), 2.0);
  EXPECT_EQ(c.round_corners, 8);
  EXPECT_EQ(c.round_windows, (std::vector<WindowRounding>{{"Terminal", 4}, {"Note: a", 0}}));
  EXPECT_EQ(c.stats_seconds, 9);
  EXPECT_EQ(c.log_level, "warn");
}

// ------------------------------------------------------------------ bitrate

TEST(ConfigCommandLine, VideoBitrateIsMaxKbps) {
  EXPECT_EQ(accepted({"--video-bitrate=8000"}).max_kbps, 8000);
  EXPECT_EQ(accepted({"--max-kbps=8000"}).max_kbps, 8000);
  // Both spellings together are fine while they agree.
  EXPECT_EQ(accepted({"--max-kbps=8000", "--video-bitrate=8000"}).max_kbps, 8000);
}

TEST(ConfigCommandLine, VideoBitrateAndMaxKbpsThatDisagreeAreRefused) {
  const ParseOutcome out = parse({"--max-kbps=20000", "--video-bitrate=8000"});
  EXPECT_FALSE(out.config.has_value());
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.error.find("--max-kbps"), std::string::npos) << out.error;
  EXPECT_NE(out.error.find("--video-bitrate"), std::string::npos) << out.error;
}

TEST(ConfigCommandLine, RepeatedFlagTakesItsLastValue) {
  EXPECT_EQ(accepted({"--max-kbps=9000", "--max-kbps=12000"}).max_kbps, 12000);
  EXPECT_EQ(accepted({"--crf=10", "--crf=20"}).crf, 20);
}

TEST(ConfigCommandLine, BitrateRangeSetsFloorAndCeiling) {
  const Config range = accepted({"--video-bitrate=3000-9000"});
  EXPECT_EQ(range.min_kbps, 3000);
  EXPECT_EQ(range.max_kbps, 9000);

  const Config start = accepted({"--video-bitrate=8000,100-1000000"});
  EXPECT_EQ(start.max_kbps, 8000);
  EXPECT_EQ(start.min_kbps, 100);

  // An explicit floor wins over the one from a range.
  EXPECT_EQ(accepted({"--min-kbps=4000", "--max-kbps=3000-9000"}).min_kbps, 4000);
}

TEST(ConfigCommandLine, DefaultFloorFollowsALowerCeiling) {
  const Config c = accepted({"--max-kbps=1000"});
  EXPECT_EQ(c.max_kbps, 1000);
  EXPECT_EQ(c.min_kbps, 1000);
}

TEST(ConfigCommandLine, FloorAboveCeilingIsRefused) {
  expect_refusal({"--min-kbps=5000", "--max-kbps=4000"}, "--min-kbps", "--max-kbps");
  EXPECT_EQ(accepted({"--min-kbps=4000", "--max-kbps=4000"}).min_kbps, 4000);
}

TEST(ConfigCommandLine, CrfAndVideoCrf) {
  EXPECT_EQ(accepted({"--video-crf=18"}).crf, 18);
  EXPECT_EQ(accepted({"--video_crf=18,5-50"}).crf, 18);
  EXPECT_EQ(accepted({"--video-crf=30-40"}).crf, 30);  // the default, moved into the range
  EXPECT_EQ(accepted({"--crf=0"}).crf, 0);
  EXPECT_EQ(accepted({"--crf=51"}).crf, 51);
  expect_refusal({"--crf=20", "--video-crf=22"}, "--video-crf");
  expect_refusal({"--crf=52"}, "--crf", "0 to 51");
}

// ------------------------------------------------------------------ booleans

TEST(ConfigCommandLine, BooleanSpellings) {
  for (const char* yes : {"true", "1", "yes", "on", "TRUE", "Yes"}) {
    EXPECT_TRUE(accepted({std::string("--enable-resize=") + yes}).resize) << yes;
    EXPECT_TRUE(accepted({"--enable-resize", yes}).resize) << yes;
  }
  for (const char* no : {"false", "0", "no", "off", "OFF"}) {
    EXPECT_FALSE(accepted({std::string("--audio-enabled=") + no}).audio) << no;
    EXPECT_FALSE(accepted({"--audio-enabled", no}).audio) << no;
  }
}

TEST(ConfigCommandLine, BooleanAloneIsTrue) {
  EXPECT_TRUE(accepted({"--enable-resize"}).resize);
  const Config c = accepted({"--adaptive-threads", "--framerate=30"});
  EXPECT_TRUE(c.adaptive_threads);
  EXPECT_EQ(c.framerate, 30);
}

TEST(ConfigCommandLine, BadBooleanIsRefusedWithWhatItAccepts) {
  expect_refusal({"--enable-resize=maybe"}, "--enable-resize", "true or false");
  expect_refusal({"--audio-enabled", "2"}, "--audio-enabled", "yes/no");
}

// ------------------------------------------------------------ enumerations

TEST(ConfigCommandLine, EnableClipboardValues) {
  EXPECT_EQ(accepted({"--enable-clipboard=true"}).clipboard, ClipboardMode::kBoth);
  EXPECT_EQ(accepted({"--enable-clipboard"}).clipboard, ClipboardMode::kBoth);
  EXPECT_EQ(accepted({"--enable-clipboard=in"}).clipboard, ClipboardMode::kIn);
  EXPECT_EQ(accepted({"--enable-clipboard", "out"}).clipboard, ClipboardMode::kOut);
  EXPECT_EQ(accepted({"--enable-clipboard=false"}).clipboard, ClipboardMode::kOff);
  EXPECT_EQ(accepted({"--enable-clipboard=0"}).clipboard, ClipboardMode::kOff);
  EXPECT_EQ(accepted({"--enable-clipboard=ON"}).clipboard, ClipboardMode::kBoth);
  expect_refusal({"--enable-clipboard=sideways"}, "--enable-clipboard", "true, in, out or false");
}

TEST(ConfigCommandLine, FileTransfersValues) {
  EXPECT_EQ(accepted({"--file-transfers=upload"}).file_transfers, (FileTransfers{true, false}));
  EXPECT_EQ(accepted({"--file-transfers=download"}).file_transfers, (FileTransfers{false, true}));
  EXPECT_EQ(accepted({"--file-transfers=both"}).file_transfers, (FileTransfers{true, true}));
  EXPECT_EQ(accepted({"--file-transfers=download,upload"}).file_transfers, (FileTransfers{true, true}));
  EXPECT_EQ(accepted({"--file-transfers=none"}).file_transfers, (FileTransfers{false, false}));
  EXPECT_EQ(accepted({"--file-transfers="}).file_transfers, (FileTransfers{false, false}));
  expect_refusal({"--file-transfers=uploads"}, "--file-transfers", "upload, download, both, none");
  expect_refusal({"--file-transfers=upload,,download"}, "--file-transfers");
}

TEST(ConfigCommandLine, PresetsAndLogLevels) {
  for (const char* p : {"ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                        "veryslow", "placebo"})
    EXPECT_EQ(accepted({std::string("--preset=") + p}).preset, p);
  expect_refusal({"--preset=quick"}, "--preset", "ultrafast");
  expect_refusal({"--log-level=verbose"}, "--log-level", "trace, debug, info, warn or error");
}

TEST(ConfigCommandLine, AllowedOrigins) {
  EXPECT_EQ(accepted({"--allowed-origins=*"}).allowed_origins, (std::vector<std::string>{"*"}));
  EXPECT_EQ(accepted({"--allowed-origins=HTTPS://Desk.Example/"}).allowed_origins,
            (std::vector<std::string>{"https://desk.example"}));
  EXPECT_EQ(accepted({"--allowed-origins=http://[::1]:8080"}).allowed_origins,
            (std::vector<std::string>{"http://[::1]:8080"}));
  EXPECT_TRUE(accepted({"--allowed-origins="}).allowed_origins.empty());
  for (const char* bad : {"example.com", "ftp://example.com", "https://", "https://a.example/path",
                          "https://a.example:0", "https://a.example:", "https://a.example,,https://b.example",
                          "https://[::1", "https://a b"})
    expect_refusal({std::string("--allowed-origins=") + bad}, "--allowed-origins", "https://example.com");
}

TEST(ConfigCommandLine, AllowedHosts) {
  EXPECT_TRUE(Config{}.allowed_hosts.empty());
  EXPECT_EQ(accepted({"--allowed-hosts=*"}).allowed_hosts, (std::vector<std::string>{"*"}));
  EXPECT_EQ(accepted({"--allowed-hosts=Desk.Example.com,my_box.,x-1"}).allowed_hosts,
            (std::vector<std::string>{"desk.example.com", "my_box", "x-1"}));
  EXPECT_TRUE(accepted({"--allowed-hosts="}).allowed_hosts.empty());
  for (const char* bad : {"a b", "http://x", "x:80", "a,,b", "*,a", ".a", "-a", "a/b"})
    expect_refusal({std::string("--allowed-hosts=") + bad}, "--allowed-hosts", "host names");
}

// ------------------------------------------------------------ secrets

// A file holding `text` with `mode`, removed at the end of the test.
class SecretTempFile {
 public:
  SecretTempFile(const std::string& text, mode_t mode = 0600) {
    std::string pattern = (std::filesystem::temp_directory_path() / "voxl-secret-test-XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd >= 0) close(fd);
    path_ = pattern;
    std::ofstream(path_, std::ios::binary) << text;
    chmod(path_.c_str(), mode);
  }
  ~SecretTempFile() { std::filesystem::remove(path_); }
  SecretTempFile(const SecretTempFile&) = delete;
  SecretTempFile& operator=(const SecretTempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

TEST(ConfigCommandLine, AccessDefaults) {
  const Config c = accepted({});
  EXPECT_TRUE(c.auth_token.empty());
  EXPECT_FALSE(c.insecure_no_auth);
  EXPECT_TRUE(c.allowed_hosts.empty());
}

TEST(ConfigCommandLine, PasswordsFromFilesTakeTheFirstLine) {
  SecretTempFile full("s3cret\nignored\n"), view("look\r\n");
  const ParseOutcome out = parse({"--enable-basic-auth", "--basic-auth-password-file=" + full.path(),
                                  "--basic-auth-viewonly-password-file", view.path()});
  ASSERT_TRUE(out.config) << out.error;
  EXPECT_EQ(out.config->basic_auth_password, "s3cret");
  EXPECT_EQ(out.config->basic_auth_viewonly_password, "look");
  EXPECT_TRUE(notice_flags(out, Notice::Kind::kLooseSecretFile).empty());
}

TEST(ConfigCommandLine, TokenFromAFile) {
  SecretTempFile token("chosen-token-0123456789\n");
  EXPECT_EQ(accepted({"--auth-token-file=" + token.path()}).auth_token, "chosen-token-0123456789");
  EXPECT_EQ(accepted({"--auth-token=another-token-0123456789"}).auth_token, "another-token-0123456789");
}

TEST(ConfigCommandLine, SecretFilesOthersCanReadAreNoticed) {
  SecretTempFile loose("s3cret\n", 0644);
  const ParseOutcome out = parse({"--enable-basic-auth", "--basic-auth-password-file=" + loose.path()});
  ASSERT_TRUE(out.config) << out.error;
  EXPECT_EQ(notice_flags(out, Notice::Kind::kLooseSecretFile),
            std::vector<std::string>{"--basic-auth-password-file"});
}

TEST(ConfigCommandLine, BadSecretFilesAreRefused) {
  expect_refusal({"--enable-basic-auth", "--basic-auth-password-file=/nonexistent/voxl-pw"},
                 "--basic-auth-password-file", "/nonexistent/voxl-pw");
  expect_refusal({"--auth-token-file=/"}, "--auth-token-file", "not a regular file");
  SecretTempFile empty("\nsecond\n");
  expect_refusal({"--auth-token-file=" + empty.path()}, "--auth-token-file", "empty");
  if (geteuid() != 0) {
    SecretTempFile unreadable("s3cret\n", 0000);
    expect_refusal({"--enable-basic-auth", "--basic-auth-password-file=" + unreadable.path()},
                   "--basic-auth-password-file", "ermission");
  }
}

TEST(ConfigCommandLine, ASecretFromAFlagAndItsFileIsRefused) {
  SecretTempFile pw("s3cret\n");
  expect_refusal({"--basic-auth-password=x", "--basic-auth-password-file=" + pw.path()},
                 "--basic-auth-password-file", "exclude");
  expect_refusal({"--auth-token=chosen-token-0123456789", "--auth-token-file=" + pw.path()}, "--auth-token-file",
                 "exclude");
}

TEST(ConfigCommandLine, SecretsFromTheEnvironmentUnlessAFlagGivesThem) {
  ScopedEnv a("VOXL_BASIC_AUTH_PASSWORD", "from-env");
  ScopedEnv b("VOXL_BASIC_AUTH_VIEWONLY_PASSWORD", "look-env");
  ScopedEnv c("VOXL_AUTH_TOKEN", "env-token-0123456789");
  Config cfg = accepted({"--enable-basic-auth"});
  EXPECT_EQ(cfg.basic_auth_password, "from-env");
  EXPECT_EQ(cfg.basic_auth_viewonly_password, "look-env");
  EXPECT_EQ(cfg.auth_token, "env-token-0123456789");
  cfg = accepted({"--enable-basic-auth", "--basic-auth-password=flag", "--auth-token=flag-token-0123456789"});
  EXPECT_EQ(cfg.basic_auth_password, "flag");
  EXPECT_EQ(cfg.auth_token, "flag-token-0123456789");
  SecretTempFile pw("file-pw\n");
  EXPECT_EQ(accepted({"--enable-basic-auth", "--basic-auth-password-file=" + pw.path()}).basic_auth_password,
            "file-pw");
}

TEST(ConfigCommandLine, EveryFlagFromTheEnvironmentAndTheCommandLineWins) {
  ScopedEnv a("VOXL_MAX_KBPS", "5000");
  ScopedEnv b("VOXL_ENABLE_RESIZE", "true");
  ScopedEnv c("SELKIES_FRAMERATE", "30");
  ScopedEnv d("VOXL_TRUSTED_PROXIES", "127.0.0.1,10.0.0.0/8");
  ParseOutcome out = parse({});
  ASSERT_TRUE(out.config) << out.error;
  EXPECT_EQ(out.config->max_kbps, 5000);
  EXPECT_TRUE(out.config->resize);
  EXPECT_EQ(out.config->framerate, 30);
  EXPECT_EQ(out.config->trusted_proxies.size(), 2u);
  // In the order --help lists the flags.
  EXPECT_EQ(out.from_environment,
            (std::vector<std::string>{"VOXL_ENABLE_RESIZE", "SELKIES_FRAMERATE", "VOXL_MAX_KBPS",
                                      "VOXL_TRUSTED_PROXIES"}));
  const Config flags = accepted({"--max-kbps=8000", "--enable-resize=false", "--framerate", "60"});
  EXPECT_EQ(flags.max_kbps, 8000);
  EXPECT_FALSE(flags.resize);
  EXPECT_EQ(flags.framerate, 60);
  // --video-bitrate is --max-kbps by another name: it wins over VOXL_MAX_KBPS too.
  EXPECT_EQ(accepted({"--video-bitrate=9000"}).max_kbps, 9000);
}

TEST(ConfigCommandLine, ABadValueFromTheEnvironmentNamesItsVariable) {
  ScopedEnv a("VOXL_PORT", "seventy");
  expect_refusal({}, "$VOXL_PORT (--port)", "is not accepted");
  EXPECT_EQ(accepted({"--port=7000"}).port, 7000);  // the flag's value is the one read
}

TEST(ConfigCommandLine, SelkiesSettingsVoxlHasNoUseForAreReported) {
  ScopedEnv a("SELKIES_ENCODER", "nvh264enc");
  const ParseOutcome out = parse({});
  ASSERT_TRUE(out.config) << out.error;
  const auto ignored = notice_flags(out, Notice::Kind::kIgnoredSelkiesFlag);
  EXPECT_EQ(ignored, (std::vector<std::string>{"SELKIES_ENCODER"}));
}

TEST(ConfigCommandLine, MetricsAddressIsAnIpAndAPort) {
  EXPECT_FALSE(accepted({}).metrics_addr.has_value());
  EXPECT_EQ(accepted({"--metrics-addr=127.0.0.1:9101"}).metrics_addr, (ListenPoint{"127.0.0.1", 9101}));
  EXPECT_EQ(accepted({"--metrics-addr=[::1]:0"}).metrics_addr, (ListenPoint{"::1", 0}));
  for (const char* bad : {"9101", ":9101", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "::1:9101",
                          "metrics.example:9101", "127.0.0.1:91x", "[127.0.0.1]:9101x"})
    expect_refusal({std::string("--metrics-addr=") + bad}, "--metrics-addr");
}

TEST(ConfigCommandLine, CheckConfigIsAFlag) {
  EXPECT_FALSE(accepted({}).check_config);
  EXPECT_TRUE(accepted({"--check-config"}).check_config);
}

TEST(ConfigCommandLine, TokensMustBeLongAndUrlSafe) {
  expect_refusal({"--auth-token=short"}, "--auth-token", "16 to 256");
  expect_refusal({"--auth-token=has space in it 0123"}, "--auth-token", "16 to 256");
  ScopedEnv e("VOXL_AUTH_TOKEN", "bad;token;0123456789");
  expect_refusal({}, "$VOXL_AUTH_TOKEN", "16 to 256");
}

TEST(ConfigCommandLine, InsecureNoAuthExcludesCredentials) {
  EXPECT_TRUE(accepted({"--insecure-no-auth"}).insecure_no_auth);
  expect_refusal({"--insecure-no-auth", "--auth-token=chosen-token-0123456789"}, "--insecure-no-auth", "exclude");
  expect_refusal({"--insecure-no-auth", "--enable-basic-auth", "--basic-auth-password=pw"}, "--insecure-no-auth",
                 "exclude");
}

TEST(ConfigCommandLine, OperatorsFlags) {
  const Config c = accepted({"--record-sessions=/srv/sessions", "--record-sessions-days=7",
                             "--record-sessions-max-gb=50", "--record-sessions-min-free-mb=1024",
                             "--record-sessions-segment-seconds=60", "--audit-journal"});
  EXPECT_EQ(c.record_sessions, "/srv/sessions");
  EXPECT_EQ(c.record_sessions_days, 7);
  EXPECT_EQ(c.record_sessions_max_gb, 50);
  EXPECT_EQ(c.record_sessions_min_free_mb, 1024);
  EXPECT_EQ(c.record_sessions_segment_seconds, 60);
  EXPECT_TRUE(c.audit_journal);
  expect_refusal({"--record-sessions=/srv/sessions", "--stripes=2"}, "--record-sessions", "--stripes");
  expect_refusal({"--audit-log=/var/log/voxl.audit", "--audit-journal"}, "--audit-journal", "exclude");
  expect_refusal({"--record-sessions-segment-seconds=2"}, "--record-sessions-segment-seconds", "");
}

TEST(ConfigCommandLine, ListenAddress) {
  EXPECT_EQ(accepted({"--addr=::1"}).addr, "::1");
  EXPECT_EQ(accepted({"--addr=[::]"}).addr, "::");
  EXPECT_EQ(accepted({"--addr=localhost"}).addr, "localhost");
  for (const char* bad : {"--addr=", "--addr=1.2.3.4:80", "--addr=[localhost]", "--addr=a b"})
    expect_refusal({bad}, "--addr", "IPv4 or IPv6");
}

TEST(ConfigCommandLine, RoundWindows) {
  EXPECT_TRUE(accepted({"--round-windows=none"}).round_windows.empty());
  EXPECT_EQ(accepted({"--round-windows=a:b:c:12"}).round_windows,
            (std::vector<WindowRounding>{{"a:b:c", 12}}));
  for (const char* bad : {"Terminal", "Terminal:-1", ":5", "T:257", "T:", "T:4,"})
    expect_refusal({std::string("--round-windows=") + bad}, "--round-windows", "title:radius");
}

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
