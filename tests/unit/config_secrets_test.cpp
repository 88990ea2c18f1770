// The secret flags: tokens and passwords from files and the environment, and
// the files that hold them (their modes and owners).
#include "app/config.h"
#include "app/flag_compat.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "config_parse.h"

namespace voxl::app {
namespace VOXL_TEST_FILE {

using config_testing::accepted;
using config_testing::expect_refusal;
using config_testing::expect_rejected;
using config_testing::notice_flags;
using config_testing::parse;

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

}  // namespace
}  // namespace voxl::app
