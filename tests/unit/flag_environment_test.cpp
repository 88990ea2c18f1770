#include "app/flag_environment.h"

#include <gtest/gtest.h>

#include <map>

namespace voxl::app {
namespace VOXL_TEST_FILE {

const std::vector<std::string> kFlags = {"--port", "--max-kbps", "--crf", "--video-crf", "--auth-token",
                                         "--auth-token-file", "--framerate", "--preset", "--xvfb", "--display"};

EnvironmentFlags run(const std::map<std::string, std::string>& env, std::vector<std::string> command_line = {}) {
  command_line.insert(command_line.begin(), "voxl");
  return environment_flags(kFlags, command_line, [&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(FlagEnvironment, NamesAreTheFlagsInCapitalsWithUnderscores) {
  EXPECT_EQ(environment_name("--max-kbps"), "MAX_KBPS");
  EXPECT_EQ(environment_name("--port"), "PORT");
  EXPECT_EQ(environment_name("--basic-auth-viewonly-password-file"), "BASIC_AUTH_VIEWONLY_PASSWORD_FILE");
}

TEST(FlagEnvironment, EveryFlagFromItsVoxlVariable) {
  const auto e = run({{"VOXL_PORT", "7000"}, {"VOXL_PRESET", "fast"}, {"PORT", "1"}, {"VOXL_port", "2"}});
  EXPECT_EQ(e.args, (std::vector<std::string>{"--port=7000", "--preset=fast"}));
  EXPECT_EQ(e.used, (std::vector<std::string>{"VOXL_PORT", "VOXL_PRESET"}));
  EXPECT_TRUE(e.ignored.empty());
}

TEST(FlagEnvironment, TheCommandLineWinsAlsoThroughAFlagOfTheSameSetting) {
  const auto e = run({{"VOXL_PORT", "7000"}, {"VOXL_CRF", "20"}, {"VOXL_AUTH_TOKEN", "from-env-0123456789"},
                      {"VOXL_DISPLAY", ":5"}},
                     {"--port=8000", "--video-crf", "30", "--auth-token-file=/run/secrets/t", "--xvfb"});
  EXPECT_TRUE(e.args.empty()) << e.args.front();
  // After a bare "--" nothing is a flag.
  const auto after = run({{"VOXL_PORT", "7000"}}, {"--", "--port=1"});
  EXPECT_EQ(after.args, (std::vector<std::string>{"--port=7000"}));
}

TEST(FlagEnvironment, SelkiesVariablesForTheFlagsVoxlSharesVoxlOnesFirst) {
  const auto e = run({{"SELKIES_FRAMERATE", "30"}, {"SELKIES_PORT", "9000"}, {"VOXL_PORT", "7000"},
                      {"SELKIES_PRESET", "slow"}, {"SELKIES_ENCODER", "x264enc"}, {"SELKIES_TURN_HOST", "t"}});
  EXPECT_EQ(e.args, (std::vector<std::string>{"--port=7000", "--framerate=30"}));
  EXPECT_EQ(e.used, (std::vector<std::string>{"VOXL_PORT", "SELKIES_FRAMERATE"}));
  // --preset is voxl's own: SELKIES_PRESET means nothing; known selkies settings are reported.
  EXPECT_EQ(e.ignored, (std::vector<std::string>{"SELKIES_ENCODER", "SELKIES_TURN_HOST"}));
}

TEST(FlagEnvironment, AnEmptyVariableIsUnset) {
  const auto e = run({{"VOXL_PORT", ""}, {"SELKIES_PORT", "9000"}, {"SELKIES_ENCODER", ""}});
  EXPECT_EQ(e.args, (std::vector<std::string>{"--port=9000"}));
  EXPECT_TRUE(e.ignored.empty());
}

}  // namespace
}  // namespace voxl::app
