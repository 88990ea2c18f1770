// A VNC viewer for the benchmark: libvncclient connects to an RFB server,
// asks for incremental updates one after another (as every VNC viewer does)
// and hands each completed update to the recorder.
//
// Threads: one thread; run() blocks until its deadline.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "frame_recorder.h"
#include "picture_quality.h"

namespace voxl::bench {

struct VncRun {
  std::string host = "127.0.0.1";
  int port = 5900;
  std::chrono::milliseconds warmup{3000};
  std::chrono::milliseconds measure{20000};
  std::chrono::milliseconds still{0};     // the still phase after the window
  std::function<void()> on_window_start;  // called when the measured window opens
  std::function<void()> on_still_start;   // called when the still phase starts
};

// Returns false (with `error` set) when the server cannot be reached or the
// connection fails before the end.
bool run_vnc_viewer(const VncRun& run, FrameRecorder& recorder, PictureQuality& quality, std::string& error);

}  // namespace voxl::bench
