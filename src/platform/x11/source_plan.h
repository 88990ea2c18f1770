// The start-up decision of which pixel source to try, from facts about the
// server and the user's settings. Pure; any thread.
#pragma once

#include <optional>
#include <string>

#include "base/env_flag.h"
#include "platform/x11/shm_segment.h"
#include "platform/x11/xcb_connection.h"

namespace voxl::platform::x11 {

inline constexpr const char* kDisableShmEnv = "VOXL_X11_DISABLE_SHM";

struct ServerFacts {
  bool shm_disabled_by_env = false;
  bool shm_disabled_by_caller = false;
  int bits_per_pixel = 32;
  bool lsb_first = true;
  std::optional<ShmVersion> shm;
  bool local_socket = true;
};

struct SourcePlan {
  // When false, GetImage is used and `reason` says why.
  bool try_shm = false;
  // Order in which to try segment kinds when try_shm.
  ShmKind first_kind = ShmKind::kSysV;
  bool memfd_possible = false;
  std::string reason;
};

SourcePlan plan_sources(const ServerFacts& facts);

}  // namespace voxl::platform::x11
