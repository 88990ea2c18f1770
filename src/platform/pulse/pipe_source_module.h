// Loads PulseAudio's module-pipe-source on the microphone FIFO, so the
// desktop's applications see a "voxl-microphone" source, and unloads it at
// exit, through `pactl`.
//
// The module creates the FIFO itself and refuses a path that exists
// (PulseAudio 16), so at start load_now() runs before voxl makes the FIFO.
// When that fails (no pactl, no server yet) it logs, once, the command to
// run by hand; load() tries again later (when microphone audio arrives) at
// most once every kRetry, on the module's thread: it removes voxl's own
// FIFO first, loads the module, and bumps generation() so the writer
// reopens the path (the module's new FIFO, or a missing path to recreate
// when loading failed again).
//
// An existing pipe source on the same FIFO (loaded by hand, or left by an
// earlier voxl) is reused and left loaded at exit.
//
// Threads: construct, load_now(), load() and destroy on one thread (the
// loop thread); loaded() and generation() from any. Every pactl call runs
// on the module's own thread, which alone touches what a load leaves
// (module_index_, warned_): load_now() hands it a request and waits for the
// answer, so a load it asks for while one from load() runs waits for that
// one (and finds its module) rather than loading a second. load_now() and
// the destructor block on pactl (bounded by its timeout); load() does not.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "base/logging.h"

namespace voxl::platform::pulse {

inline constexpr const char* kMicrophoneSourceName = "voxl_microphone";

// The pactl line that loads the pipe source for `fifo` (for docs/audio.md
// and the log).
std::string pipe_source_command(const std::string& fifo);

class PipeSourceModule {
 public:
  PipeSourceModule(std::string fifo, Logger log);
  ~PipeSourceModule();
  PipeSourceModule(const PipeSourceModule&) = delete;
  PipeSourceModule& operator=(const PipeSourceModule&) = delete;

  // Start-up: loads the module now (on the module's thread, waiting for
  // it); true when it reads the FIFO. loaded() says the same later.
  bool load_now();
  // Asks for the module to be loaded if it is not (yet); cheap and
  // rate-limited. `remove_fifo`: the FIFO at the path is voxl's own and
  // must go for the module to create its own (a request waiting keeps it).
  void load(bool remove_fifo);
  bool loaded() const { return loaded_flag_; }
  // Changes each time the file at the FIFO's path may have been replaced.
  uint32_t generation() const { return generation_; }

  static constexpr std::chrono::seconds kRetry{10};

 private:
  void run();
  bool try_load();  // on the module thread

  const std::string fifo_;
  const Logger log_;
  std::optional<std::chrono::steady_clock::time_point> last_try_;  // the owner's thread

  // Under mu_; cv_ wakes the module thread for a request and load_now()
  // for its answer.
  std::mutex mu_;
  std::condition_variable cv_;
  bool want_load_ = false;
  bool remove_fifo_ = false;
  uint64_t asked_ = 0;   // load requests made
  uint64_t served_ = 0;  // the last request a finished attempt covered
  bool loaded_ = false;  // by us or found loaded
  bool stop_ = false;

  std::atomic<bool> loaded_flag_{false};
  std::atomic<uint32_t> generation_{0};

  // The module thread's alone.
  std::string module_index_;  // ours to unload; empty when not ours
  bool warned_ = false;

  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace voxl::platform::pulse
