#include "app/flag_environment.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#include "app/flag_compat.h"

namespace voxl::app {

namespace {

// Flags that set one thing between them: one given on the command line
// keeps the environment's value for any of them out.
constexpr std::array<std::array<std::string_view, 2>, 7> kSameSetting{{
    {"--crf", "--video-crf"},
    {"--max-kbps", "--video-bitrate"},
    {"--basic-auth-password", "--basic-auth-password-file"},
    {"--basic-auth-viewonly-password", "--basic-auth-viewonly-password-file"},
    {"--auth-token", "--auth-token-file"},
    {"--xvfb", "--display"},
    {"--capture-region", "--capture-window"},
}};

std::set<std::string> given_on_command_line(const std::vector<std::string>& command_line) {
  std::set<std::string> given;
  for (size_t i = 1; i < command_line.size(); ++i) {
    const std::string& arg = command_line[i];
    if (arg == "--") break;
    if (arg.size() > 2 && arg.starts_with("--")) given.insert(arg.substr(0, arg.find('=')));
  }
  for (const auto& pair : kSameSetting) {
    const std::string a(pair[0]), b(pair[1]);
    if (given.contains(a)) given.insert(b);
    if (given.contains(b)) given.insert(a);
  }
  return given;
}

bool is_selkies_flag(const std::string& flag) {
  const auto names = selkies_flags_with_voxl_meaning();
  return std::find(names.begin(), names.end(), std::string_view(flag).substr(2)) != names.end();
}

}  // namespace

std::string environment_name(const std::string& flag) {
  std::string name = flag.substr(flag.starts_with("--") ? 2 : 0);
  for (char& c : name) c = c == '-' ? '_' : char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return name;
}

EnvironmentFlags environment_flags(const std::vector<std::string>& flags, const std::vector<std::string>& command_line,
                                   const std::function<const char*(const char*)>& lookup) {
  EnvironmentFlags out;
  const std::set<std::string> given = given_on_command_line(command_line);
  const auto value_of = [&lookup](const std::string& variable) -> const char* {
    const char* v = lookup(variable.c_str());
    return v != nullptr && *v != '\0' ? v : nullptr;
  };
  for (const std::string& flag : flags) {
    if (given.contains(flag)) continue;
    const std::string name = environment_name(flag);
    std::string variable = "VOXL_" + name;
    const char* value = value_of(variable);
    if (value == nullptr && is_selkies_flag(flag)) {
      variable = "SELKIES_" + name;
      value = value_of(variable);
    }
    if (value == nullptr) continue;
    out.args.push_back(flag + "=" + value);
    out.used.push_back(std::move(variable));
  }
  for (std::string_view flag : ignored_selkies_flags()) {
    const std::string variable = "SELKIES_" + environment_name(std::string(flag));
    if (value_of(variable) != nullptr) out.ignored.push_back(variable);
  }
  return out;
}

}  // namespace voxl::app
