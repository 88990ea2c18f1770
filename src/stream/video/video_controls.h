// What the rest of the program tells the video thread, and how the thread
// waits on it: whether anyone watches, whether every viewer is congested
// (paused), which rungs are coded and ready, key frames asked for, each
// rung's bitrate ceiling, the frame rate ceiling, whether 4:4:4 may be
// coded and the motion choice (motion_choice.h). Writers say whether the
// thread's capture wait should be woken.
//
// Threads: the setters from any thread; wait_*(), pace() and the readers
// on the video thread. Everything is under one mutex or atomic.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "stream/video/motion_choice.h"
#include "stream/video/rung_planner.h"

namespace voxl::stream {

class VideoControls {
 public:
  using Clock = std::chrono::steady_clock;

  VideoControls(int max_fps, int max_kbps);

  // --- writers (any thread) ---
  void set_active(bool active);
  void set_paused(bool paused);
  // True when a ready rung that owes damage should be woken to code it.
  [[nodiscard]] bool set_rung(int rung, bool coded, bool ready);
  void ask_key(int rung);
  void ask_all_keys();
  void set_max_kbps(int rung, int kbps);
  void set_max_fps(int fps) { max_fps_ = fps; }
  void set_full_chroma(bool allowed) { full_chroma_ = allowed; }
  void set_motion(Motion m) { motion_ = m; }
  void stop();

  // --- the video thread ---
  // Until someone watches; false once stopping.
  [[nodiscard]] bool wait_active();
  // Waits until `earliest` (the frame rate), then while every viewer is
  // congested, at most `max_pause`. nullopt when stopping or no longer
  // active (look again); else whether it is still paused.
  std::optional<bool> pace(Clock::time_point earliest, Clock::duration max_pause);
  // Waits `delay`, then while no one watches: false once stopping.
  [[nodiscard]] bool wait_rebuild(Clock::duration delay);

  struct Rungs {
    std::array<bool, kMaxRungs> coded{};
    std::array<bool, kMaxRungs> ready{};
  };
  Rungs rungs() const;
  bool key_asked(int rung) const { return keyframe_[size_t(rung)].load(); }
  // Takes the key frame request (true when there was one).
  bool take_key(int rung) { return keyframe_[size_t(rung)].exchange(false); }
  int max_kbps(int rung) const { return max_kbps_[size_t(rung)].load(); }
  int max_fps() const { return max_fps_.load(); }
  bool full_chroma() const { return full_chroma_.load(); }
  Motion motion() const { return motion_.load(); }
  // The video thread says which rungs skipped damage they have yet to code.
  void set_owes(int rung, bool owes) { owes_[size_t(rung)] = owes; }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool active_ = false;
  bool paused_ = false;
  bool stop_ = false;
  std::array<bool, kMaxRungs> coded_{true};  // under mu_
  std::array<bool, kMaxRungs> ready_{true};  // under mu_
  std::array<std::atomic<bool>, kMaxRungs> keyframe_{};
  std::array<std::atomic<int>, kMaxRungs> max_kbps_{};
  std::array<std::atomic<bool>, kMaxRungs> owes_{};
  std::atomic<int> max_fps_;
  std::atomic<bool> full_chroma_{false};
  std::atomic<Motion> motion_{Motion::kAuto};
};

}  // namespace voxl::stream
