#include "pulse_server.h"

#include <pulse/error.h>
#include <pulse/simple.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numbers>
#include <stdexcept>

namespace voxl::testing {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

uint64_t wall_us() {
  return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

std::string socket_of(const std::string& dir) { return dir + "/run/pulse/native"; }

}  // namespace

std::vector<std::string> PulseServer::env_for(const std::string& dir) {
  return {"HOME=" + dir + "/home", "XDG_RUNTIME_DIR=" + dir + "/run"};
}

std::string PulseServer::make_private_dir() {
  std::string templ = (fs::temp_directory_path() / "voxl-pulse-XXXXXX").string();
  if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  fs::create_directories(templ + "/home");
  fs::create_directories(templ + "/run");
  // PulseAudio insists on a runtime directory only its owner can enter;
  // a home is private too, as voxl expects of the directory of a FIFO that
  // PulseAudio makes 0666.
  chmod((templ + "/run").c_str(), 0700);
  chmod((templ + "/home").c_str(), 0700);
  return templ;
}

std::string PulseServer::server() const { return "unix:" + socket_of(dir_); }

PulseServer::PulseServer(std::string dir, std::chrono::milliseconds limit) : dir_(std::move(dir)) {
  if (dir_.empty()) {
    dir_ = make_private_dir();
    own_dir_ = true;
  }
  platform::ChildOptions o;
  o.argv = {"pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
            "--use-pid-file=no", "--disable-shm=yes",
            "-L", std::string("module-null-sink sink_name=") + kSink + " rate=48000 channels=2",
            "-L", "module-always-sink",
            // Last, so that a server that answers has every sink.
            "-L", "module-native-protocol-unix auth-anonymous=1"};
  o.env = env();
  daemon_ = std::make_unique<platform::ChildProcess>(o);
  // The socket appears once the modules are loaded; a server that answers
  // "info" is ready. There is no event to wait on from outside the daemon.
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (pactl("info") != 0) {
    if (daemon_->exited() || std::chrono::steady_clock::now() > deadline) {
      daemon_.reset();
      if (own_dir_) fs::remove_all(dir_);
      throw std::runtime_error("PulseAudio did not start (is the pulseaudio package installed?)");
    }
    std::this_thread::sleep_for(50ms);
  }
}

PulseServer::~PulseServer() {
  daemon_.reset();  // SIGTERM, then SIGKILL after the grace period
  std::error_code ec;
  if (own_dir_) fs::remove_all(dir_, ec);
}

int PulseServer::pactl(const std::string& args, std::string* out) const {
  const std::string cmd = "pactl --server=" + server() + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    if (out) out->append(buf.data(), n);
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// ---------------------------------------------------------------- TonePlayer

TonePlayer::TonePlayer(const std::string& server, const std::string& sink, double hz, bool start_with_tone,
                       int buffer_frames)
    : hz_(hz), buffer_frames_(buffer_frames), tone_(start_with_tone) {
  thread_ = std::thread([this, server, sink] { run(server, sink); });
}

TonePlayer::~TonePlayer() {
  stop_ = true;
  thread_.join();
}

uint64_t TonePlayer::tone_on(uint64_t* buffered_us) {
  {
    std::lock_guard lock(mu_);
    tone_pending_ = true;
  }
  tone_ = true;
  // The player reports the time once it has written the first tone frame.
  std::unique_lock lock(mu_);
  written_.wait(lock, [this] { return !tone_pending_ || failed_ || done_; });
  if (buffered_us) *buffered_us = tone_buffered_us_;
  return tone_written_us_;
}

void TonePlayer::run(std::string server, std::string sink) {
  const pa_sample_spec spec{PA_SAMPLE_S16LE, 48000, 2};
  constexpr uint32_t kFrameBytes = 480 * 2 * 2;
  const pa_buffer_attr attr{uint32_t(-1), uint32_t(buffer_frames_) * kFrameBytes, uint32_t(-1), kFrameBytes,
                            uint32_t(-1)};
  int err = 0;
  pa_simple* s = pa_simple_new(server.c_str(), "voxl-test", PA_STREAM_PLAYBACK, sink.c_str(), "tone", &spec,
                               nullptr, &attr, &err);
  if (!s) {
    std::lock_guard lock(mu_);
    failed_ = true;
    done_ = true;
    written_.notify_all();
    return;
  }
  std::array<int16_t, 480 * 2> pcm{};
  uint64_t t = 0;
  while (!stop_) {
    const bool tone = tone_;
    for (size_t i = 0; i < 480; ++i, ++t) {
      const auto v = tone ? int16_t(10000 * std::sin(2 * std::numbers::pi * hz_ * double(t) / 48000)) : 0;
      pcm[2 * i] = pcm[2 * i + 1] = v;
    }
    bool first_tone = false;
    {
      std::lock_guard lock(mu_);
      first_tone = tone && tone_pending_;
    }
    const uint64_t before = wall_us();
    const pa_usec_t queued = pa_simple_get_latency(s, &err);
    if (pa_simple_write(s, pcm.data(), sizeof pcm, &err) < 0) {
      failed_ = true;
      break;
    }
    if (first_tone) {
      std::lock_guard lock(mu_);
      tone_written_us_ = before;
      tone_buffered_us_ = queued == pa_usec_t(-1) ? 0 : queued;
      tone_pending_ = false;
      written_.notify_all();
    }
  }
  pa_simple_free(s);
  std::lock_guard lock(mu_);
  done_ = true;
  written_.notify_all();
}

// ------------------------------------------------------------------ Recorder

Recorder::Recorder(const std::string& server, const std::string& source) {
  thread_ = std::thread([this, server, source] { run(server, source); });
}

Recorder::~Recorder() {
  stop_ = true;
  thread_.join();
}

std::vector<int16_t> Recorder::samples() const {
  std::lock_guard lock(mu_);
  return samples_;
}

void Recorder::run(std::string server, std::string source) {
  const pa_sample_spec spec{PA_SAMPLE_S16LE, 48000, 1};
  const pa_buffer_attr attr{uint32_t(-1), uint32_t(-1), uint32_t(-1), uint32_t(-1), 960};
  int err = 0;
  pa_simple* s = pa_simple_new(server.c_str(), "voxl-test", PA_STREAM_RECORD, source.c_str(), "recorder", &spec,
                               nullptr, &attr, &err);
  if (!s) {
    failed_ = true;
    return;
  }
  std::array<int16_t, 480> pcm{};
  while (!stop_) {
    if (pa_simple_read(s, pcm.data(), sizeof pcm, &err) < 0) {
      failed_ = true;
      break;
    }
    std::lock_guard lock(mu_);
    samples_.insert(samples_.end(), pcm.begin(), pcm.end());
  }
  pa_simple_free(s);
}

}  // namespace voxl::testing
