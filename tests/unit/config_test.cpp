#include "app/config.h"
#include "app/flag_compat.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace
}  // namespace voxl::app
