#include "platform/windows/audio/wasapi_loopback_source.h"

#include <windows.h>
#include <audioclient.h>
#include <mmreg.h>
#include <ksmedia.h>
#include <wrl/client.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "audio/audio_format.h"
#include "platform/windows/audio/mm_devices.h"
#include "platform/windows/audio/pcm_converter.h"
#include "platform/windows/com_apartment.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

using Microsoft::WRL::ComPtr;

// How long past the end of a frame read() waits for sound before it fills
// the frame with silence.
constexpr DWORD kSilenceMarginMs = 20;

bool is_default(const std::string& name) { return name.empty() || name == "default"; }

// The sample type of a shared-mode mix format; nullopt for the ones voxl
// does not convert (24-bit packed, 8-bit, compressed).
std::optional<SampleType> sample_type(const WAVEFORMATEX& f) {
  bool is_float = f.wFormatTag == WAVE_FORMAT_IEEE_FLOAT;
  bool is_pcm = f.wFormatTag == WAVE_FORMAT_PCM;
  if (f.wFormatTag == WAVE_FORMAT_EXTENSIBLE && f.cbSize >= 22) {
    const auto& x = reinterpret_cast<const WAVEFORMATEXTENSIBLE&>(f);
    is_float = IsEqualGUID(x.SubFormat, KSDATAFORMAT_SUBTYPE_IEEE_FLOAT);
    is_pcm = IsEqualGUID(x.SubFormat, KSDATAFORMAT_SUBTYPE_PCM);
  }
  if (is_float && f.wBitsPerSample == 32) return SampleType::kFloat32;
  if (is_pcm && f.wBitsPerSample == 16) return SampleType::kInt16;
  if (is_pcm && f.wBitsPerSample == 32) return SampleType::kInt32;
  return std::nullopt;
}

struct CoTaskFree {
  void operator()(void* p) const { CoTaskMemFree(p); }
};

class WasapiLoopbackSource final : public audio::AudioSource {
 public:
  explicit WasapiLoopbackSource(Logger log) : log_(std::move(log)) {}
  ~WasapiLoopbackSource() override {
    if (client_) client_->Stop();
    if (event_) CloseHandle(event_);
  }
  WasapiLoopbackSource(const WasapiLoopbackSource&) = delete;
  WasapiLoopbackSource& operator=(const WasapiLoopbackSource&) = delete;

  bool open(const std::string& device_name, std::string& error);
  audio::SourceStatus read(std::span<int16_t> pcm, std::string& error) override;
  uint64_t latency_us() override {
    return converter_ ? converter_->buffered_frames() * 1'000'000ull / audio::kSampleRate : 0;
  }

 private:
  bool initialise(IMMDevice* device, bool with_event, std::string& error);
  // Moves every packet WASAPI holds into the converter; false on a failure
  // (`error` set); `got` says whether any came.
  bool drain(bool& got, std::string& error);
  static std::string lost(HRESULT hr, const char* what) {
    if (hr == AUDCLNT_E_DEVICE_INVALIDATED) return "the output device went away";
    return describe_hresult(what, hr);
  }

  ComApartment com_;  // first in, last out
  Logger log_;
  ComPtr<IAudioClient> client_;
  ComPtr<IAudioCaptureClient> capture_;
  HANDLE event_ = nullptr;
  bool event_driven_ = false;
  DWORD period_ms_ = 10;
  std::optional<PcmConverter> converter_;
};

