#include "platform/pulse/pulse_source.h"

#include <pulse/error.h>
#include <pulse/context.h>
#include <pulse/mainloop.h>
#include <pulse/stream.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "audio/audio_format.h"

namespace voxl::platform::pulse {

namespace {

constexpr size_t kFrameBytes = size_t(audio::kFrameSamples) * audio::kDesktopChannels * sizeof(int16_t);
// What may collect here before the oldest sound goes: 100 ms. read() takes
// a frame as soon as it is whole, so only a burst from the server gets
// there; late sound is worth less than a gap.
constexpr size_t kMaxPendingBytes = 10 * kFrameBytes;

// The asynchronous API on a plain mainloop that the audio thread itself
// runs inside read(), rather than pa_simple: a monitor hands its audio on in
// pieces as small as the smallest playback buffer into the sink (well under
// a millisecond), and pa_simple's own mainloop thread wakes the reader for
// every piece, two context switches and a dozen system calls each. Here the
// read callback collects the pieces on the reading thread, and read()
// returns once a whole frame is there: one thread, no hand-off.
class PulseSource final : public audio::AudioSource {
 public:
  PulseSource() = default;
  ~PulseSource() override {
    if (stream_) {
      pa_stream_disconnect(stream_);
      pa_stream_unref(stream_);
    }
    if (ctx_) {
      pa_context_disconnect(ctx_);
      pa_context_unref(ctx_);
    }
    if (ml_) pa_mainloop_free(ml_);
  }
  PulseSource(const PulseSource&) = delete;
  PulseSource& operator=(const PulseSource&) = delete;

  bool open(const std::string& device, std::string& error) {
    ml_ = pa_mainloop_new();
    if (!ml_) return fail_with("cannot create a PulseAudio mainloop", error);
    ctx_ = pa_context_new(pa_mainloop_get_api(ml_), "voxl");
    if (!ctx_) return fail_with("cannot create a PulseAudio context", error);
    if (pa_context_connect(ctx_, nullptr, PA_CONTEXT_NOFLAGS, nullptr) < 0)
      return fail_with(pa_strerror(pa_context_errno(ctx_)), error);
    for (;;) {
      const pa_context_state_t s = pa_context_get_state(ctx_);
      if (s == PA_CONTEXT_READY) break;
      if (!PA_CONTEXT_IS_GOOD(s)) return fail_with(pa_strerror(pa_context_errno(ctx_)), error);
      if (pa_mainloop_iterate(ml_, 1, nullptr) < 0) return fail_with("the PulseAudio mainloop failed", error);
    }
    const pa_sample_spec spec{PA_SAMPLE_S16LE, uint32_t(audio::kSampleRate), uint8_t(audio::kDesktopChannels)};
    stream_ = pa_stream_new(ctx_, "desktop audio", &spec, nullptr);
    if (!stream_) return fail_with(pa_strerror(pa_context_errno(ctx_)), error);
    pa_stream_set_read_callback(stream_, &PulseSource::on_read, this);
    // Fragments of one frame, with the source's latency adjusted to match
    // (the flags pa_simple uses): the server sends each piece as soon as it
    // is recorded instead of collecting its default ~2 s worth.
    const pa_buffer_attr attr{uint32_t(-1), uint32_t(-1), uint32_t(-1), uint32_t(-1), uint32_t(kFrameBytes)};
    const auto flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY | PA_STREAM_INTERPOLATE_TIMING |
                                         PA_STREAM_AUTO_TIMING_UPDATE);
    if (pa_stream_connect_record(stream_, device.c_str(), &attr, flags) < 0)
      return fail_with(pa_strerror(pa_context_errno(ctx_)), error);
    for (;;) {
      const pa_stream_state_t s = pa_stream_get_state(stream_);
      if (s == PA_STREAM_READY) return true;
      if (!PA_STREAM_IS_GOOD(s)) return fail_with(pa_strerror(pa_context_errno(ctx_)), error);
      if (pa_mainloop_iterate(ml_, 1, nullptr) < 0) return fail_with("the PulseAudio mainloop failed", error);
    }
  }

  audio::SourceStatus read(std::span<int16_t> pcm, std::string& error) override {
    const size_t want = pcm.size_bytes();
    while (pending_.size() < want) {
      if (!alive(error)) return audio::SourceStatus::kLost;
      const int r = pa_mainloop_iterate(ml_, 1, nullptr);
      if (r < 0) {
        error = "the PulseAudio mainloop failed";
        return audio::SourceStatus::kLost;
      }
    }
    std::memcpy(pcm.data(), pending_.data(), want);
    pending_.erase(pending_.begin(), pending_.begin() + ptrdiff_t(want));
    return audio::SourceStatus::kOk;
  }

  uint64_t latency_us() override {
    // The stream's latency covers what the server has recorded and this
    // client has not taken yet; what waits in pending_ comes on top.
    pa_usec_t l = 0;
    int negative = 0;
    if (pa_stream_get_latency(stream_, &l, &negative) < 0 || negative) l = 0;
    return uint64_t(l) + bytes_to_us(pending_.size());
  }

 private:
  static uint64_t bytes_to_us(size_t bytes) {
    return uint64_t(bytes / (audio::kDesktopChannels * sizeof(int16_t))) * 1000000 / uint64_t(audio::kSampleRate);
  }

  static bool fail_with(const char* what, std::string& error) {
    error = what;
    return false;
  }

  bool alive(std::string& error) const {
    if (PA_CONTEXT_IS_GOOD(pa_context_get_state(ctx_)) && PA_STREAM_IS_GOOD(pa_stream_get_state(stream_)))
      return true;
    const int e = pa_context_errno(ctx_);
    error = e ? pa_strerror(e) : "the stream ended";
    return false;
  }

  // Called from pa_mainloop_iterate, on the reading thread.
  static void on_read(pa_stream* s, size_t readable, void* arg) {
    auto& pending = static_cast<PulseSource*>(arg)->pending_;
    const void* data = nullptr;
    size_t n = 0;
    // `readable` says how much is there: each library call costs a
    // getpid() (its fork check), so ask no more than needed.
    while (readable > 0 && pa_stream_peek(s, &data, &n) == 0 && n > 0) {
      const auto* bytes = static_cast<const uint8_t*>(data);
      if (bytes) pending.insert(pending.end(), bytes, bytes + n);
      else pending.resize(pending.size() + n, 0);  // a hole: silence
      pa_stream_drop(s);
      readable -= std::min(readable, n);
    }
    if (pending.size() > kMaxPendingBytes) {
      // Whole frames, so the samples stay aligned on channels.
      const size_t drop = (pending.size() - kMaxPendingBytes + kFrameBytes - 1) / kFrameBytes * kFrameBytes;
      pending.erase(pending.begin(), pending.begin() + ptrdiff_t(drop));
    }
  }

  pa_mainloop* ml_ = nullptr;
  pa_context* ctx_ = nullptr;
  pa_stream* stream_ = nullptr;
  std::vector<uint8_t> pending_;  // received, not yet read
};

}  // namespace

std::string pulse_device_name(const std::string& configured) {
  return configured == "output.monitor" ? "@DEFAULT_MONITOR@" : configured;
}

std::unique_ptr<audio::AudioSource> open_pulse_source(const std::string& device, std::string& error) {
  auto source = std::make_unique<PulseSource>();
  if (!source->open(pulse_device_name(device), error)) return nullptr;
  return source;
}

}  // namespace voxl::platform::pulse
