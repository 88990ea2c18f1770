// The voxl flags: names, --help groups and text, accepted values, and where
// each value lands in Config. Used once on the main thread while parsing.
#pragma once

#include "app/config.h"
#include "app/flag_set.h"

namespace voxl::app {

// Declares every voxl flag on `flags`, bound to the fields of `config`,
// whose current values are shown as the defaults. `config` must outlive the
// FlagSet's apply().
void declare_flags(FlagSet& flags, Config& config);

// Bounds shared by the flags and the checks made across flags.
inline constexpr int kMinFramerate = 1;
inline constexpr int kMaxFramerate = 240;
inline constexpr int kMinKbps = 100;
inline constexpr int kMaxKbps = 1'000'000;
inline constexpr int kMaxCrf = 51;
inline constexpr int kMaxConnections = 1 << 20;
inline constexpr int kMaxRecordMb = 1 << 24;  // 16 TiB

}  // namespace voxl::app
