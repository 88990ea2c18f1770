#include "vnc_viewer.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include <rfb/rfbclient.h>

#include "picture_views.h"

namespace voxl::bench {

namespace {

using Clock = std::chrono::steady_clock;

struct Session {
  FrameRecorder* recorder;
  PictureQuality* quality;
  std::optional<uint32_t> counter;  // read from the newest update
  bool got_update = false;
  Clock::time_point update_start{};
  bool in_update = false;
};

int tag;  // the address names our client data; its value is unused

// Bytes this process has read (libvncclient keeps no count of its own);
// the socket is all the viewer reads while it runs.
uint64_t bytes_read() {
  FILE* f = std::fopen("/proc/self/io", "r");
  if (!f) return 0;
  unsigned long long rchar = 0;
  char name[32];
  unsigned long long value = 0;
  while (std::fscanf(f, "%31s %llu", name, &value) == 2)
    if (std::strcmp(name, "rchar:") == 0) rchar = value;
  std::fclose(f);
  return rchar;
}

void quiet_log(const char*, ...) {}

Session& session_of(rfbClient* cl) { return *static_cast<Session*>(rfbClientGetClientData(cl, &tag)); }

void on_rect(rfbClient* cl, int, int, int, int) {
  Session& s = session_of(cl);
  if (!s.in_update) {
    s.in_update = true;
    s.update_start = Clock::now();
  }
}

void on_update_done(rfbClient* cl) {
  Session& s = session_of(cl);
  const double ms = s.in_update ? std::chrono::duration<double, std::milli>(Clock::now() - s.update_start).count() : 0;
  s.in_update = false;
  s.got_update = true;
  const uint8_t* fb = cl->frameBuffer;
  const int w = cl->width;
  // rfbGetClient(8, 3, 4): bytes R, G, B, pad.
  const bool in_window = s.recorder->in_window();
  s.counter = s.recorder->on_picture(
      [fb, w](int x, int y) {
        const uint8_t* p = fb + (size_t(y) * size_t(w) + size_t(x)) * 4;
        return (299 * p[0] + 587 * p[1] + 114 * p[2]) / 1000;
      },
      ms);
  s.quality->on_picture(view_of_rgbx(fb, w, cl->height), s.counter, in_window);
}

}  // namespace

bool run_vnc_viewer(const VncRun& run, FrameRecorder& recorder, PictureQuality& quality, std::string& error) {
  rfbClientLog = quiet_log;
  rfbClientErr = quiet_log;
  rfbClient* cl = rfbGetClient(8, 3, 4);
  Session session{&recorder, &quality, std::nullopt};
  rfbClientSetClientData(cl, &tag, &session);
  std::free(cl->serverHost);
  cl->serverHost = strdup(run.host.c_str());
  cl->serverPort = run.port;
  cl->GotFrameBufferUpdate = on_rect;
  cl->FinishedFrameBufferUpdate = on_update_done;
  // rfbInitClient frees the client when it fails.
  if (!rfbInitClient(cl, nullptr, nullptr)) {
    error = "cannot connect to the VNC server at " + run.host + ":" + std::to_string(run.port);
    return false;
  }
  const auto start = Clock::now();
  const auto window = start + run.warmup;
  const auto end = window + run.measure;
  const auto still_end = end + run.still;
  bool ok = true;
  uint64_t bytes_at_window = 0;
  while (Clock::now() < still_end) {
    if (!recorder.window_started() && Clock::now() >= window) {
      recorder.start_window();
      bytes_at_window = bytes_read();
      if (run.on_window_start) run.on_window_start();
    }
    if (recorder.in_window() && Clock::now() >= end) {
      recorder.on_bytes(bytes_read() - bytes_at_window);
      recorder.stop_window();
      if (run.still.count() == 0) break;
      quality.start_still();
      if (run.on_still_start) run.on_still_start();
    }
    const int n = WaitForMessage(cl, 50000);
    if (n < 0) {
      error = "the VNC connection failed";
      ok = false;
      break;
    }
    if (n == 0) continue;
    if (!HandleRFBServerMessage(cl)) {
      error = "the VNC server closed the connection";
      ok = false;
      break;
    }
  }
  if (recorder.in_window()) recorder.on_bytes(bytes_read() - bytes_at_window);
  if (ok && cl->frameBuffer) quality.finish_still(view_of_rgbx(cl->frameBuffer, cl->width, cl->height), session.counter);
  rfbClientCleanup(cl);
  return ok;
}

}  // namespace voxl::bench
