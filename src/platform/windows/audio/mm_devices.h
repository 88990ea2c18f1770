// The system's sound endpoints (IMMDeviceEnumerator): the default render
// endpoint, or the first active render endpoint whose friendly name
// contains a given text ("Speakers", "CABLE Input").
//
// Threads: any thread with COM initialised (ComApartment); the objects
// returned belong to that thread's apartment.
#pragma once

#include <mmdeviceapi.h>
#include <wrl/client.h>

#include <optional>
#include <string>
#include <vector>

namespace voxl::platform::windows {

// The buffer the loopback source and the microphone sink ask WASAPI for in
// shared mode: 200 ms, in REFERENCE_TIME's 100 ns units.
inline constexpr long long kSharedBufferDuration = 2'000'000;

struct Endpoint {
  Microsoft::WRL::ComPtr<IMMDevice> device;
  std::string name;  // friendly name, UTF-8
};

// The default output device (eRender, eConsole); nullopt and `error`.
std::optional<Endpoint> default_render_endpoint(std::string& error);
// The first active render endpoint whose name contains one of `parts`
// (case-sensitive, in the order given); nullopt and `error` (listing the
// endpoints there are) when none does.
std::optional<Endpoint> find_render_endpoint(const std::vector<std::string>& parts, std::string& error);

}  // namespace voxl::platform::windows
