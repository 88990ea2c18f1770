// voxl-wayland-capture-bench: the same full-screen animation captured from
// an X11 display (voxl's own Xvfb, its framebuffer source) and from a
// Wayland one (voxl's own headless sway, wlr-screencopy), in rounds that
// take turns in one run. A program on each desktop fills its fullscreen
// window with a new colour, says when the server has it, and voxl's
// capturer is asked until a frame shows that colour. Per desktop it prints
// the frames per second of that loop, the capture's latency (from the
// program's picture being in the server to voxl holding a frame of it,
// median and p90), voxl's capture CPU per frame (its thread's clock), and
// the whole machine's CPU per frame (every process: the program, the
// server, voxl).
//
// Every frame is checked: two pixels far apart must have the colour drawn
// (headless sway draws the pointer into its picture, so not the middle).
//
//     voxl-wayland-capture-bench [--size 1920x1080] [--frames 300] [--rounds 3]
#include <unistd.h>
#include <xcb/xcb.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/logging.h"
#include "bench_options.h"
#include "capture/frame_pool.h"
#include "platform/wayland/screencopy_capturer.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "wayland_test_support.h"

namespace voxl::bench {
namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Busy time of the whole machine so far, in ms (/proc/stat's first line).
double machine_busy_ms() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
  if (!in || cpu != "cpu") throw std::runtime_error("cannot read /proc/stat");
  const long long ticks = user + nice + system + irq + softirq;
  return double(ticks) * 1000.0 / double(sysconf(_SC_CLK_TCK));
}

// A program's fullscreen window, filled with one colour at a time.
class Painter {
 public:
  virtual ~Painter() = default;
  // Fills the window with `colour` (0xRRGGBB); returns once the server
  // has the picture.
  virtual void fill(uint32_t colour) = 0;
};

// An override-redirect window over the whole X screen, filled with
// PolyFillRectangle; a round trip says the server drew it.
class X11Painter final : public Painter {
 public:
  explicit X11Painter(const std::string& display) {
    c_ = xcb_connect(display.c_str(), nullptr);
    if (xcb_connection_has_error(c_)) throw std::runtime_error("cannot connect to X display " + display);
    xcb_screen_t* s = xcb_setup_roots_iterator(xcb_get_setup(c_)).data;
    width_ = s->width_in_pixels;
    height_ = s->height_in_pixels;
    window_ = xcb_generate_id(c_);
    const uint32_t values[] = {s->black_pixel, 1};
    xcb_create_window(c_, XCB_COPY_FROM_PARENT, window_, s->root, 0, 0, width_, height_, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT,
                      values);
    xcb_map_window(c_, window_);
    gc_ = xcb_generate_id(c_);
    xcb_create_gc(c_, gc_, window_, 0, nullptr);
    sync();
  }
  ~X11Painter() override { xcb_disconnect(c_); }
  void fill(uint32_t colour) override {
    xcb_change_gc(c_, gc_, XCB_GC_FOREGROUND, &colour);
    const xcb_rectangle_t r{0, 0, width_, height_};
    xcb_poly_fill_rectangle(c_, window_, gc_, 1, &r);
    sync();
  }

 private:
  void sync() {
    free(xcb_get_input_focus_reply(c_, xcb_get_input_focus(c_), nullptr));
    if (xcb_connection_has_error(c_)) throw std::runtime_error("the X connection failed");
  }
  xcb_connection_t* c_ = nullptr;
  xcb_window_t window_ = 0;
  xcb_gcontext_t gc_ = 0;
  uint16_t width_ = 0, height_ = 0;
};

// The tests' Wayland program (voxl-wayland-probe): it says "drawn" once it
// has committed the picture.
class WaylandPainter final : public Painter {
 public:
  explicit WaylandPainter(const platform::wayland::HeadlessCompositor& sway) : probe_(sway, 0) {}
  void fill(uint32_t colour) override {
    char line[32];
    std::snprintf(line, sizeof line, "fill %06x", colour);
    probe_.draw(line);
  }

