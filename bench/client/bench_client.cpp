// The benchmark's native viewer. It connects to one streamer like a viewer
// would, decodes what it receives, reads the frame marker out of every
// decoded picture and, after a warm-up, measures for a fixed time.
//
//   voxl-bench-client (--voxl PORT | --vnc HOST:PORT | --h264-stdin) --log DRAWLOG
//                     [--warmup-s 3] [--seconds 20] [--cell 16] [--workload NAME [--size WxH]] [--still-s 0]
//
// voxl:  its WebSocket stream, decoded with libavcodec, every frame acked
//        with its decode time the way the web client does, so voxl's
//        pacing sees a real viewer.
// vnc:   any RFB server through libvncclient (its default encodings, Tight first).
// h264-stdin: a raw H.264 stream on standard input (ffmpeg's encoder floor).
//
// --workload names what is on the screen: for animation, fullscreen and
// texture the client also measures picture quality against the expected
// picture (picture_quality.h). --still-s: after the window, prints "still"
// (the caller then holds the workload still) and measures the still picture
// for that long.
//
// Prints "window" when the measured window opens (so a caller can sample CPU
// times over the same window), then one JSON object with the results.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "frame_recorder.h"
#include "frame_trace.h"
#include "h264_pipe_viewer.h"
#include "picture_quality.h"
#include "picture_views.h"
#include "stream_client.h"
#include "vnc_viewer.h"