bool WasapiLoopbackSource::initialise(IMMDevice* device, bool with_event, std::string& error) {
  client_.Reset();
  HRESULT hr = device->Activate(__uuidof(IAudioClient), CLSCTX_ALL, nullptr, &client_);
  if (FAILED(hr)) {
    error = describe_hresult("activating the output device", hr);
    return false;
  }
  WAVEFORMATEX* raw = nullptr;
  hr = client_->GetMixFormat(&raw);
  if (FAILED(hr)) {
    error = describe_hresult("reading the mix format", hr);
    return false;
  }
  std::unique_ptr<WAVEFORMATEX, CoTaskFree> format(raw);
  const auto type = sample_type(*format);
  if (!type || format->nChannels == 0 || format->nSamplesPerSec == 0) {
    error = "the output device mixes in a format voxl does not convert (tag " + std::to_string(format->wFormatTag) +
            ", " + std::to_string(format->wBitsPerSample) + " bits)";
    return false;
  }
  const DWORD flags = AUDCLNT_STREAMFLAGS_LOOPBACK | (with_event ? AUDCLNT_STREAMFLAGS_EVENTCALLBACK : 0);
  hr = client_->Initialize(AUDCLNT_SHAREMODE_SHARED, flags, kSharedBufferDuration, 0, format.get(), nullptr);
  if (FAILED(hr)) {
    error = describe_hresult("starting loopback capture", hr);
    return false;
  }
  if (with_event) {
    hr = client_->SetEventHandle(event_);
    if (FAILED(hr)) {
      error = describe_hresult("loopback events", hr);
      return false;
    }
  }
  REFERENCE_TIME period = 0;
  if (SUCCEEDED(client_->GetDevicePeriod(&period, nullptr)) && period > 0)
    period_ms_ = DWORD(std::clamp<REFERENCE_TIME>(period / 10'000, 1, 50));
  hr = client_->GetService(IID_PPV_ARGS(&capture_));
  if (FAILED(hr)) {
    error = describe_hresult("the capture client", hr);
    return false;
  }
  converter_.emplace(*type, format->nChannels, int(format->nSamplesPerSec));
  event_driven_ = with_event;
  log_->debug("audio: WASAPI loopback of {} Hz, {} channels, {} bits, {}", format->nSamplesPerSec,
              format->nChannels, format->wBitsPerSample, with_event ? "event-driven" : "read every device period");
  return true;
}

bool WasapiLoopbackSource::open(const std::string& device_name, std::string& error) {
  if (!com_.usable()) {
    error = describe_hresult("COM", com_.result());
    return false;
  }
  const auto endpoint = is_default(device_name) ? default_render_endpoint(error)
                                                : find_render_endpoint({device_name}, error);
  if (!endpoint) return false;
  event_ = CreateEventW(nullptr, FALSE, FALSE, nullptr);
  if (!event_) {
    error = describe_last_error("CreateEvent");
    return false;
  }
  // Systems before Windows 10 1703 refuse an event with loopback.
  std::string event_error;
  if (!initialise(endpoint->device.Get(), true, event_error)) {
    log_->debug("audio: loopback without events ({})", event_error);
    if (!initialise(endpoint->device.Get(), false, error)) return false;
  }
  const HRESULT hr = client_->Start();
  if (FAILED(hr)) {
    error = lost(hr, "starting loopback capture");
    return false;
  }
  log_->debug("audio: loopback of \"{}\"", endpoint->name);
  return true;
}

bool WasapiLoopbackSource::drain(bool& got, std::string& error) {
  got = false;
  for (;;) {
    UINT32 next = 0;
    HRESULT hr = capture_->GetNextPacketSize(&next);
    if (FAILED(hr)) {
      error = lost(hr, "reading loopback audio");
      return false;
    }
    if (next == 0) return true;
    BYTE* data = nullptr;
    UINT32 frames = 0;
    DWORD flags = 0;
    hr = capture_->GetBuffer(&data, &frames, &flags, nullptr, nullptr);
    if (FAILED(hr)) {
      error = lost(hr, "reading loopback audio");
      return false;
    }
    converter_->push(data, frames, (flags & AUDCLNT_BUFFERFLAGS_SILENT) != 0);
    capture_->ReleaseBuffer(frames);
    got = got || frames > 0;
  }
}

audio::SourceStatus WasapiLoopbackSource::read(std::span<int16_t> pcm, std::string& error) {
  size_t filled = 0;
  ULONGLONG since = GetTickCount64();  // the last sound, or the start
  while (filled < pcm.size()) {
    filled += converter_->pop(pcm.subspan(filled));
    if (filled >= pcm.size()) break;
    bool got = false;
    if (!drain(got, error)) return audio::SourceStatus::kLost;
    if (got) {
      since = GetTickCount64();
      continue;
    }
    const size_t missing_frames = (pcm.size() - filled) / audio::kDesktopChannels;
    const ULONGLONG patience = missing_frames * 1000 / audio::kSampleRate + kSilenceMarginMs;
    const ULONGLONG waited = GetTickCount64() - since;
    if (waited >= patience) {
      // Nothing plays: loopback sends nothing, voxl sends silence.
      std::fill(pcm.begin() + std::ptrdiff_t(filled), pcm.end(), int16_t{0});
      break;
    }
    if (event_driven_)
      WaitForSingleObject(event_, DWORD(patience - waited));
    else
      Sleep(period_ms_);  // the device period: no event to wait for
  }
  return audio::SourceStatus::kOk;
}

}  // namespace

audio::SourceOpener wasapi_loopback_opener(std::string device_name, Logger log) {
  return [device_name = std::move(device_name), log = std::move(log)](std::string& error)
             -> std::unique_ptr<audio::AudioSource> {
    try {
      auto source = std::make_unique<WasapiLoopbackSource>(log);
      if (!source->open(device_name, error)) return nullptr;
      return source;
    } catch (const std::exception& e) {
      error = e.what();
      return nullptr;
    }
  };
}

std::string wasapi_loopback_label(const std::string& device_name) {
  if (is_default(device_name)) return "the default output device (WASAPI loopback)";
  return "output device \"" + device_name + "\" (WASAPI loopback)";
}

}  // namespace voxl::platform::windows
