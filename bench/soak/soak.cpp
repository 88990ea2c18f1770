// voxl-soak: streams an animation to two viewers for a long time (an hour
// by default) with churn around them, sampling voxl's memory, descriptors
// and shared-memory segments into a CSV, then prints a summary. Not a test:
// bench/soak/run.sh runs it and the figures are read by a person.
//
//   voxl-soak [--duration=3600] [--interval=10] [--csv=soak.csv]
//             [--hz=30] [--churn-every=2] [--rejoin-every=60] [--voxl-arg=...]
//
// Viewer A stays connected the whole run; viewer B leaves and rejoins every
// --rejoin-every seconds. Every --churn-every seconds one of: a short-lived
// viewer (joins, gets a picture, leaves), a /screenshot, a /wait. Each row
// of the CSV: seconds since start, VmRSS (KiB), open fds, SysV segments of
// voxl and its Xvfb and their bytes, frames A and B have received, churn
// operations done and failed.
//
// Threads: main samples; one thread each for the two viewers and the churn,
// plus the animator's own.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

#include "animator.h"
#include "platform/x11/virtual_display.h"
#include "http_client.h"
#include "interrupt.h"
#include "proc_stats.h"
#include "stream_client.h"
#include "voxl_process.h"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace vt = voxl::testing;

struct Sample {
  double t_s;
  long rss_kib;
  long fds;
  int segments;
  uint64_t segment_bytes;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Least-squares slope of y over x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  if (n < 2) return 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double d = double(n) * sxx - sx * sx;
  return d == 0 ? 0 : (double(n) * sxy - sx * sy) / d;
}

void print_range(const char* name, std::vector<double> v, const char* unit) {
  if (v.empty()) return;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  std::printf("%-14s min %10.0f  median %10.0f  max %10.0f %s\n", name, *lo, median(v), *hi, unit);
}

// Reads frames until `stop`; `frames` counts them. A viewer whose
// connection ends (or fails) reconnects after a second.
void viewer(uint16_t port, std::atomic<bool>& stop, std::atomic<uint64_t>& frames, std::atomic<uint64_t>& failures,
            std::chrono::seconds rejoin_every) {
  while (!stop) {
    try {
      vt::ClientOptions o;
      o.port = port;
      vt::StreamClient c(o);
      const auto joined = Clock::now();
      size_t seen = 0;
      while (!stop && !c.closed() && (rejoin_every.count() == 0 || Clock::now() - joined < rejoin_every)) {
        c.read_one(500ms);
        frames += c.frames().size() - seen;
        seen = c.frames().size();
      }
      if (c.closed() && !stop) ++failures;
    } catch (const std::exception& e) {
      ++failures;
      std::fprintf(stderr, "viewer: %s\n", e.what());
      std::this_thread::sleep_for(1s);
    }
  }
}

