// A short sine tone on PulseAudio's default sink (libpulse-simple), played
// on a thread of its own so the X event loop never waits for sound. The
// server is the environment's (PULSE_SERVER, or $XDG_RUNTIME_DIR/pulse/
// native), the one voxl records the default sink's monitor from when run
// with the same environment. At start, and every few seconds while none is
// reachable, the thread checks that a server takes a playback stream, so
// the button can say sound is unavailable before anyone presses it.
//
// Threads: construct, play() and status() from any one thread; the player
// runs its own worker. Owns the worker; the destructor stops a tone being
// played and joins it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace voxl::demo {

class TonePlayer {
 public:
  enum class State { kChecking, kReady, kPlaying, kUnavailable };
  struct Status {
    State state = State::kChecking;
    std::string why;  // for kUnavailable: PulseAudio's reason
    bool operator==(const Status&) const = default;
  };

  TonePlayer(double hz, std::chrono::milliseconds length);
  ~TonePlayer();
  TonePlayer(const TonePlayer&) = delete;
  TonePlayer& operator=(const TonePlayer&) = delete;

  // Plays the tone once; ignored while one is playing. While no server
  // was reachable, tries again at once.
  void play();
  Status status() const;

 private:
  void run();
  // Opens a playback stream; writes the tone into it when `play`. Returns
  // false with `why` when the server cannot be reached or fails.
  bool attempt(bool play, std::string& why);
  void set(State s, std::string why = {});

  std::vector<int16_t> samples_;  // 48 kHz stereo s16, faded in and out
  mutable std::mutex mu_;
  std::condition_variable wake_;
  Status status_;
  bool play_requested_ = false;
  bool stopping_ = false;
  std::thread worker_;  // last: starts once the rest is set up
};

}  // namespace voxl::demo