 private:
  testing::ProbeProgram probe_;
};

struct Figures {
  std::vector<double> latency_ms;  // picture in the server -> frame in voxl's hands
  double wall_ms = 0;
  double capture_cpu_ms = 0;
  double machine_cpu_ms = 0;
  int frames = 0;
};

// Draws `frames` colours and captures each; throws when a frame shows the
// wrong picture or none comes.
Figures run_loop(Painter& painter, capture::Capturer& cap, int frames, uint32_t& colour) {
  capture::FramePool pool(2);
  const Size size = cap.size();
  const auto shows = [&](const capture::Frame& f, uint32_t c) {
    return f.pixel(8, 8) == c && f.pixel(size.width - 9, size.height - 9) == c;
  };
  Figures out;
  const double busy0 = machine_busy_ms();
  const auto start = Clock::now();
  for (int i = 0; i < frames; ++i) {
    colour = (colour + 0x0b1d35) & 0xffffff;
    painter.fill(colour);
    const auto drawn = Clock::now();
    const auto give_up = drawn + std::chrono::seconds(10);
    for (;;) {
      const double cpu0 = thread_cpu_ms();
      auto r = cap.capture(pool, std::chrono::milliseconds(1000));
      out.capture_cpu_ms += thread_cpu_ms() - cpu0;
      if (r.status == capture::CaptureStatus::kOk && shows(*r.frame, colour)) break;
      if (r.status == capture::CaptureStatus::kPermanent || r.status == capture::CaptureStatus::kReinit)
        throw std::runtime_error("the capturer failed: " + r.error);
      if (Clock::now() > give_up) throw std::runtime_error("no frame showed the colour drawn within 10 s");
    }
    out.latency_ms.push_back(ms_between(drawn, Clock::now()));
  }
  out.wall_ms = ms_between(start, Clock::now());
  out.machine_cpu_ms = machine_busy_ms() - busy0;
  out.frames = frames;
  return out;
}

void add(Figures& total, const Figures& round) {
  total.latency_ms.insert(total.latency_ms.end(), round.latency_ms.begin(), round.latency_ms.end());
  total.wall_ms += round.wall_ms;
  total.capture_cpu_ms += round.capture_cpu_ms;
  total.machine_cpu_ms += round.machine_cpu_ms;
  total.frames += round.frames;
}

std::string row(const std::string& name, const Figures& f) {
  std::vector<double> l = f.latency_ms;
  std::sort(l.begin(), l.end());
  const auto at = [&](double p) { return l.empty() ? 0.0 : l[std::min(l.size() - 1, size_t(p * double(l.size() - 1) + 0.5))]; };
  char text[256];
  std::snprintf(text, sizeof text, "%-22s %7d %8.1f %9.2f %8.2f %13.2f %13.2f", name.c_str(), f.frames,
                f.frames * 1000.0 / f.wall_ms, at(0.5), at(0.9), f.capture_cpu_ms / f.frames,
                f.machine_cpu_ms / f.frames);
  return text;
}

int run(Size size, int frames, int rounds) {
  const Logger log = testing::quiet_log();
  platform::x11::VirtualDisplayOptions xo;
  xo.size = size;
  platform::x11::VirtualDisplay xvfb(xo);
  X11Painter x_painter(xvfb.name());
  platform::x11::X11CaptureOptions co;
  co.display = xvfb.name();
  co.framebuffer_shmid = xvfb.framebuffer_shmid();
  co.log = log;
  platform::x11::X11Capturer x_cap(co);

  auto sway = testing::start_sway(size);
  WaylandPainter w_painter(*sway);
  platform::wayland::ScreencopyCapturer w_cap(sway->socket_path(), log);
  if (x_cap.size() != size || w_cap.size() != size)
    throw std::runtime_error("a desktop is not " + to_string(size) + ": X11 " + to_string(x_cap.size()) +
                             ", Wayland " + to_string(w_cap.size()));

  uint32_t colour = 0x102030;
  // A first frame on each (the compositor's first one is whole), not counted.
  run_loop(x_painter, x_cap, 10, colour);
  run_loop(w_painter, w_cap, 10, colour);
  Figures x_total, w_total;
  for (int r = 0; r < rounds; ++r) {
    add(x_total, run_loop(x_painter, x_cap, frames, colour));
    add(w_total, run_loop(w_painter, w_cap, frames, colour));
  }
  std::cout << "Full-screen colour fills at " << to_string(size) << ", " << rounds << " rounds of " << frames
            << " frames each, taking turns\n"
            << "X11: " << x_cap.describe() << "\nWayland: " << w_cap.describe() << "\n\n"
            << "desktop                 frames      fps  latency ms     p90  capture CPU ms  machine CPU ms\n"
            << row("X11 (Xvfb)", x_total) << "\n"
            << row("Wayland (headless sway)", w_total) << "\n";
  return 0;
}

}  // namespace
}  // namespace voxl::bench

int main(int argc, char** argv) {
  CLI::App app{"The same full-screen animation captured from Xvfb and from headless sway"};
  std::string size_text = "1920x1080";
  int frames = 300, rounds = 3;
  app.add_option("--size", size_text, "both desktops' size, WxH");
  app.add_option("--frames", frames, "frames per round")->check(CLI::Range(1, 100000));
  app.add_option("--rounds", rounds, "rounds per desktop, taking turns")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  int w = 0, h = 0;
  char x = 0;
  std::istringstream in(size_text);
  if (!(in >> w >> x >> h) || x != 'x' || w < 64 || h < 64 || w > 7680 || h > 4320) {
    std::cerr << "--size: expected WxH between 64x64 and 7680x4320, got " << size_text << "\n";
    return 2;
  }
  try {
    return voxl::bench::run(voxl::Size{w, h}, frames, rounds);
  } catch (const std::exception& e) {
    std::cerr << "voxl-wayland-capture-bench: " << e.what() << "\n";
    return 1;
  }
}
