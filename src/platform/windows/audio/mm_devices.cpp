#include <initguid.h>  // defines the property keys below in this file

#include "platform/windows/audio/mm_devices.h"

#include <functiondiscoverykeys_devpkey.h>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

using Microsoft::WRL::ComPtr;

ComPtr<IMMDeviceEnumerator> enumerator(std::string& error) {
  ComPtr<IMMDeviceEnumerator> e;
  const HRESULT hr = CoCreateInstance(__uuidof(MMDeviceEnumerator), nullptr, CLSCTX_ALL, IID_PPV_ARGS(&e));
  if (FAILED(hr)) error = describe_hresult("no sound devices (MMDeviceEnumerator)", hr);
  return e;
}

std::string friendly_name(IMMDevice* device) {
  ComPtr<IPropertyStore> props;
  if (FAILED(device->OpenPropertyStore(STGM_READ, &props))) return {};
  PROPVARIANT v;
  PropVariantInit(&v);
  std::string name;
  if (SUCCEEDED(props->GetValue(PKEY_Device_FriendlyName, &v)) && v.vt == VT_LPWSTR && v.pwszVal)
    name = to_utf8(v.pwszVal);
  PropVariantClear(&v);
  return name;
}

}  // namespace

std::optional<Endpoint> default_render_endpoint(std::string& error) {
  const auto e = enumerator(error);
  if (!e) return std::nullopt;
  Endpoint ep;
  const HRESULT hr = e->GetDefaultAudioEndpoint(eRender, eConsole, &ep.device);
  if (FAILED(hr)) {
    error = describe_hresult("no default output device", hr);
    return std::nullopt;
  }
  ep.name = friendly_name(ep.device.Get());
  return ep;
}

std::optional<Endpoint> find_render_endpoint(const std::vector<std::string>& parts, std::string& error) {
  const auto e = enumerator(error);
  if (!e) return std::nullopt;
  ComPtr<IMMDeviceCollection> all;
  HRESULT hr = e->EnumAudioEndpoints(eRender, DEVICE_STATE_ACTIVE, &all);
  if (FAILED(hr)) {
    error = describe_hresult("listing the output devices", hr);
    return std::nullopt;
  }
  UINT count = 0;
  all->GetCount(&count);
  std::vector<Endpoint> endpoints;
  for (UINT i = 0; i < count; ++i) {
    Endpoint ep;
    if (FAILED(all->Item(i, &ep.device))) continue;
    ep.name = friendly_name(ep.device.Get());
    endpoints.push_back(std::move(ep));
  }
  for (const auto& part : parts)
    for (const auto& ep : endpoints)
      if (ep.name.find(part) != std::string::npos) return ep;
  std::string wanted, names;
  for (const auto& part : parts) wanted += (wanted.empty() ? "\"" : " or \"") + part + "\"";
  for (const auto& ep : endpoints) names += (names.empty() ? "" : ", ") + ep.name;
  error = "no output device named like " + wanted + " (there are: " + (names.empty() ? "none" : names) + ")";
  return std::nullopt;
}

}  // namespace voxl::platform::windows
