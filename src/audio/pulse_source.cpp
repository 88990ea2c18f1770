#include "audio/pulse_source.h"

#include <pulse/error.h>
#include <pulse/simple.h>

#include "audio/audio_format.h"

namespace voxl::audio {

namespace {

class PulseSource final : public AudioSource {
 public:
  explicit PulseSource(pa_simple* s) : s_(s) {}
  ~PulseSource() override { pa_simple_free(s_); }
  PulseSource(const PulseSource&) = delete;
  PulseSource& operator=(const PulseSource&) = delete;

  SourceStatus read(std::span<int16_t> pcm, std::string& error) override {
    int err = 0;
    if (pa_simple_read(s_, pcm.data(), pcm.size_bytes(), &err) < 0) {
      error = pa_strerror(err);
      return SourceStatus::kLost;
    }
    return SourceStatus::kOk;
  }

  uint64_t latency_us() override {
    int err = 0;
    const pa_usec_t l = pa_simple_get_latency(s_, &err);
    return l == pa_usec_t(-1) ? 0 : uint64_t(l);
  }

 private:
  pa_simple* s_;
};

}  // namespace

std::string pulse_device_name(const std::string& configured) {
  return configured == "output.monitor" ? "@DEFAULT_MONITOR@" : configured;
}

std::unique_ptr<AudioSource> open_pulse_source(const std::string& device, std::string& error) {
  const pa_sample_spec spec{PA_SAMPLE_S16LE, uint32_t(kSampleRate), uint8_t(kDesktopChannels)};
  const uint32_t frame_bytes = uint32_t(kFrameSamples * kDesktopChannels * sizeof(int16_t));
  // A fragment of one frame: the server hands over each frame as soon as it
  // is recorded instead of collecting its default ~2 s worth.
  const pa_buffer_attr attr{uint32_t(-1), uint32_t(-1), uint32_t(-1), uint32_t(-1), frame_bytes};
  int err = 0;
  const std::string name = pulse_device_name(device);
  pa_simple* s = pa_simple_new(nullptr, "voxl", PA_STREAM_RECORD, name.c_str(), "desktop audio", &spec,
                               nullptr, &attr, &err);
  if (!s) {
    error = pa_strerror(err);
    return nullptr;
  }
  return std::make_unique<PulseSource>(s);
}

}  // namespace voxl::audio
