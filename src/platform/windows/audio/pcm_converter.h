// From the shared-mode mix format WASAPI hands out (32-bit float or 16/32
// bit integer PCM, any channel count, any rate) to what voxl encodes:
// interleaved 16-bit stereo at audio::kSampleRate. Mono is copied to both
// sides; with more channels the first two (front left and right, in
// WAVEFORMATEXTENSIBLE order) are kept and the rest dropped. Rates are
// matched by linear interpolation: simple and cheap, fine for speech and
// the UI sounds a remote desktop carries, not audiophile (no low-pass
// filter before decimating from higher rates).
//
// Converted audio waits in a buffer of at most kMaxBufferedFrames; when
// the reader falls behind, the oldest is dropped.
//
// Threads: one thread at a time; pure computation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>

namespace voxl::platform::windows {

enum class SampleType { kFloat32, kInt16, kInt32 };

class PcmConverter {
 public:
  // Throws std::invalid_argument for a rate or channel count of 0.
  PcmConverter(SampleType type, int channels, int rate);

  // Converts `frames` frames at `data` (interleaved, `channels` wide);
  // silent: as many frames of silence (WASAPI's AUDCLNT_BUFFERFLAGS_SILENT).
  void push(const void* data, size_t frames, bool silent);
  // Moves up to pcm.size() converted samples (whole stereo frames) into
  // `pcm`; returns how many samples it wrote.
  size_t pop(std::span<int16_t> pcm);
  size_t buffered_frames() const { return out_.size() / 2; }
  uint64_t dropped_frames() const { return dropped_frames_; }

  // Half a second of stereo at kSampleRate.
  static constexpr size_t kMaxBufferedFrames = 24000;

 private:
  void input_frame(float left, float right);

  SampleType type_;
  int channels_;
  double step_;  // input frames per output frame
  double pos_ = 0;
  bool have_prev_ = false;
  float prev_l_ = 0, prev_r_ = 0;
  std::deque<int16_t> out_;
  uint64_t dropped_frames_ = 0;
};

}  // namespace voxl::platform::windows
