#include "tone_player.h"

#include <pulse/error.h>
#include <pulse/simple.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace voxl::demo {

namespace {

constexpr int kRate = 48000;
constexpr int kChannels = 2;
constexpr auto kRetry = std::chrono::seconds(5);
// Written 20 ms at a time, so a stop is noticed between pieces.
constexpr size_t kPieceFrames = kRate / 50;

std::vector<int16_t> make_tone(double hz, std::chrono::milliseconds length) {
  const size_t frames = size_t(kRate) * size_t(length.count()) / 1000;
  const size_t ramp = kRate / 100;  // 10 ms in and out, so it starts and stops without a click
  std::vector<int16_t> out(frames * kChannels);
  for (size_t i = 0; i < frames; ++i) {
    double gain = 0.3;
    const size_t edge = std::min(i, frames - 1 - i);
    if (edge < ramp) gain *= 0.5 - 0.5 * std::cos(std::numbers::pi * double(edge) / double(ramp));
    const auto v = int16_t(std::lround(32767 * gain * std::sin(2 * std::numbers::pi * hz * double(i) / kRate)));
    for (int ch = 0; ch < kChannels; ++ch) out[i * kChannels + size_t(ch)] = v;
  }
  return out;
}

}  // namespace

TonePlayer::TonePlayer(double hz, std::chrono::milliseconds length)
    : samples_(make_tone(hz, length)), worker_([this] { run(); }) {}

TonePlayer::~TonePlayer() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void TonePlayer::play() {
  {
    std::lock_guard lock(mu_);
    if (status_.state == State::kPlaying) return;
    play_requested_ = true;
  }
  wake_.notify_all();
}

TonePlayer::Status TonePlayer::status() const {
  std::lock_guard lock(mu_);
  return status_;
}

void TonePlayer::set(State s, std::string why) {
  std::lock_guard lock(mu_);
  status_ = {s, std::move(why)};
}

void TonePlayer::run() {
  std::string why;
  const bool reachable = attempt(false, why);
  set(reachable ? State::kReady : State::kUnavailable, reachable ? std::string() : why);
  for (;;) {
    std::unique_lock lock(mu_);
    const auto pending = [this] { return stopping_ || play_requested_; };
    if (status_.state == State::kUnavailable) wake_.wait_for(lock, kRetry, pending);
    else wake_.wait(lock, pending);
    if (stopping_) return;
    const bool play = play_requested_;
    play_requested_ = false;
    if (play) status_ = {State::kPlaying, {}};
    lock.unlock();
    const bool ok = attempt(play, why);
    set(ok ? State::kReady : State::kUnavailable, ok ? std::string() : why);
  }
}

bool TonePlayer::attempt(bool play, std::string& why) {
  const pa_sample_spec spec{PA_SAMPLE_S16LE, kRate, kChannels};
  // A short buffer, so the tone reaches the mix (and voxl) soon after the
  // click.
  pa_buffer_attr attr;
  attr.maxlength = uint32_t(-1);
  attr.tlength = uint32_t(pa_usec_to_bytes(50000, &spec));
  attr.prebuf = uint32_t(-1);
  attr.minreq = uint32_t(-1);
  attr.fragsize = uint32_t(-1);
  int error = 0;
  pa_simple* s = pa_simple_new(nullptr, "voxl-demo", PA_STREAM_PLAYBACK, nullptr, "tone", &spec, nullptr, &attr, &error);
  if (!s) {
    why = pa_strerror(error);
    return false;
  }
  bool ok = true;
  if (play) {
    const size_t step = kPieceFrames * kChannels;
    for (size_t at = 0; ok && at < samples_.size(); at += step) {
      {
        std::lock_guard lock(mu_);
        if (stopping_) break;
      }
      const size_t n = std::min(step, samples_.size() - at);
      ok = pa_simple_write(s, samples_.data() + at, n * sizeof(int16_t), &error) == 0;
    }
    if (ok) ok = pa_simple_drain(s, &error) == 0;
    if (!ok) why = pa_strerror(error);
  }
  pa_simple_free(s);
  return ok;
}

}  // namespace voxl::demo
