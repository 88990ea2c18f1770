// voxl-resize-bench: how long the RandR resizer takes to change a private
// Xvfb's size, and how long until the capturer delivers its first frame of
// the new size showing a colour filled over it right after the resize (so
// the second figure includes that fill). The sizes cycle through shrinks
// and grows up to the Xvfb's start size.
//
//   voxl-resize-bench [--rounds=60] [--source=framebuffer|shm|getimage] [--max=3840x2160]
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <xcb/xcb.h>

#include "base/logging.h"
#include "bench_stats.h"
#include "capture/frame_pool.h"
#include "interrupt.h"
#include "platform/x11/randr_resizer.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"

namespace voxl::bench {
namespace {

using platform::x11::RandrResizer;
using platform::x11::VirtualDisplay;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

// One solid colour per round, filled over the whole new screen by a second
// client, so the first frame of the new size can be recognised.
class Filler {
 public:
  explicit Filler(const std::string& display) : c_(xcb_connect(display.c_str(), nullptr)) {
    if (xcb_connection_has_error(c_)) throw std::runtime_error("cannot connect to " + display);
    root_ = xcb_setup_roots_iterator(xcb_get_setup(c_)).data->root;
    gc_ = xcb_generate_id(c_);
    xcb_create_gc(c_, gc_, root_, 0, nullptr);
  }
  ~Filler() { xcb_disconnect(c_); }
  Filler(const Filler&) = delete;
  Filler& operator=(const Filler&) = delete;

  void fill(Size s, uint32_t rgb) {
    xcb_change_gc(c_, gc_, XCB_GC_FOREGROUND, &rgb);
    const xcb_rectangle_t r{0, 0, uint16_t(s.width), uint16_t(s.height)};
    xcb_poly_fill_rectangle(c_, root_, gc_, 1, &r);
    std::free(xcb_get_input_focus_reply(c_, xcb_get_input_focus(c_), nullptr));
  }

 private:
  xcb_connection_t* c_;
  xcb_window_t root_ = 0;
  xcb_gcontext_t gc_ = 0;
};

bool all_pixels(const capture::Frame& f, uint32_t rgb) {
  for (int y = 0; y < f.size().height; y += 7)
    for (int x = 0; x < f.size().width; x += 7)
      if (f.pixel(x, y) != rgb) return false;
  return f.pixel(f.size().width - 1, f.size().height - 1) == rgb;
}

int run(int argc, char** argv) {
  int rounds = 60;
  std::string source = "framebuffer";
  std::string max_text = "3840x2160";
  CLI::App app{"voxl-resize-bench: RandR resize and capture-follow times on a private Xvfb"};
  app.add_option("--rounds", rounds, "resizes to time")->check(CLI::Range(1, 10000));
  app.add_option("--source", source, "pixel source")->check(CLI::IsMember({"framebuffer", "shm", "getimage"}));
  app.add_option("--max", max_text, "the Xvfb's start (largest) size, WxH");
  CLI11_PARSE(app, argc, argv);
  Size max;
  if (std::sscanf(max_text.c_str(), "%dx%d", &max.width, &max.height) != 2 || max.empty())
    throw std::runtime_error("--max wants WxH");

  Logger log = make_stderr_logger("resize-bench");
  log->set_level(spdlog::level::warn);
  platform::x11::VirtualDisplayOptions vo;
  vo.size = max;
  VirtualDisplay xvfb(vo);
  block_interrupts();

  X11CaptureOptions o;
  o.display = xvfb.name();
  o.log = log;
  o.allow_shm = source != "getimage";
  o.allow_framebuffer = source == "framebuffer";
  if (source == "framebuffer") o.framebuffer_shmid = xvfb.framebuffer_shmid();
  X11Capturer cap(o);
  std::string why;
  auto resizer = RandrResizer::open(xvfb.name(), log, why);
  if (!resizer) throw std::runtime_error("no resizer: " + why);
  Filler filler(xvfb.name());
  capture::FramePool pool(3);

  auto scaled = [&](int num, int den) {
    return Size{max.width * num / den / 8 * 8, max.height * num / den / 2 * 2};
  };
  const std::vector<Size> sizes = {scaled(1, 2), scaled(1, 3), scaled(2, 3), scaled(5, 12), max, scaled(3, 4)};
  std::vector<double> resize_ms, follow_ms;
  for (int i = 0; i < rounds + 2; ++i) {  // the first two warm up
    throw_if_interrupted();
    const Size size = sizes[size_t(i) % sizes.size()];
    const uint32_t rgb = (0x102030u + uint32_t(i) * 0x010305u) & 0xffffffu;
    const auto t0 = Clock::now();
    std::string error;
    if (!resizer->resize(size, error))
      throw std::runtime_error("resize to " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                               ": " + error);
    const double resized = ms_since(t0);
    filler.fill(size, rgb);
    for (;;) {
      if (ms_since(t0) > 20000) throw std::runtime_error("no frame of the new size within 20 s");
      auto r = cap.capture(pool, std::chrono::milliseconds(1000));
      if (r.status == capture::CaptureStatus::kOk && r.frame->size() == size && all_pixels(*r.frame, rgb)) break;
      if (r.status != capture::CaptureStatus::kOk && r.status != capture::CaptureStatus::kNoChange)
        throw std::runtime_error("capture: " + r.error);
    }
    if (i >= 2) {
      resize_ms.push_back(resized);
      follow_ms.push_back(ms_since(t0));
    }
  }
  const Timing r = summarize(resize_ms), f = summarize(follow_ms);
  std::printf("%d resizes of a %dx%d Xvfb, %s source (%s)\n", rounds, max.width, max.height, source.c_str(),
              cap.source_reason().c_str());
  std::printf("| | p50 ms | p95 ms | mean ms |\n|---|---|---|---|\n");
  std::printf("| resize() | %.2f | %.2f | %.2f |\n", r.p50_ms, r.p95_ms, r.mean_ms);
  std::printf("| resize() to the first full frame of the new size | %.2f | %.2f | %.2f |\n", f.p50_ms, f.p95_ms,
              f.mean_ms);
  return 0;
}

}  // namespace
}  // namespace voxl::bench

int main(int argc, char** argv) {
  try {
    return voxl::bench::run(argc, argv);
  } catch (const voxl::bench::Interrupted&) {
    return voxl::bench::kInterruptedExitCode;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voxl-resize-bench: %s\n", e.what());
    return 1;
  }
}
