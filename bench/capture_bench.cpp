// voxl-capture-bench: times the real X11 capturer with each of its pixel
// sources (GetImage, ShmGetImage, the Xvfb framebuffer) on screen regions of
// several sizes, next to a plain memcpy of the same bytes, and refuses to
// report numbers it cannot vouch for: every source must return exactly
// GetImage's pixels, each capturer must use the source it was set up for,
// and none may fall back during the run.
#include <array>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "base/logging.h"
#include "bench_options.h"
#include "bench_report.h"
#include "bench_stats.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/x11_capturer.h"
#include "interrupt.h"
#include "source_bench.h"
#include "test_pattern.h"

namespace voxl::bench {

namespace {

using platform::x11::SourceKind;
using platform::x11::VirtualDisplay;
using platform::x11::X11CaptureOptions;
using platform::x11::X11Capturer;

struct SourceSpec {
  SourceKind kind;
  const char* label;
  bool allow_shm;
  bool allow_framebuffer;
};

// GetImage comes first: its pictures are what the others must reproduce,
// and its mean is what their speed-ups are relative to.
constexpr std::array<SourceSpec, 3> kSources{{
    {SourceKind::kGetImage, "GetImage", false, false},
    {SourceKind::kShm, "ShmGetImage", true, false},
    {SourceKind::kFramebuffer, "Xvfb framebuffer", true, true},
}};

// The display under test and what is known about it.
struct Target {
  std::string display;
  bool private_xvfb = false;
  std::optional<int> framebuffer_shmid;  // the private Xvfb's, passed on to the capturer
  Size screen;
};

class Bench {
 public:
  Bench(const BenchOptions& opt, Target target, Logger log)
      : opt_(opt), target_(std::move(target)), log_(std::move(log)) {}

  BenchReport run();

 private:
  void measure_size(Size size);
  std::unique_ptr<X11Capturer> open_capturer(Size size, const SourceSpec& spec);
  void add_rows(Size size, const SourceSpec& spec, const SourceTimings& t,
                std::optional<double>& get_image_mean);
  void add_memcpy_row(Size size, double get_image_mean);
  void note_source(const std::string& text);