void churn(uint16_t port, std::atomic<bool>& stop, std::chrono::milliseconds every, std::atomic<uint64_t>& done,
           std::atomic<uint64_t>& failed) {
  for (uint64_t i = 0; !stop; ++i) {
    const auto next = Clock::now() + every;
    try {
      switch (i % 3) {
        case 0: {
          vt::ClientOptions o;
          o.port = port;
          vt::StreamClient c(o);
          if (!c.wait_until([&] { return c.picture().has_value(); }, 30s)) throw std::runtime_error("no picture");
          break;
        }
        case 1: {
          const auto a = vt::http_request(port, {"GET", "/screenshot", {}}, 60s);
          if (a.status != 200) throw std::runtime_error("/screenshot: " + std::to_string(a.status));
          break;
        }
        default: {
          const auto a = vt::http_request(port, {"GET", "/wait?idle=200&timeout=3000", {}}, 60s);
          if (a.status != 200) throw std::runtime_error("/wait: " + std::to_string(a.status));
          break;
        }
      }
      ++done;
    } catch (const std::exception& e) {
      ++failed;
      std::fprintf(stderr, "churn: %s\n", e.what());
    }
    while (!stop && Clock::now() < next) std::this_thread::sleep_for(50ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"voxl-soak: stream to two viewers with churn for a long time; sample RSS, fds and segments"};
  int duration_s = 3600, interval_s = 10, hz = 30, rejoin_s = 60, width = 960, height = 540;
  double churn_s = 2;
  std::string csv_path = "soak.csv";
  std::vector<std::string> voxl_args;
  app.add_option("--duration", duration_s, "seconds to run")->capture_default_str();
  app.add_option("--interval", interval_s, "seconds between samples")->capture_default_str();
  app.add_option("--csv", csv_path, "where the samples go")->capture_default_str();
  app.add_option("--hz", hz, "changes a second of the animation")->capture_default_str();
  app.add_option("--churn-every", churn_s, "seconds between churn operations")->capture_default_str();
  app.add_option("--rejoin-every", rejoin_s, "seconds between viewer B's leaving and rejoining")->capture_default_str();
  app.add_option("--width", width, "screen width")->capture_default_str();
  app.add_option("--height", height, "screen height")->capture_default_str();
  app.add_option("--voxl-arg", voxl_args, "an extra argument for voxl (repeatable)");
  CLI11_PARSE(app, argc, argv);
  if (duration_s < 1 || interval_s < 1) {
    std::fprintf(stderr, "voxl-soak: --duration and --interval must be at least 1\n");
    return 2;
  }

  std::ofstream csv(csv_path);
  if (!csv) {
    std::fprintf(stderr, "voxl-soak: cannot write %s\n", csv_path.c_str());
    return 2;
  }
  try {
    voxl::platform::x11::VirtualDisplayOptions display_options;
    display_options.size = {width, height};
    voxl::platform::x11::VirtualDisplay display(display_options);
    vt::VoxlProcess server(display.name(), voxl_args);
    voxl::bench::block_interrupts();  // after the children: they must not inherit the mask
    const std::vector<pid_t> pids{server.pid(), display.pid()};
    std::printf("voxl-soak: voxl pid %d on %s port %u for %d s, a sample every %d s into %s\n", int(server.pid()),
                display.name().c_str(), unsigned(server.port()), duration_s, interval_s, csv_path.c_str());
    std::fflush(stdout);

    std::atomic<bool> stop{false};
    std::atomic<uint64_t> frames_a{0}, frames_b{0}, viewer_failures{0}, churn_done{0}, churn_failed{0};
    std::vector<Sample> samples;
    csv << "t_s,rss_kib,fds,shm_segments,shm_bytes,frames_a,frames_b,churn_ops,churn_failures,viewer_failures\n";
    {
      vt::Animator animator(display.name(), voxl::Rect{0, 0, width, height}, hz);
      std::vector<std::thread> threads;
      threads.emplace_back([&] { viewer(server.port(), stop, frames_a, viewer_failures, 0s); });
      threads.emplace_back(
          [&] { viewer(server.port(), stop, frames_b, viewer_failures, std::chrono::seconds(rejoin_s)); });
      threads.emplace_back([&] {
        churn(server.port(), stop, std::chrono::milliseconds(int(churn_s * 1000)), churn_done, churn_failed);
      });
      const auto start = Clock::now();
      const auto end = start + std::chrono::seconds(duration_s);
      bool interrupted = false;
      for (auto next = start;; next += std::chrono::seconds(interval_s)) {
        while (Clock::now() < next) {
          try {
            voxl::bench::throw_if_interrupted();
          } catch (const voxl::bench::Interrupted&) {
            interrupted = true;
            break;
          }
          std::this_thread::sleep_for(100ms);
        }
        if (interrupted || !vt::process_alive(server.pid())) break;
        const double t = std::chrono::duration<double>(Clock::now() - start).count();
        const auto shm = vt::sysv_segments_of(pids);
        const Sample s{t, vt::rss_kib_of(server.pid()), vt::open_fds_of(server.pid()), shm.segments, shm.bytes};
        samples.push_back(s);
        csv << int(t) << "," << s.rss_kib << "," << s.fds << "," << s.segments << "," << s.segment_bytes << ","
            << frames_a << "," << frames_b << "," << churn_done << "," << churn_failed << "," << viewer_failures
            << "\n"
            << std::flush;
        if (Clock::now() >= end) break;
      }
      stop = true;
      for (auto& th : threads) th.join();
      if (interrupted) std::printf("voxl-soak: interrupted\n");
    }
    const bool alive = vt::process_alive(server.pid());
    const int status = server.stop();
    const std::string crashes = vt::crash_reports_in(server.log());

    std::vector<double> t, rss, fds, segs;
    for (const auto& s : samples) {
      t.push_back(s.t_s);
      rss.push_back(double(s.rss_kib));
      fds.push_back(double(s.fds));
      segs.push_back(double(s.segments));
    }
    const double elapsed = samples.empty() ? 0 : samples.back().t_s;
    std::printf("\nvoxl-soak summary: %zu samples over %.0f s\n", samples.size(), elapsed);
    print_range("RSS", rss, "KiB");
    print_range("open fds", fds, "");
    print_range("SysV segments", segs, "");
    // The second half: past start-up, where a leak shows as a steady slope.
    const size_t half = samples.size() / 2;
    const std::vector<double> t2(t.begin() + std::ptrdiff_t(half), t.end());
    const std::vector<double> rss2(rss.begin() + std::ptrdiff_t(half), rss.end());
    const std::vector<double> fds2(fds.begin() + std::ptrdiff_t(half), fds.end());
    std::printf("RSS slope over the last half: %.1f KiB/hour (%zu samples)\n", slope(t2, rss2) * 3600, t2.size());
    std::printf("fd slope over the last half: %.2f /hour\n", slope(t2, fds2) * 3600);
    if (elapsed > 0)
      std::printf("frames: viewer A %.1f/s, viewer B %.1f/s; churn %llu done, %llu failed; viewer reconnects after "
                  "failures %llu\n",
                  double(frames_a) / elapsed, double(frames_b) / elapsed,
                  static_cast<unsigned long long>(churn_done.load()),
                  static_cast<unsigned long long>(churn_failed.load()),
                  static_cast<unsigned long long>(viewer_failures.load()));
    std::printf("voxl %s during the run, exit status %d after SIGTERM%s\n", alive ? "ran" : "ENDED", status,
                crashes.empty() ? "" : "; its log reports a crash:");
    if (!crashes.empty()) std::printf("%s", crashes.c_str());
    return alive && status == 0 && crashes.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voxl-soak: %s\n", e.what());
    return 1;
  }
}
