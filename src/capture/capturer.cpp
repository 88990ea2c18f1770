#include "capture/capturer.h"

namespace voxl::capture {

const char* to_string(CaptureStatus s) {
  switch (s) {
    case CaptureStatus::kOk: return "ok";
    case CaptureStatus::kNoChange: return "no-change";
    case CaptureStatus::kTemporary: return "temporary";
    case CaptureStatus::kReinit: return "reinit";
    case CaptureStatus::kPermanent: return "permanent";
  }
  return "unknown";
}

}  // namespace voxl::capture
