#include "app/config.h"
#include "app/version.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/flag_compat.h"
#include "app/flag_environment.h"
#include "app/flag_set.h"
#include "app/flag_table.h"
#include "app/secret_file.h"
#include "net/access_policy.h"
#include "platform/user_paths.h"

namespace voxl::app {

namespace {

constexpr const char* kFooter =
    "Flags may be written with underscores too (--max_kbps). [BOOL] flags take true/false, 1/0,\n"
    "yes/no or on/off, and mean true when given alone. selkies command lines are accepted: its\n"
    "flags with a voxl meaning act as above, the others are ignored with a warning.\n"
    "Every flag may be set in the environment too, as VOXL_<NAME> (--max-kbps: VOXL_MAX_KBPS), and\n"
    "the selkies flags voxl shares also as SELKIES_<NAME>. A flag on the command line wins over the\n"
    "environment (as does a flag of the same setting: --auth-token-file over VOXL_AUTH_TOKEN), and\n"
    "VOXL_ over SELKIES_; an empty variable counts as unset. Secrets can stay off the command line\n"
    "(which every local user can read): give them in the environment or use the -file flags, which\n"
    "read the first line of a file.\n"
    "voxl hash-password [NAME [RIGHTS]] writes a line for --users-file (see its --help).\n"
    "voxl audit-verify FILE... checks an --audit-log file's chain of hashes.";

constexpr int kRefused = 2;

void configure(CLI::App& cli) {
  // Wrappers append overrides to a base command line, so a repeated flag
  // takes its last value rather than failing.
  cli.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cli.set_help_flag("-h,--help", "print this help and exit")->group("General");
  cli.set_version_flag("--version", std::string("voxl ") + kVersion, "print the version and exit")->group("General");
  cli.get_formatter()->column_width(40);
  cli.footer(kFooter);
}

// Declared without a help line (an empty group hides them); they may carry
// a value or stand alone, as selkies' own switches do.
void declare_ignored_selkies_flags(CLI::App& cli) {
  for (std::string_view name : ignored_selkies_flags())
    cli.add_option("--" + std::string(name), CLI::callback_t{}, "")->expected(0, 1)->group("");
}

// Two spellings of one setting: given together they must agree, since a
// silent choice between two different values would surprise either way.
std::optional<std::string> check_same_setting(const CLI::App& cli, const std::string& a,
                                              const std::string& b) {
  const auto va = last_value(cli, a);
  const auto vb = last_value(cli, b);
  if (!va || !vb || *va == *vb) return std::nullopt;
  return a + " and " + b + " are one setting but were given different values ('" + *va + "' and '" +
         *vb + "')";
}

std::optional<std::string> check_readable(const std::string& flag, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return flag + ": '" + path + "' is not a readable file";
  errno = 0;
  if (std::ifstream probe(path, std::ios::binary); !probe)
    return flag + ": '" + path + "' cannot be read (" + (errno ? std::strerror(errno) : "cannot open it") + ")";
  return std::nullopt;
}

// Refused at start rather than at the first connection, which would leave a
// daemon that looks healthy but serves nobody.
std::optional<std::string> check_https(const Config& c) {
  if (!c.https) return std::nullopt;
  if (c.https_cert.empty() || c.https_key.empty())
    return "--enable-https needs --https-cert FILE and --https-key FILE";
  if (auto error = check_readable("--https-cert", c.https_cert)) return error;
  return check_readable("--https-key", c.https_key);
}

std::optional<std::string> check_basic_auth(const Config& c) {
  if (!c.basic_auth) return std::nullopt;
  if (c.basic_auth_password.empty())
    return "--enable-basic-auth needs --basic-auth-password, --basic-auth-password-file or "
           "$VOXL_BASIC_AUTH_PASSWORD";
  // With equal passwords a login could not tell which role it asks for.
  if (c.basic_auth_viewonly_password == c.basic_auth_password)
    return "--basic-auth-viewonly-password must differ from --basic-auth-password";
  return std::nullopt;
}

std::optional<std::string> check_combinations(const CLI::App& cli, const Config& c) {
  if (auto error = check_same_setting(cli, "--crf", "--video-crf")) return error;
  if (auto error = check_same_setting(cli, "--max-kbps", "--video-bitrate")) return error;
  if (c.min_kbps > c.max_kbps)
    return "--min-kbps (" + std::to_string(c.min_kbps) + ") must not exceed --max-kbps (" +
           std::to_string(c.max_kbps) + ")";
  if (c.xvfb && !c.display.empty()) return "--xvfb and --display exclude each other";
  if (c.wayland && (c.xvfb || !c.display.empty()))
    return "--wayland starts voxl's own compositor: it excludes --xvfb and --display";
  if (c.wayland && c.backend == BackendName::kX11) return "--wayland and --backend x11 exclude each other";
  if (c.xvfb && c.backend == BackendName::kWayland) return "--xvfb and --backend wayland exclude each other";
  if (c.backend == BackendName::kPortal && (c.xvfb || c.wayland || !c.display.empty()))
    return "--backend portal shares the desktop the portal offers: it excludes --xvfb, --wayland and --display";
  if (c.capture_region && c.capture_window)
    return "--capture-region and --capture-window exclude each other";
  if (auto error = check_https(c)) return error;
  if (c.insecure_no_auth && !c.auth_token.empty())
    return "--insecure-no-auth and an access token (--auth-token, --auth-token-file or $VOXL_AUTH_TOKEN) "
           "exclude each other";
  if (c.insecure_no_auth && c.basic_auth) return "--insecure-no-auth and --enable-basic-auth exclude each other";
  if (c.audit_journal && !c.audit_log.empty())
    return "--audit-log and --audit-journal exclude each other: the trail goes to one place";
  if (!c.record_sessions.empty() && c.stripes > 1)
    return "--record-sessions cannot record a stream coded in bands: leave --stripes at 1";
  if (c.insecure_no_auth && !c.users_file.empty()) return "--insecure-no-auth and --users-file exclude each other";
  if (!c.proxy_user_header.empty() && (c.trusted_proxies.empty() || c.users_file.empty()))
    return "--proxy-user-header needs --trusted-proxies (who may name users) and --users-file (their rights)";
  return check_basic_auth(c);
}

// A secret from its flag or its -file flag, which may not be given
// together. Its VOXL_ variable arrives as the flag (flag_environment.h).
struct SecretSource {
  std::string flag;
  std::string file_flag;
  std::string& value;
  const std::string& file;
};

std::optional<std::string> resolve_secret(const CLI::App& cli, const SecretSource& s,
                                          std::vector<Notice>& notices) {
  const bool given = cli.count(s.flag) > 0;
  const bool from_file = cli.count(s.file_flag) > 0;
  if (given && from_file) return s.flag + " and " + s.file_flag + " exclude each other";
  if (from_file) {
    SecretFile f = read_secret_file(s.file_flag, s.file);
    if (!f.value) return f.error;
    if (f.loose)
      notices.push_back({Notice::Kind::kLooseSecretFile, s.file_flag,
                         s.file_flag + ": '" + s.file + "' may be read by other users; chmod 600 it"});
    s.value = std::move(*f.value);
  }
  return std::nullopt;
}

std::optional<std::string> resolve_secrets(const CLI::App& cli, Config& c, std::vector<Notice>& notices) {
  const SecretSource sources[] = {
      {"--basic-auth-password", "--basic-auth-password-file", c.basic_auth_password, c.basic_auth_password_file},
      {"--basic-auth-viewonly-password", "--basic-auth-viewonly-password-file", c.basic_auth_viewonly_password,
       c.basic_auth_viewonly_password_file},
      {"--auth-token", "--auth-token-file", c.auth_token, c.auth_token_file},
  };
  for (const SecretSource& s : sources)
    if (auto error = resolve_secret(cli, s, notices)) return error;
  if (!c.auth_token.empty() && !net::is_valid_token(c.auth_token)) {
    // A value from $VOXL_AUTH_TOKEN is named as such by from_environment().
    const std::string from = cli.count("--auth-token-file") ? "--auth-token-file" : "--auth-token";
    return from + ": an access token is 16 to 256 characters from A-Z a-z 0-9 - . _ ~";
  }
  return std::nullopt;
}

// Only flags given on the command line are reported: a default is not a
// request the user could be disappointed by.
std::vector<Notice> collect_notices(const CLI::App& cli) {
  std::vector<Notice> notices;
  for (const PendingFlag& pending : pending_flags()) {
    const std::string flag(pending.flag);
    if (cli.count(flag) == 0) continue;
    notices.push_back({Notice::Kind::kNotActiveYet, flag,
                       flag + ": " + std::string(pending.feature) + " is not active yet"});
  }
  for (std::string_view name : ignored_selkies_flags()) {
    const std::string flag = "--" + std::string(name);
    if (cli.count(flag) == 0) continue;
    notices.push_back({Notice::Kind::kIgnoredSelkiesFlag, flag,
                       flag + ": a selkies flag with no voxl meaning; ignored"});
  }
  return notices;
}

// A refusal of a value the environment gave names its variable, since the
// command line holds no such flag to look for.
std::string from_environment(const std::string& error, const EnvironmentFlags& env) {
  for (size_t i = 0; i < env.args.size(); ++i) {
    const std::string flag = env.args[i].substr(0, env.args[i].find('='));
    if (error.rfind(flag + ":", 0) == 0) return "$" + env.used[i] + " (" + flag + ")" + error.substr(flag.size());
  }
  return error;
}

ParseOutcome refuse(std::string message) {
  std::cerr << "voxl: " << message << "\n";
  ParseOutcome out;
  out.exit_code = kRefused;
  out.error = std::move(message);
  return out;
}

}  // namespace

std::string default_files_root() { return platform::home_folder(); }

std::optional<Size> parse_size(const std::string& text) {
  const size_t x = text.find('x');
  if (x == std::string::npos) return std::nullopt;
  Size s;
  auto a = std::from_chars(text.data(), text.data() + x, s.width);
  auto b = std::from_chars(text.data() + x + 1, text.data() + text.size(), s.height);
  if (a.ec != std::errc{} || a.ptr != text.data() + x || b.ec != std::errc{} ||
      b.ptr != text.data() + text.size() || s.width <= 0 || s.height <= 0 || s.width > 16384 ||
      s.height > 16384)
    return std::nullopt;
  return s;
}

ParseOutcome parse_command_line(int argc, char** argv) {
  std::vector<std::string> args = normalise_flag_spelling(argc, argv);

  CLI::App cli{"voxl: low-latency desktop streaming to the browser"};
  configure(cli);
  Config config;
  FlagSet flags(cli);
  declare_flags(flags, config);
  declare_ignored_selkies_flags(cli);
  // The environment's flags go first, so the command line's, parsed after
  // them, win (each flag takes its last value).
  const EnvironmentFlags env = environment_flags(flags.names(), args, [](const char* n) { return std::getenv(n); });
  args.insert(args.begin() + (args.empty() ? 0 : 1), env.args.begin(), env.args.end());
  std::vector<const char*> arg_ptrs;
  for (const std::string& arg : args) arg_ptrs.push_back(arg.c_str());
  try {
    cli.parse(static_cast<int>(arg_ptrs.size()), arg_ptrs.data());
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive as "errors" with exit code 0.
    if (e.get_exit_code() == 0) return {std::nullopt, cli.exit(e), {}, {}, {}};
    return refuse(std::string(e.what()) + " (see --help)");
  }
  if (auto error = flags.apply()) return refuse(from_environment(*error, env));
  std::vector<Notice> secret_notices;
  if (auto error = resolve_secrets(cli, config, secret_notices)) return refuse(from_environment(*error, env));
  // A floor left at its default follows a lower ceiling down, so
  // "--max-kbps 1000" alone works; only a floor the user chose is checked.
  if (cli.count("--min-kbps") == 0) config.min_kbps = std::min(config.min_kbps, config.max_kbps);
  if (auto error = check_combinations(cli, config)) return refuse(from_environment(*error, env));
  std::vector<Notice> notices = collect_notices(cli);
  notices.insert(notices.end(), secret_notices.begin(), secret_notices.end());
  for (const std::string& variable : env.ignored)
    notices.push_back({Notice::Kind::kIgnoredSelkiesFlag, variable,
                       variable + ": a selkies setting with no voxl meaning; ignored"});
  return {std::move(config), 0, {}, std::move(notices), env.used};
}

}  // namespace voxl::app