namespace {

using namespace voxl::bench;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

void announce_window() {
  std::printf("window\n");
  std::fflush(stdout);
}

void announce_still() {
  std::printf("still\n");
  std::fflush(stdout);
}

// Returns the number of decoder errors, or -1 when the stream failed.
int run_voxl(const std::string& address, const std::string& token, int port, std::chrono::milliseconds warmup,
             std::chrono::milliseconds measure, std::chrono::milliseconds still, FrameRecorder& recorder, PictureQuality& quality,
             FrameTrace& trace, const std::string& save_stream, std::string& error) {
  voxl::testing::ClientOptions options;
  options.address = address;
  if (!token.empty()) options.authorization = "Bearer " + token;
  options.port = uint16_t(port);
  options.avc444 = true;  // libavcodec decodes a still screen's High 4:4:4 too
  options.save_stream = save_stream;
  voxl::testing::StreamClient client(options);
  const auto window = Clock::now() + warmup;
  const auto end = window + measure;
  const auto still_end = end + still;
  uint32_t last_picture = 0;
  uint64_t bytes_at_window = 0;
  std::optional<uint32_t> last_counter;
  while (Clock::now() < still_end) {
    if (!recorder.window_started() && Clock::now() >= window) {
      recorder.start_window();
      bytes_at_window = client.video_bytes();
      announce_window();
    }
    if (recorder.in_window() && Clock::now() >= end) {
      recorder.on_bytes(client.video_bytes() - bytes_at_window);
      recorder.stop_window();
      if (still.count() == 0) break;
      quality.start_still();
      announce_still();
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        (quality.in_still() ? still_end : recorder.in_window() ? end : window) - Clock::now());
    const auto got = client.read_one(std::max(left, std::chrono::milliseconds(1)));
    if (got == voxl::testing::StreamClient::Got::kClosed) {
      error = client.status();
      return -1;
    }
    if (got != voxl::testing::StreamClient::Got::kVideo || !client.picture()) continue;
    if (client.picture_frame_id() == last_picture) continue;
    last_picture = client.picture_frame_id();
    const auto& pic = *client.picture();
    const bool in_window = recorder.in_window();
    last_counter = recorder.on_picture(
        [&pic](int x, int y) { return (pic.y[size_t(y) * size_t(pic.width) + size_t(x)] - 16) * 255 / 219; },
        client.last_decode_ms());
    if (last_counter && in_window && client.last_stamps() && !client.frames().empty())
      trace.on_frame(*last_counter, client.frames().back(), *client.last_stamps(), client.last_received_wall_us(),
                     uint64_t(realtime_us()));
    quality.on_picture(view_of(pic), last_counter, in_window);
  }
  if (recorder.in_window()) recorder.on_bytes(client.video_bytes() - bytes_at_window);
  if (client.picture()) quality.finish_still(view_of(*client.picture()), last_counter);
  return client.decode_errors();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"voxl benchmark viewer: frame rate and draw-to-decode latency from the frame marker"};
  int voxl_port = 0;
  std::string voxl_address = "127.0.0.1";
  std::string voxl_token;
  std::string vnc, log_path;
  bool h264_stdin = false;
  double warmup_s = 3, seconds = 20;
  int cell = kDefaultMarkerCell;
  std::string workload, size, save_still;
  double still_s = 0;
  auto* voxl_opt = app.add_option("--voxl", voxl_port, "voxl's port");
  app.add_option("--voxl-address", voxl_address, "voxl's IP address (another namespace's, through ipem)");
  app.add_option("--voxl-token", voxl_token, "voxl's access token, sent as Bearer credentials");
  auto* vnc_opt = app.add_option("--vnc", vnc, "an RFB server, HOST:PORT");
  auto* pipe_opt = app.add_flag("--h264-stdin", h264_stdin, "a raw H.264 stream with AUDs on stdin");
  voxl_opt->excludes(vnc_opt, pipe_opt);
  vnc_opt->excludes(pipe_opt);
  app.add_option("--log", log_path, "the workload's draw log")->required();
  app.add_option("--warmup-s", warmup_s, "seconds before the measured window")->check(CLI::Range(0.0, 600.0));
  app.add_option("--seconds", seconds, "length of the measured window")->check(CLI::Range(0.5, 3600.0));
  app.add_option("--cell", cell, "marker cell size in pixels")->check(CLI::Range(4, 64));
  app.add_option("--workload", workload, "what the screen shows (animation, fullscreen, texture: quality measured)");
  app.add_option("--size", size, "the screen's WxH, to build the expected picture before connecting");
  app.add_option("--save-still", save_still, "write the last still picture and the expected one to PREFIX-*.ppm (voxl: its stream to PREFIX-stream.h264)");
  app.add_option("--still-s", still_s, "seconds of still picture measured after the window")->check(CLI::Range(0.0, 60.0));
  CLI11_PARSE(app, argc, argv);
  if (!voxl_port && vnc.empty() && !h264_stdin) {
    std::cerr << "voxl-bench-client: give --voxl, --vnc or --h264-stdin\n";
    return 2;
  }
  const auto warmup = std::chrono::milliseconds(int64_t(warmup_s * 1000));
  const auto measure = std::chrono::milliseconds(int64_t(seconds * 1000));
  const auto still = std::chrono::milliseconds(int64_t(still_s * 1000));
  FrameRecorder recorder(cell);
  FrameTrace trace;
  PictureQuality quality(workload, cell);
  if (int w = 0, h = 0; std::sscanf(size.c_str(), "%dx%d", &w, &h) == 2 && w > 0 && h > 0 && w <= 16384 && h <= 16384)
    quality.prepare(w, h);
  if (!save_still.empty()) quality.save_still_to(save_still);
  std::string error;
  int decode_errors = 0;
  bool ok = true;
  try {
    if (voxl_port) {
      decode_errors = run_voxl(voxl_address, voxl_token, voxl_port, warmup, measure, still, recorder, quality, trace,
                               save_still.empty() ? std::string() : save_still + "-stream.h264", error);
      ok = decode_errors >= 0;
    } else if (!vnc.empty()) {
      const auto colon = vnc.rfind(':');
      VncRun run;
      run.host = vnc.substr(0, colon);
      run.port = std::stoi(vnc.substr(colon + 1));
      run.warmup = warmup;
      run.measure = measure;
      run.still = still;
      run.on_window_start = announce_window;
      run.on_still_start = announce_still;
      ok = run_vnc_viewer(run, recorder, quality, error);
    } else {
      PipeRun run;
      run.warmup = warmup;
      run.measure = measure;
      run.still = still;
      run.on_window_start = announce_window;
      run.on_still_start = announce_still;
      ok = run_h264_pipe(run, recorder, quality, decode_errors, error);
    }
  } catch (const std::exception& e) {
    ok = false;
    error = e.what();
  }
  recorder.stop_window();
  // A page posts its draw log a few times a second: give the last lines time
  // to land before reading it.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const DrawLog draw_log = read_draw_log(log_path);
  json result = recorder.window_started() ? recorder.finish(draw_log) : json::object();
  if (voxl_port) result["trace"] = trace.finish(draw_log);
  result.update(quality.finish(draw_log));
  result["ok"] = ok;
  result["decode_errors"] = std::max(decode_errors, 0);
  if (!error.empty()) result["error"] = error;
  std::printf("%s\n", result.dump().c_str());
  return ok ? 0 : 1;
}
