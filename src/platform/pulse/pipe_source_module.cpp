#include "platform/pulse/pipe_source_module.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <exception>
#include <sstream>
#include <utility>
#include <vector>

#include "audio/audio_format.h"
#include "platform/child_process.h"

namespace voxl::platform::pulse {

namespace {

constexpr auto kPactlLimit = std::chrono::seconds(10);

struct PactlResult {
  bool ok = false;
  std::string out;
};

// Runs pactl with `args`; its stdout is collected. Blocking.
PactlResult pactl(const std::vector<std::string>& args) {
  PactlResult r;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return r;
  ChildOptions o;
  o.argv = {"pactl"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.fds = {{1, fds[1]}};
  std::unique_ptr<ChildProcess> child;
  try {
    child = std::make_unique<ChildProcess>(o);
  } catch (const std::exception&) {
    close(fds[0]);
    close(fds[1]);
    return r;
  }
  close(fds[1]);
  // Until pactl closes its stdout (it exits), or the limit: a server that
  // hangs must not hang voxl's shutdown.
  const auto deadline = std::chrono::steady_clock::now() + kPactlLimit;
  std::array<char, 4096> buf;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&p, 1, int(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t n = read(fds[0], buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      r.ok = true;
      break;
    }
    r.out.append(buf.data(), size_t(n));
  }
  close(fds[0]);
  child->stop();  // reaps it (a SIGTERM to one that has exited does nothing)
  return r;
}

// pactl prints the module index on success and nothing on stdout on
// failure.
bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::vector<std::string> load_args(const std::string& fifo) {
  return {"load-module",
          "module-pipe-source",
          std::string("source_name=") + kMicrophoneSourceName,
          "file=" + fifo,
          "format=s16le",
          "rate=" + std::to_string(audio::kSampleRate),
          "channels=" + std::to_string(audio::kMicrophoneChannels),
          "source_properties=device.description=voxl-microphone"};
}

}  // namespace

std::string pipe_source_command(const std::string& fifo) {
  std::string line = "pactl";
  for (const auto& a : load_args(fifo)) line += " " + a;
  return line;
}

PipeSourceModule::PipeSourceModule(std::string fifo, Logger log)
    : fifo_(std::move(fifo)), log_(std::move(log)), thread_([this] { run(); }) {}

PipeSourceModule::~PipeSourceModule() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

bool PipeSourceModule::load_now() {
  last_try_ = std::chrono::steady_clock::now();
  std::unique_lock lock(mu_);
  want_load_ = true;
  const uint64_t ticket = ++asked_;
  cv_.notify_all();
  // An attempt already running when this was asked does not count: it may
  // have looked for the module before it was there.
  cv_.wait(lock, [this, ticket] { return served_ >= ticket || stop_; });
  return loaded_;
}

void PipeSourceModule::load(bool remove_fifo) {
  const auto now = std::chrono::steady_clock::now();
  if (loaded_flag_ || (last_try_ && now - *last_try_ < kRetry)) return;
  last_try_ = now;
  {
    std::lock_guard lock(mu_);
    if (loaded_) return;
    want_load_ = true;
    remove_fifo_ = remove_fifo_ || remove_fifo;
    ++asked_;
  }
  cv_.notify_all();
}

void PipeSourceModule::run() {
  try {
    for (;;) {
      bool remove = false;
      uint64_t serving = 0;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return stop_ || want_load_; });
        if (stop_) break;
        want_load_ = false;
        remove = std::exchange(remove_fifo_, false);
        serving = asked_;
      }
      // The writer keeps its descriptor to the old pipe until it reopens.
      if (remove) unlink(fifo_.c_str());
      const bool ok = try_load();
      {
        std::lock_guard lock(mu_);
        loaded_ = ok;
        loaded_flag_ = ok;
        ++generation_;
        served_ = serving;
      }
      cv_.notify_all();
    }
    if (!module_index_.empty()) {
      pactl({"unload-module", module_index_});
      log_->debug("unloaded the microphone source (module {})", module_index_);
    }
  } catch (const std::exception& e) {
    log_->error("microphone source: {}", e.what());
  } catch (...) {
    log_->error("microphone source: an unknown exception");
  }
  // Stopped, or failed: a load_now() waiting, or asking later, is answered
  // at once (with loaded_ as it stands).
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    served_ = asked_;
  }
  cv_.notify_all();
}

// On the module thread only: module_index_ and warned_ are its alone.
bool PipeSourceModule::try_load() {
  // Already there (by hand, or an earlier voxl): use it as it is.
  const PactlResult list = pactl({"list", "short", "modules"});
  std::istringstream lines(list.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("module-pipe-source") != std::string::npos &&
        line.find("file=" + fifo_) != std::string::npos) {
      log_->info("microphone: PulseAudio source already reads {}", fifo_);
      return true;
    }
  }
  const PactlResult r = pactl(load_args(fifo_));
  const std::string index = trim(r.out);
  if (r.ok && all_digits(index)) {
    module_index_ = index;
    log_->info("microphone: PulseAudio source {} reads {} (module {})", kMicrophoneSourceName, fifo_, index);
    return true;
  }
  if (!warned_)
    log_->warn("microphone: could not load PulseAudio's pipe source (no pactl or no server yet); voxl "
               "tries again when microphone audio arrives. To load it by hand, before starting voxl: {}",
               pipe_source_command(fifo_));
  warned_ = true;
  return false;
}

}  // namespace voxl::platform::pulse
