#include "platform/windows/audio/pcm_converter.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "audio/audio_format.h"

namespace voxl::platform::windows {

namespace {

int16_t to_s16(float v) { return int16_t(std::clamp(v * 32767.0f, -32768.0f, 32767.0f)); }

float sample_at(const uint8_t* p, SampleType type) {
  switch (type) {
    case SampleType::kFloat32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case SampleType::kInt16: {
      int16_t s;
      std::memcpy(&s, p, 2);
      return float(s) / 32768.0f;
    }
    case SampleType::kInt32: {
      int32_t s;
      std::memcpy(&s, p, 4);
      return float(double(s) / 2147483648.0);
    }
  }
  return 0;
}

size_t sample_bytes(SampleType type) { return type == SampleType::kInt16 ? 2 : 4; }

}  // namespace

PcmConverter::PcmConverter(SampleType type, int channels, int rate)
    : type_(type), channels_(channels), step_(rate > 0 ? double(rate) / audio::kSampleRate : 0) {
  if (channels <= 0 || rate <= 0) throw std::invalid_argument("audio format without channels or rate");
}

void PcmConverter::push(const void* data, size_t frames, bool silent) {
  const auto* p = static_cast<const uint8_t*>(data);
  const size_t bytes = sample_bytes(type_);
  const size_t stride = bytes * size_t(channels_);
  for (size_t i = 0; i < frames; ++i) {
    if (silent || !p) {
      input_frame(0, 0);
      continue;
    }
    const uint8_t* f = p + i * stride;
    const float left = sample_at(f, type_);
    const float right = channels_ > 1 ? sample_at(f + bytes, type_) : left;
    input_frame(left, right);
  }
  const size_t max_samples = kMaxBufferedFrames * 2;
  if (out_.size() > max_samples) {
    const size_t drop = out_.size() - max_samples;
    out_.erase(out_.begin(), out_.begin() + std::ptrdiff_t(drop));
    dropped_frames_ += drop / 2;
  }
}

// Linear interpolation between the previous input frame and this one, at
// every output instant that falls between them.
void PcmConverter::input_frame(float left, float right) {
  if (!have_prev_) {
    prev_l_ = left;
    prev_r_ = right;
    have_prev_ = true;
    return;
  }
  while (pos_ < 1.0) {
    const auto t = float(pos_);
    out_.push_back(to_s16(prev_l_ + (left - prev_l_) * t));
    out_.push_back(to_s16(prev_r_ + (right - prev_r_) * t));
    pos_ += step_;
  }
  pos_ -= 1.0;
  prev_l_ = left;
  prev_r_ = right;
}

size_t PcmConverter::pop(std::span<int16_t> pcm) {
  const size_t n = std::min(pcm.size() / 2 * 2, out_.size());
  std::copy_n(out_.begin(), n, pcm.begin());
  out_.erase(out_.begin(), out_.begin() + std::ptrdiff_t(n));
  return n;
}

}  // namespace voxl::platform::windows
