#include "platform/windows/capture/dxgi_duplicator.h"

#include <d3d11.h>
#include <dxgi1_2.h>
#include <wrl/client.h>

#include <algorithm>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

using Microsoft::WRL::ComPtr;

struct DxgiDuplicator::Com {
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  ComPtr<IDXGIOutputDuplication> duplication;
  ComPtr<ID3D11Texture2D> staging;
};

namespace {

Rect to_rect(const RECT& r) { return {int(r.left), int(r.top), int(r.right - r.left), int(r.bottom - r.top)}; }

std::string not_available(const std::string& step, HRESULT hr) {
  std::string wine;
  if (hr == E_NOTIMPL && running_under_wine(wine))
    return "Wine " + wine + " does not implement DXGI Desktop Duplication (" +
           describe_hresult(step, hr) + ")";
  return describe_hresult(step, hr);
}

}  // namespace

bool running_under_wine(std::string& version) {
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (!ntdll) return false;
  using GetVersion = const char*(CDECL*)();
  FARPROC p = GetProcAddress(ntdll, "wine_get_version");
  if (!p) return false;
  auto get = reinterpret_cast<GetVersion>(reinterpret_cast<void*>(p));
  version = get() ? get() : "";
  return true;
}

std::unique_ptr<DxgiDuplicator::Com> DxgiDuplicator::open_com(HMONITOR monitor, Rect& desktop, std::string& name,
                                                              std::string& why) {
  ComPtr<IDXGIFactory1> factory;
  HRESULT hr = CreateDXGIFactory1(__uuidof(IDXGIFactory1), reinterpret_cast<void**>(factory.GetAddressOf()));
  if (FAILED(hr)) {
    why = not_available("CreateDXGIFactory1", hr);
    return nullptr;
  }
  ComPtr<IDXGIAdapter1> adapter;
  ComPtr<IDXGIOutput> output;
  DXGI_OUTPUT_DESC desc{};
  bool found = false;
  for (UINT a = 0; !found && factory->EnumAdapters1(a, adapter.ReleaseAndGetAddressOf()) == S_OK; ++a) {
    for (UINT o = 0; adapter->EnumOutputs(o, output.ReleaseAndGetAddressOf()) == S_OK; ++o) {
      if (SUCCEEDED(output->GetDesc(&desc)) && desc.Monitor == monitor) {
        found = true;
        break;
      }
    }
  }
  if (!found) {
    why = "no DXGI adapter output shows this monitor";
    return nullptr;
  }
  if (desc.Rotation != DXGI_MODE_ROTATION_IDENTITY && desc.Rotation != DXGI_MODE_ROTATION_UNSPECIFIED) {
    why = "the monitor is rotated, and the DXGI path does not rotate images back";
    return nullptr;
  }
  auto com = std::make_unique<Com>();
  hr = D3D11CreateDevice(adapter.Get(), D3D_DRIVER_TYPE_UNKNOWN, nullptr, D3D11_CREATE_DEVICE_BGRA_SUPPORT, nullptr,
                         0, D3D11_SDK_VERSION, com->device.GetAddressOf(), nullptr, com->context.GetAddressOf());
  if (FAILED(hr)) {
    why = not_available("D3D11CreateDevice", hr);
    return nullptr;
  }
  ComPtr<IDXGIOutput1> output1;
  hr = output.As(&output1);
  if (FAILED(hr)) {
    why = not_available("IDXGIOutput1 (DXGI 1.2)", hr);
    return nullptr;
  }
  hr = output1->DuplicateOutput(com->device.Get(), com->duplication.GetAddressOf());
  if (FAILED(hr)) {
    why = not_available("IDXGIOutput1::DuplicateOutput", hr);
    return nullptr;
  }
  desktop = to_rect(desc.DesktopCoordinates);
  name = "DXGI Desktop Duplication of " + to_utf8(desc.DeviceName);
  return com;
}

std::unique_ptr<DxgiDuplicator> DxgiDuplicator::open(HMONITOR monitor, std::string& why) {
  Rect desktop;
  std::string name;
  auto com = open_com(monitor, desktop, name, why);
  if (!com) return nullptr;
  std::unique_ptr<DxgiDuplicator> d(new DxgiDuplicator(monitor, std::move(com)));
  d->desktop_rect_ = desktop;
  d->name_ = std::move(name);
  return d;
}

DxgiDuplicator::DxgiDuplicator(HMONITOR monitor, std::unique_ptr<Com> com) : monitor_(monitor), com_(std::move(com)) {}

DxgiDuplicator::~DxgiDuplicator() { unmap(); }

std::string DxgiDuplicator::recreate() {
  unmap();
  com_.reset();
  has_image_ = false;
  std::string why;
  Rect desktop;
  std::string name;
  com_ = open_com(monitor_, desktop, name, why);
  if (!com_) return why;
  desktop_rect_ = desktop;
  name_ = std::move(name);
  return {};
}

