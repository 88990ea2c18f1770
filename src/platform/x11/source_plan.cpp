#include "platform/x11/source_plan.h"

namespace voxl::platform::x11 {

SourcePlan plan_sources(const ServerFacts& f) {
  SourcePlan p;
  if (f.shm_disabled_by_env) {
    p.reason = std::string("MIT-SHM disabled by ") + kDisableShmEnv;
  } else if (f.shm_disabled_by_caller) {
    p.reason = "MIT-SHM disabled by the caller";
  } else if (!f.shm) {
    p.reason = "the server has no MIT-SHM extension";
  } else if (f.shm->major < 1 || (f.shm->major == 1 && f.shm->minor < 1)) {
    p.reason = "the server's MIT-SHM " + std::to_string(f.shm->major) + "." +
               std::to_string(f.shm->minor) + " is older than 1.1";
  } else if (f.bits_per_pixel != 32) {
    p.reason = "the server's pixel format is " + std::to_string(f.bits_per_pixel) +
               " bits per pixel, not 32";
  } else if (!f.lsb_first) {
    p.reason = "the server's images are big-endian";
  } else {
    p.try_shm = true;
    p.memfd_possible = f.local_socket && (f.shm->major > 1 || f.shm->minor >= 2);
    p.first_kind = p.memfd_possible ? ShmKind::kMemfd : ShmKind::kSysV;
  }
  return p;
}

}  // namespace voxl::platform::x11
