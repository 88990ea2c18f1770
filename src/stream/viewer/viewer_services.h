// What every viewer of one server shares: the hub, the stream's figures and
// limits, and the services a viewer may use (sound, microphone, input,
// resize, files). Declared once: the server's options carry it, the server
// keeps it, and each connection is given it with its own link hook.
//
// Plain data with non-owning pointers; everything pointed at outlives the
// connections. Read on the loop thread.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "base/audit_sink.h"
#include "base/logging.h"
#include "stream/fanout/stream_figures.h"
#include "stream/viewer/bitrate_controller.h"
#include "stream/pacing/transfer_share.h"
#include "stream/video/motion_choice.h"

namespace voxl::audio {
class Microphone;
}
namespace voxl::input {
class Interaction;
}

namespace voxl::stream {

class Hub;
class AudioHub;
class ResizeController;
class ViewerMetrics;

// What every viewer of one server shares; outlives the connections.
struct ViewerServices {
  Hub* hub = nullptr;  // not null once a connection is made with these
  Logger log = {};
  // The audit trail: viewers connecting and leaving. Empty: none.
  AuditSink audit = {};
  std::function<StreamFigures()> stream_figures = {};  // made into JSON at the edge (to_json); may be empty
  int max_fps = 60;
  Motion motion = Motion::kAuto;  // --motion
  BitrateLimits bitrate = {};
  AudioHub* audio_hub = nullptr;            // desktop sound; null when disabled
  audio::Microphone* microphone = nullptr;  // null when disabled
  input::Interaction* interaction = nullptr;  // null: watch only
  ResizeController* resize = nullptr;         // null: --enable-resize is off
  bool files = false;  // the server answers /files: full viewers are offered the Files panel
  // This connection's: what each ack says about the link (file transfers
  // to the same address yield to the picture, LinkShares). May be empty.
  std::function<void(const LinkSample&, std::chrono::steady_clock::time_point)> on_link_sample = {};
  int stripes = 1;  // --stripes, said in the hello
  ViewerMetrics* metrics = nullptr;  // figures for /metrics; null: none kept
};

}  // namespace voxl::stream