DxgiDuplicator::Next DxgiDuplicator::next(std::chrono::milliseconds timeout, std::vector<Rect>& damage,
                                          std::string& error) {
  if (!com_) {
    error = "the duplication is closed";
    return Next::kAccessLost;
  }
  unmap();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    DXGI_OUTDUPL_FRAME_INFO info{};
    ComPtr<IDXGIResource> resource;
    HRESULT hr = com_->duplication->AcquireNextFrame(UINT(left), &info, resource.GetAddressOf());
    if (hr == DXGI_ERROR_WAIT_TIMEOUT) return Next::kTimeout;
    if (hr == DXGI_ERROR_ACCESS_LOST) {
      error = describe_hresult("AcquireNextFrame", hr);
      return Next::kAccessLost;
    }
    if (FAILED(hr)) {
      error = describe_hresult("AcquireNextFrame", hr);
      return hr == DXGI_ERROR_DEVICE_REMOVED || hr == DXGI_ERROR_DEVICE_RESET ? Next::kAccessLost : Next::kError;
    }
    // From here the frame is held: release it on every path.
    std::string err;
    bool image = info.LastPresentTime.QuadPart != 0;
    if (image) {
      ComPtr<ID3D11Texture2D> texture;
      hr = resource.As(&texture);
      if (FAILED(hr)) err = describe_hresult("the desktop image is no 2D texture", hr);
      if (err.empty() && !com_->staging) {
        D3D11_TEXTURE2D_DESC d{};
        texture->GetDesc(&d);
        d.Usage = D3D11_USAGE_STAGING;
        d.BindFlags = 0;
        d.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
        d.MiscFlags = 0;
        d.MipLevels = 1;
        d.ArraySize = 1;
        d.SampleDesc = {1, 0};
        hr = com_->device->CreateTexture2D(&d, nullptr, com_->staging.GetAddressOf());
        if (FAILED(hr)) err = describe_hresult("CreateTexture2D (staging)", hr);
        else if (d.Format != DXGI_FORMAT_B8G8R8A8_UNORM) err = "the desktop image is not 32-bit BGRA";
      }
      if (err.empty()) com_->context->CopyResource(com_->staging.Get(), texture.Get());
      if (err.empty() && !has_image_) {
        damage.push_back(Rect::from_size(desktop_rect_.size()));
      } else if (err.empty() && info.TotalMetadataBufferSize > 0) {
        metadata_.resize(info.TotalMetadataBufferSize);
        UINT used = 0;
        hr = com_->duplication->GetFrameMoveRects(UINT(metadata_.size()),
                                                  reinterpret_cast<DXGI_OUTDUPL_MOVE_RECT*>(metadata_.data()), &used);
        if (SUCCEEDED(hr)) {
          const auto* moves = reinterpret_cast<const DXGI_OUTDUPL_MOVE_RECT*>(metadata_.data());
          for (size_t i = 0; i < used / sizeof(DXGI_OUTDUPL_MOVE_RECT); ++i) {
            const Rect dst = to_rect(moves[i].DestinationRect);
            damage.push_back(dst);
            damage.push_back({int(moves[i].SourcePoint.x), int(moves[i].SourcePoint.y), dst.width, dst.height});
          }
          hr = com_->duplication->GetFrameDirtyRects(UINT(metadata_.size()), reinterpret_cast<RECT*>(metadata_.data()),
                                                     &used);
        }
        if (SUCCEEDED(hr)) {
          const auto* dirty = reinterpret_cast<const RECT*>(metadata_.data());
          for (size_t i = 0; i < used / sizeof(RECT); ++i) damage.push_back(to_rect(dirty[i]));
        } else {
          // Without the list, everything may have changed.
          damage.push_back(Rect::from_size(desktop_rect_.size()));
        }
      } else if (err.empty()) {
        damage.push_back(Rect::from_size(desktop_rect_.size()));
      }
    }
    com_->duplication->ReleaseFrame();
    if (!err.empty()) {
      error = err;
      return Next::kError;
    }
    if (image) {
      has_image_ = true;
      return Next::kImage;
    }
    // Only the pointer moved: keep waiting for the rest of the time.
    if (std::chrono::steady_clock::now() >= deadline) return Next::kTimeout;
  }
}

std::string DxgiDuplicator::map(ImageView& out) {
  if (!com_ || !has_image_ || !com_->staging) return "no desktop image yet";
  D3D11_MAPPED_SUBRESOURCE m{};
  const HRESULT hr = com_->context->Map(com_->staging.Get(), 0, D3D11_MAP_READ, 0, &m);
  if (FAILED(hr)) return describe_hresult("mapping the desktop image", hr);
  mapped_ = true;
  D3D11_TEXTURE2D_DESC d{};
  com_->staging->GetDesc(&d);
  out = {static_cast<const uint8_t*>(m.pData), int(m.RowPitch), {int(d.Width), int(d.Height)}};
  return {};
}

void DxgiDuplicator::unmap() {
  if (mapped_ && com_ && com_->staging) com_->context->Unmap(com_->staging.Get(), 0);
  mapped_ = false;
}

}  // namespace voxl::platform::windows
