// Flags from the environment: every flag as VOXL_<NAME> (--max-kbps is
// VOXL_MAX_KBPS), and the flags voxl takes from selkies also as
// SELKIES_<NAME>. A flag on the command line wins over both, and VOXL_ over
// SELKIES_; so does any flag of the same setting (--crf over VOXL_VIDEO_CRF,
// --auth-token-file over VOXL_AUTH_TOKEN). An empty variable counts as
// unset. Pure given the lookup; the main thread while parsing.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace voxl::app {

// "--max-kbps" -> "MAX_KBPS".
std::string environment_name(const std::string& flag);

struct EnvironmentFlags {
  // "--name=value" arguments, to go before the command line's own.
  std::vector<std::string> args;
  // The variables used, as "VOXL_X" or "SELKIES_X", for the log.
  std::vector<std::string> used;
  // SELKIES_ variables of selkies settings voxl has no use for.
  std::vector<std::string> ignored;
};

// `flags`: every voxl flag ("--dash-spelling"); `command_line`: the
// arguments after normalise_flag_spelling (argv[0] first); `lookup`: the
// environment (getenv in voxl). Values are passed on as they are; the
// flags check them as they would on the command line.
EnvironmentFlags environment_flags(const std::vector<std::string>& flags, const std::vector<std::string>& command_line,
                                   const std::function<const char*(const char*)>& lookup);

}  // namespace voxl::app
