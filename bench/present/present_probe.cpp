// The app's own present delay: how long after a workload stamps a frame's
// draw time its marker shows up in the X server's framebuffer, with no
// streamer running. No streamer can deliver a frame before it is on the
// screen, so this is part of every streamer's draw -> decoded latency that
// the streamer cannot remove (for a browser, its compositor and software
// output; for a plain X client, little more than the X server's queue).
//
//   voxl-bench-present --log DRAWLOG [--display :N] [--warmup-s 3] [--seconds 10] [--cell 16] [--x 0 --y 0]
//
// Blocks on the X connection; on every damage notification it reads the
// marker strip (see marker_strip.h) and notes when each new counter is first
// seen. The counters are joined with the draw log exactly as
// voxl-bench-client joins decoded pictures (FrameRecorder). --x/--y place
// the strip elsewhere than the screen's corner: on a viewer's screen (a
// browser showing the remote desktop), where its window shows the corner.
//
// Prints "window" when the measured window opens, then one JSON object:
// present_p50_ms / present_p99_ms (first seen - drawn), frames (counters
// seen), reads (strip reads), fps, drawn_fps, unreadable, unmatched.
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "client/frame_recorder.h"
#include "present/marker_strip.h"

namespace {

using namespace voxl::bench;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

// Runs the warm-up and the window; false (with `error`) when the display
// went away.
bool measure(MarkerStrip& strip, Clock::duration warmup, Clock::duration window, FrameRecorder& recorder,
             std::string& error) {
  const auto window_start = Clock::now() + warmup;
  const auto end = window_start + window;
  MarkerStripImage image;
  for (;;) {
    const auto now = Clock::now();
    if (now >= end) return true;
    if (!recorder.in_window() && now >= window_start) {
      recorder.start_window();
      std::printf("window\n");
      std::fflush(stdout);
    }
    switch (strip.next(image)) {
      case MarkerStrip::Next::kRead:
        recorder.on_picture([&image](int x, int y) { return image.at(x, y); }, 0.0);
        continue;
      case MarkerStrip::Next::kFailed:
        error = strip.error();
        return false;
      case MarkerStrip::Next::kNothing:
        break;
    }
    // Nothing drawn since the last read: sleep on the connection until the
    // server sends something or the next deadline (window start or end).
    const auto deadline = recorder.in_window() ? end : window_start;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd p{strip.fd(), POLLIN, 0};
    if (::poll(&p, 1, int(std::max<int64_t>(left.count(), 0))) < 0 && errno != EINTR) {
      error = std::string("poll: ") + std::strerror(errno);
      return false;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"app present delay: when each frame marker counter first reaches the X server's framebuffer"};
  std::string display, log_path;
  double warmup_s = 3, seconds = 10;
  int cell = kDefaultMarkerCell;
  int x = 0, y = 0;
  app.add_option("--display", display, "the X display (default $DISPLAY)");
  app.add_option("--log", log_path, "the workload's draw log")->required();
  app.add_option("--warmup-s", warmup_s, "seconds before the measured window")->check(CLI::Range(0.0, 600.0));
  app.add_option("--seconds", seconds, "length of the measured window")->check(CLI::Range(0.5, 3600.0));
  app.add_option("--cell", cell, "marker cell size in pixels")->check(CLI::Range(4, 64));
  app.add_option("--x", x, "the marker strip's left edge on the screen")->check(CLI::Range(0, 32767));
  app.add_option("--y", y, "the marker strip's top edge on the screen")->check(CLI::Range(0, 32767));
  CLI11_PARSE(app, argc, argv);

  FrameRecorder recorder(cell);
  std::string error;
  bool ok = true;
  uint64_t failed_reads = 0;
  try {
    MarkerStrip strip(display, cell, x, y);
    ok = measure(strip, std::chrono::milliseconds(int64_t(warmup_s * 1000)),
                 std::chrono::milliseconds(int64_t(seconds * 1000)), recorder, error);
    failed_reads = strip.failed_reads();
  } catch (const std::exception& e) {
    ok = false;
    error = e.what();
  }
  recorder.stop_window();
  // A page posts its draw log a few times a second: give the last lines time
  // to land before reading it.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  json result = json::object();
  if (recorder.window_started()) {
    const json r = recorder.finish(read_draw_log(log_path));
    for (const char* key : {"seconds", "frames", "unreadable", "unmatched", "fps", "fps_worst_second", "drawn_fps"})
      result[key] = r[key];
    result["reads"] = r["pictures"];
    result["present_p50_ms"] = r["latency_p50_ms"];
    result["present_p99_ms"] = r["latency_p99_ms"];
  }
  result["failed_reads"] = failed_reads;
  result["ok"] = ok;
  if (!error.empty()) result["error"] = error;
  std::printf("%s\n", result.dump().c_str());
  return ok ? 0 : 1;
}
