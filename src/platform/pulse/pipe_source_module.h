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
// loop thread); generation() from any. load_now() and the destructor block
// on pactl (bounded by a timeout); load() does not.
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

  // Start-up: loads the module now; true when it reads the FIFO.
  bool load_now();
  // Asks for the module to be loaded if it is not (yet); cheap and
  // rate-limited. `remove_fifo`: the FIFO at the path is voxl's own and
  // must go for the module to create its own.
  void load(bool remove_fifo);
  bool loaded() const { return loaded_flag_; }
  // Changes each time the file at the FIFO's path may have been replaced.
  uint32_t generation() const { return generation_; }

  static constexpr std::chrono::seconds kRetry{10};

 private:
  void run();
  bool try_load();  // on the module thread

  std::string fifo_;
  Logger log_;
  std::optional<std::chrono::steady_clock::time_point> last_try_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool want_load_ = false;
  bool remove_fifo_ = false;
  std::atomic<bool> loaded_flag_{false};
  std::atomic<uint32_t> generation_{0};
  bool loaded_ = false;  // by us or found loaded
  bool stop_ = false;
  std::string module_index_;  // ours to unload; empty when not ours
  bool warned_ = false;
  std::thread thread_;
};

}  // namespace voxl::platform::pulse
