// voxl-audio-bench: how long a sound takes from the desktop's sink to a
// decoded viewer, and what audio costs voxl in CPU. Run through
// bench/audio.sh (release build). Not a test: it prints figures.
//
// Latency: a private Xvfb and PulseAudio, voxl streaming them, a client
// decoding the Opus packets. Silence plays into the null sink; then a 440 Hz
// tone starts. The latency is from the wall-clock time just before the
// tone's first sample is written into the sink to the moment the client
// has decoded the packet where the tone begins. The player's own stream
// buffer (reported alongside) is part of it: a null sink plays what it is
// given as it renders.
//
// CPU: voxl's user+system time over a window with one viewer and a still
// screen, with audio on (a tone playing) and with --audio-enabled=false.
#include <sys/times.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "platform/x11/virtual_display.h"
#include "pulse_server.h"
#include "stream_client.h"
#include "tone.h"
#include "voxl_process.h"

using namespace voxl;
using namespace voxl::testing;
using namespace std::chrono_literals;

namespace {

uint64_t wall_us() {
  return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream rest(s.substr(s.rfind(')') + 2));
  std::string field;
  unsigned long utime = 0, stime = 0;
  for (int i = 3; i <= 15; ++i) {
    rest >> field;
    if (i == 14) utime = std::stoul(field);
    if (i == 15) stime = std::stoul(field);
  }
  return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

ClientOptions client_for(const VoxlProcess& v) {
  ClientOptions o;
  o.port = v.port();
  return o;
}

int measure_latency(const platform::x11::VirtualDisplay& display, int trials) {
  PulseServer pulse;
  // A short player buffer (20 ms), so the tone enters the mix soon after
  // it is written.
  TonePlayer player(pulse.server(), PulseServer::kSink, 440, false, 2);
  VoxlProcess voxl(display.name(), {}, 60s, pulse.env());
  StreamClient client(client_for(voxl));
  if (!client.wait_until([&] { return client.audio().size() >= 100; }, 30s)) {
    std::fprintf(stderr, "no audio arrived: %s\n", client.status().c_str());
    return 1;
  }
  TestOpusDecoder decoder(2);
  size_t next = 0;
  // Decodes what has arrived; returns the wall time at which the packet
  // holding the onset was decoded, or 0.
  auto decode_new = [&](bool look, uint64_t& capture_of_onset) -> uint64_t {
    for (; next < client.audio().size(); ++next) {
      std::vector<float> pcm;
      decoder.decode(client.audio()[next].packet, pcm);
      const uint64_t decoded_at = wall_us();
      const long at = look ? onset(pcm, 0.05f) : -1;
      if (at >= 0) {
        capture_of_onset = client.audio()[next].header.capture_us + uint64_t(at) * 1000000 / 48000;
        ++next;
        return decoded_at;
      }
    }
    return 0;
  };
  std::vector<double> total, to_capture, capture_to_decoded, player_buffer;
  for (int i = 0; i < trials; ++i) {
    // 300 ms of silence first, so the onset is clear.
    player.tone_off();
    client.wait_until([] { return false; }, 300ms);
    uint64_t ignored = 0;
    decode_new(false, ignored);
    uint64_t buffered = 0;
    const uint64_t written = player.tone_on(&buffered);
    player_buffer.push_back(double(buffered) / 1000.0);
    uint64_t decoded = 0, captured = 0;
    client.wait_until([&] { return (decoded = decode_new(true, captured)) != 0; }, 5s);
    if (!decoded) {
      std::fprintf(stderr, "trial %d: the tone never arrived\n", i);
      continue;
    }
    total.push_back(double(int64_t(decoded - written)) / 1000.0);
    to_capture.push_back(double(int64_t(captured - written)) / 1000.0);
    capture_to_decoded.push_back(double(int64_t(decoded - captured)) / 1000.0);
  }
  std::printf("audio latency, tone written into the sink -> decoded in the client, %zu trials (ms):\n", total.size());
  std::printf("  total                 median %.1f  p10 %.1f  p90 %.1f\n", percentile(total, 0.5),
              percentile(total, 0.1), percentile(total, 0.9));
  std::printf("  written -> capture stamp median %.1f (negative: the stamp is earlier than the write)\n",
              percentile(to_capture, 0.5));
  std::printf("  player's stream buffer at the write, median %.1f\n", percentile(player_buffer, 0.5));
  std::printf("  capture stamp -> decoded median %.1f\n", percentile(capture_to_decoded, 0.5));
  return total.empty() ? 1 : 0;
}

double measure_cpu(const platform::x11::VirtualDisplay& display, bool audio, std::chrono::seconds window,
                   int cpu_player_frames) {
  PulseServer pulse;
  TonePlayer player(pulse.server(), PulseServer::kSink, 440, true, cpu_player_frames);
  std::vector<std::string> args;
  if (!audio) args.push_back("--audio-enabled=false");
  VoxlProcess voxl(display.name(), args, 60s, pulse.env());
  StreamClient client(client_for(voxl));
  client.wait_until([&] { return client.picture().has_value() && (!audio || client.audio().size() >= 50); }, 30s);
  client.wait_until([] { return false; }, 2s);  // settle
  const double c0 = cpu_seconds(voxl.pid());
  const auto t0 = std::chrono::steady_clock::now();
  client.wait_until([] { return false; }, window);
  const double c1 = cpu_seconds(voxl.pid());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return 100.0 * (c1 - c0) / secs;
}

}  // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 30;
  const auto window = std::chrono::seconds(argc > 2 ? std::atoi(argv[2]) : 20);
  try {
    platform::x11::VirtualDisplayOptions o;
    o.size = {640, 480};
    platform::x11::VirtualDisplay display(o);
    const int rc = measure_latency(display, trials);
    const double off = measure_cpu(display, false, window, 4);
    std::printf("voxl CPU, one viewer, still screen, %lld s each (%% of one core):\n",
                static_cast<long long>(window.count()));
    std::printf("  --audio-enabled=false                       %.2f%%\n", off);
    // The server hands a monitor's audio on in pieces as small as the
    // smallest playback buffer into the sink; each costs the reader a dispatch.
    for (int frames : {4, 2}) {
      const double on = measure_cpu(display, true, window, frames);
      std::printf("  audio on, player buffer %d ms               %.2f%% (audio costs %.2f%%)\n", frames * 10, on,
                  on - off);
    }
    return rc;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voxl-audio-bench: %s\n", e.what());
    return 1;
  }
}
