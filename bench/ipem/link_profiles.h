// The links ipem emulates by name, each the two directions of a path (down:
// from the server to the viewer; up: back), and the schedule syntax for
// rate changes. The figures stand for what the name says, as commonly
// measured; docs/benchmarks.md lists them.
//
// Pure data and parsing; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "path_model.h"

namespace voxl::bench {

struct LinkProfile {
  std::string name;
  std::string models;  // what it stands for, in a few words
  PathSettings down;
  PathSettings up;
};

std::vector<LinkProfile> link_profiles();
std::optional<LinkProfile> find_link_profile(std::string_view name);

// "SECONDS:MBPS,SECONDS:MBPS,...", times rising, e.g. "10:2,25:20": at
// 10 s the rate becomes 2 Mbit/s, at 25 s 20 again. nullopt with `error`
// saying what is wrong.
std::optional<std::vector<RateStep>> parse_rate_schedule(std::string_view text, std::string& error);

}  // namespace voxl::bench