  const BenchOptions& opt_;
  Target target_;
  Logger log_;
  BenchReport report_;
};

BenchReport Bench::run() {
  for (const Size s : opt_.sizes)
    if (!Rect::from_size(target_.screen).contains(Rect::from_size(s)))
      throw std::runtime_error("capture size " + to_string(s) + " does not fit the " +
                               to_string(target_.screen) + " screen");
  report_.display = target_.display;
  report_.server = target_.private_xvfb ? "private Xvfb (-shmem, framebuffer segment " +
                                              std::to_string(*target_.framebuffer_shmid) + ")"
                                        : "existing display";
  report_.screen = target_.screen;
  report_.warmup = opt_.warmup;
  report_.iterations = opt_.iterations;
  for (const Size s : opt_.sizes) measure_size(s);
  report_.notes.push_back(
      "Pixels checked: at every size, each source's complete frames (after full and after "
      "damaged grabs) equal GetImage's, and GetImage's equal the painted test pattern");
  return std::move(report_);
}

// "<source>: <why chosen>" out of the capturer's description; the part
// before " via " names the display and region, which the report gives.
std::string source_detail(const X11Capturer& capturer) {
  const std::string d = capturer.describe();
  const size_t via = d.find(" via ");
  return via == std::string::npos ? d : d.substr(via + 5);
}

// The picture the pattern window shows in a capture area at the origin.
Snapshot expected_picture(Size size) {
  Snapshot s{size, std::vector<uint32_t>(size_t(size.area()))};
  for (int y = 0; y < size.height; ++y)
    for (int x = 0; x < size.width; ++x)
      s.pixels[size_t(y) * size_t(size.width) + size_t(x)] = PatternWindow::color_at(x, y);
  return s;
}

void Bench::measure_size(Size size) {
  log_->info("measuring {}", to_string(size));
  const Snapshot pattern = expected_picture(size);
  std::optional<Snapshot> reference;  // GetImage's complete frame
  std::optional<double> get_image_mean;
  for (const SourceSpec& spec : kSources) {
    const std::unique_ptr<X11Capturer> capturer = open_capturer(size, spec);
    if (!capturer) continue;
    const std::string name = std::string(spec.label) + " at " + to_string(size);
    auto inspect = [&](const char* stage, const capture::Frame& frame) {
      Snapshot got = take_snapshot(frame);
      if (!reference) {
        if (std::string d = describe_difference(got, pattern); !d.empty())
          throw BenchCheckFailed(name + ": the screen does not show the test pattern (" + stage +
                                 " frame): " + d);
        reference = std::move(got);
      } else if (std::string d = describe_difference(got, *reference); !d.empty()) {
        throw BenchCheckFailed(name + ": " + stage + " frame differs from GetImage's: " + d);
      }
    };
    const SourceTimings t = measure_source(*capturer, name, opt_.warmup, opt_.iterations, inspect);
    if (capturer->fallbacks() > 0 || capturer->source_kind() != spec.kind)
      throw BenchCheckFailed(name + ": the capturer fell back to " +
                             platform::x11::to_string(capturer->source_kind()) +
                             " during the run: " + capturer->source_reason());
    add_rows(size, spec, t, get_image_mean);
  }
  add_memcpy_row(size, get_image_mean.value_or(0));
}

std::unique_ptr<X11Capturer> Bench::open_capturer(Size size, const SourceSpec& spec) {
  X11CaptureOptions o;
  o.display = target_.display;
  o.target = X11CaptureOptions::Target::kRegion;
  o.region = Rect::from_size(size);
  o.allow_shm = spec.allow_shm;
  o.allow_framebuffer = spec.allow_framebuffer;
  if (spec.kind == SourceKind::kFramebuffer) o.framebuffer_shmid = target_.framebuffer_shmid;
  o.log = log_;
  auto capturer = std::make_unique<X11Capturer>(std::move(o));
  if (capturer->source_kind() == spec.kind) {
    note_source("Source " + source_detail(*capturer));
    return capturer;
  }
  // Only a display we started ourselves is known to have a framebuffer.
  if (spec.kind == SourceKind::kFramebuffer && !target_.private_xvfb) {
    note_source(std::string(spec.label) +
                " not measured: this display has no Xvfb -shmem framebuffer (the capturer chose " +
                platform::x11::to_string(capturer->source_kind()) + ")");
    return nullptr;
  }
  throw BenchCheckFailed(std::string(spec.label) + " at " + to_string(size) +
                         ": the capturer chose " +
                         platform::x11::to_string(capturer->source_kind()) + " instead of " +
                         platform::x11::to_string(spec.kind) + ": " + capturer->source_reason());
}

void Bench::add_rows(Size size, const SourceSpec& spec, const SourceTimings& t,
                     std::optional<double>& get_image_mean) {
  if (spec.kind == SourceKind::kGetImage) get_image_mean = t.full.mean_ms;
  ResultRow full{size, GrabKind::kFull, platform::x11::to_string(spec.kind), spec.label,
                 size.area(), t.full, std::nullopt, std::nullopt};
  if (get_image_mean && t.full.mean_ms > 0) full.speedup = *get_image_mean / t.full.mean_ms;
  ResultRow damaged{size, GrabKind::kDamaged, full.source, spec.label,
                    int64_t{kDamagedSide} * kDamagedSide, t.damaged, std::nullopt, std::nullopt};
  if (t.full.mean_ms > 0) damaged.of_full = t.damaged.mean_ms / t.full.mean_ms;
  report_.rows.push_back(std::move(full));
  report_.rows.push_back(std::move(damaged));
}

void Bench::add_memcpy_row(Size size, double get_image_mean) {
  ResultRow row{size, GrabKind::kMemcpy, "memcpy", "memcpy (floor)", size.area(),
                time_memcpy(size, target_.screen, opt_.warmup, opt_.iterations),
                std::nullopt, std::nullopt};
  if (get_image_mean > 0 && row.timing.mean_ms > 0)
    row.speedup = get_image_mean / row.timing.mean_ms;
  report_.rows.push_back(std::move(row));
}

void Bench::note_source(const std::string& text) {
  // The same source reads the same at every size: say it once.
  for (const std::string& s : report_.sources)
    if (s == text) return;
  report_.sources.push_back(text);
}

// Starts the private Xvfb unless --display names a display to use.
Target open_target(const BenchOptions& opt, std::optional<VirtualDisplay>& xvfb) {
  Target t;
  if (!opt.display.empty()) {
    t.display = opt.display;
    return t;
  }
  platform::x11::VirtualDisplayOptions vo;
  vo.size = opt.screen;
  vo.shmem_framebuffer = true;
  xvfb.emplace(vo);
  if (!xvfb->framebuffer_shmid())
    throw std::runtime_error("Xvfb -shmem did not announce its framebuffer segment: " +
                             xvfb->output());
  t.display = xvfb->name();
  t.private_xvfb = true;
  t.framebuffer_shmid = xvfb->framebuffer_shmid();
  return t;
}

int run(const BenchOptions& opt) {
  Logger log = make_stderr_logger("bench");
  set_level(*log, opt.log_level);
  try {
    // Declared first so it is destroyed last: the Xvfb outlives its clients.
    std::optional<VirtualDisplay> xvfb;
    Target target = open_target(opt, xvfb);
    block_interrupts();
    const PatternWindow pattern(target.display);
    target.screen = pattern.screen();
    const BenchReport report = Bench(opt, std::move(target), log).run();
    std::cout << (opt.json ? to_json(report) : to_markdown(report)) << std::flush;
    return 0;
  } catch (const Interrupted& e) {
    std::cerr << "voxl-capture-bench: " << e.what() << "; stopped cleanly\n";
    return kInterruptedExitCode;
  } catch (const BenchCheckFailed& e) {
    std::cerr << "voxl-capture-bench: check failed: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "voxl-capture-bench: cannot run: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

}  // namespace voxl::bench

int main(int argc, char** argv) {
  const voxl::bench::ParsedOptions parsed = voxl::bench::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  return voxl::bench::run(*parsed.options);
}
