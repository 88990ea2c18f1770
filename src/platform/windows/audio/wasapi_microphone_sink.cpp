#include "platform/windows/audio/wasapi_microphone_sink.h"

#include <windows.h>
#include <audioclient.h>
#include <mmreg.h>
#include <wrl/client.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "audio/audio_format.h"
#include "platform/windows/audio/mm_devices.h"
#include "platform/windows/com_apartment.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

using Microsoft::WRL::ComPtr;


}  // namespace

struct WasapiMicrophoneSink::Stream {
  ComApartment com;  // first in, last out
  ComPtr<IAudioClient> client;
  ComPtr<IAudioRenderClient> render;
  UINT32 buffer_frames = 0;
  ~Stream() {
    if (client) client->Stop();
  }
};

WasapiMicrophoneSink::WasapiMicrophoneSink(std::string device_name, Logger log)
    : log_(std::move(log)), stream_(std::make_unique<Stream>()) {
  if (!stream_->com.usable()) throw std::runtime_error(describe_hresult("COM", stream_->com.result()));
  std::string error;
  const std::vector<std::string> parts =
      device_name.empty() ? std::vector<std::string>{"CABLE Input", "Virtual"} : std::vector<std::string>{device_name};
  const auto endpoint = find_render_endpoint(parts, error);
  if (!endpoint) throw std::runtime_error("microphone: " + error);
  endpoint_name_ = endpoint->name;
  auto& s = *stream_;
  HRESULT hr = endpoint->device->Activate(__uuidof(IAudioClient), CLSCTX_ALL, nullptr, &s.client);
  if (FAILED(hr)) throw std::runtime_error(describe_hresult("microphone: activating \"" + endpoint_name_ + "\"", hr));
  WAVEFORMATEX format{};
  format.wFormatTag = WAVE_FORMAT_PCM;
  format.nChannels = audio::kMicrophoneChannels;
  format.nSamplesPerSec = audio::kSampleRate;
  format.wBitsPerSample = 16;
  format.nBlockAlign = WORD(format.nChannels * format.wBitsPerSample / 8);
  format.nAvgBytesPerSec = format.nSamplesPerSec * format.nBlockAlign;
  hr = s.client->Initialize(AUDCLNT_SHAREMODE_SHARED,
                            AUDCLNT_STREAMFLAGS_AUTOCONVERTPCM | AUDCLNT_STREAMFLAGS_SRC_DEFAULT_QUALITY,
                            kSharedBufferDuration, 0, &format, nullptr);
  if (FAILED(hr)) throw std::runtime_error(describe_hresult("microphone: opening \"" + endpoint_name_ + "\"", hr));
  hr = s.client->GetBufferSize(&s.buffer_frames);
  if (FAILED(hr)) throw std::runtime_error(describe_hresult("microphone: buffer size", hr));
  hr = s.client->GetService(IID_PPV_ARGS(&s.render));
  if (FAILED(hr)) throw std::runtime_error(describe_hresult("microphone: render client", hr));
  hr = s.client->Start();
  if (FAILED(hr)) throw std::runtime_error(describe_hresult("microphone: starting \"" + endpoint_name_ + "\"", hr));
  log_->debug("microphone: playing into \"{}\" ({} frames of buffer)", endpoint_name_, s.buffer_frames);
}

WasapiMicrophoneSink::~WasapiMicrophoneSink() = default;

std::string WasapiMicrophoneSink::describe() const { return "output device \"" + endpoint_name_ + "\" (WASAPI)"; }

void WasapiMicrophoneSink::write(std::span<const int16_t> pcm) {
  const size_t frames = pcm.size() / audio::kMicrophoneChannels;
  if (failed_ || frames == 0) {
    dropped_frames_ += frames;
    return;
  }
  auto& s = *stream_;
  const auto fail = [&](const char* what, HRESULT hr) {
    failed_ = true;
    dropped_frames_ += frames;
    log_->warn("microphone: {}; the viewers' microphone no longer reaches the desktop",
               hr == AUDCLNT_E_DEVICE_INVALIDATED ? "\"" + endpoint_name_ + "\" went away" : describe_hresult(what, hr));
  };
  UINT32 padding = 0;
  HRESULT hr = s.client->GetCurrentPadding(&padding);
  if (FAILED(hr)) return fail("microphone: padding", hr);
  const UINT32 room = s.buffer_frames > padding ? s.buffer_frames - padding : 0;
  const UINT32 n = UINT32(std::min<size_t>(room, frames));
  dropped_frames_ += frames - n;
  if (n == 0) return;
  BYTE* data = nullptr;
  hr = s.render->GetBuffer(n, &data);
  if (FAILED(hr)) return fail("microphone: buffer", hr);
  std::memcpy(data, pcm.data(), size_t(n) * audio::kMicrophoneChannels * sizeof(int16_t));
  s.render->ReleaseBuffer(n, 0);
}

}  // namespace voxl::platform::windows
