#include "platform/windows/input/wic_png.h"

#include <windows.h>
#include <wincodec.h>
#include <wrl/client.h>

#include <cstring>

#include "platform/windows/com_apartment.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

using Microsoft::WRL::ComPtr;

bool failed(HRESULT hr, const char* what, std::string& error) {
  if (SUCCEEDED(hr)) return false;
  error = describe_hresult(what, hr);
  return true;
}

ComPtr<IWICImagingFactory> make_factory(std::string& error) {
  ComPtr<IWICImagingFactory> f;
  const HRESULT hr = CoCreateInstance(CLSID_WICImagingFactory, nullptr, CLSCTX_INPROC_SERVER, IID_PPV_ARGS(&f));
  if (failed(hr, "the Windows Imaging Component", error)) return nullptr;
  return f;
}

// Runs `work` with a WIC factory in a COM apartment of this thread; nullopt
// with `error` set when COM or WIC is not there.
template <class Work>
auto with_wic(std::string& error, Work work) -> decltype(work(static_cast<IWICImagingFactory*>(nullptr))) {
  ComApartment com;
  if (!com.usable()) {
    error = describe_hresult("COM", com.result());
    return std::nullopt;
  }
  const auto f = make_factory(error);
  if (!f) return std::nullopt;
  return work(f.Get());
}

std::optional<BgraImage> decode(IWICImagingFactory* f, const void* data, size_t size, std::string& error) {
  if (size > MAXDWORD) {
    error = "the picture is too large";
    return std::nullopt;
  }
  ComPtr<IWICStream> stream;
  if (failed(f->CreateStream(&stream), "WIC stream", error)) return std::nullopt;
  if (failed(stream->InitializeFromMemory(static_cast<BYTE*>(const_cast<void*>(data)), DWORD(size)), "WIC stream",
             error))
    return std::nullopt;
  ComPtr<IWICBitmapDecoder> decoder;
  if (failed(f->CreateDecoderFromStream(stream.Get(), nullptr, WICDecodeMetadataCacheOnDemand, &decoder),
             "decoding the picture", error))
    return std::nullopt;
  ComPtr<IWICBitmapFrameDecode> frame;
  if (failed(decoder->GetFrame(0, &frame), "decoding the picture", error)) return std::nullopt;
  UINT w = 0, h = 0;
  if (failed(frame->GetSize(&w, &h), "decoding the picture", error)) return std::nullopt;
  if (w == 0 || h == 0 || uint64_t(w) * h > kMaxImagePixels) {
    error = "the picture is " + std::to_string(w) + "x" + std::to_string(h) + " pixels: empty or too large";
    return std::nullopt;
  }
  ComPtr<IWICFormatConverter> converter;
  if (failed(f->CreateFormatConverter(&converter), "WIC converter", error)) return std::nullopt;
  if (failed(converter->Initialize(frame.Get(), GUID_WICPixelFormat32bppBGRA, WICBitmapDitherTypeNone, nullptr, 0.0,
                                   WICBitmapPaletteTypeCustom),
             "converting the picture to BGRA", error))
    return std::nullopt;
  BgraImage img;
  img.width = int(w);
  img.height = int(h);
  img.bgra.resize(size_t(w) * h * 4);
  if (failed(converter->CopyPixels(nullptr, w * 4, UINT(img.bgra.size()), img.bgra.data()), "reading the pixels",
             error))
    return std::nullopt;
  return img;
}

std::optional<std::string> encode(IWICImagingFactory* f, const BgraImage& image, std::string& error) {
  ComPtr<IWICBitmap> bitmap;
  const UINT stride = UINT(image.width) * 4;
  if (failed(f->CreateBitmapFromMemory(UINT(image.width), UINT(image.height), GUID_WICPixelFormat32bppBGRA, stride,
                                       UINT(image.bgra.size()), const_cast<BYTE*>(image.bgra.data()), &bitmap),
             "WIC bitmap", error))
    return std::nullopt;
  ComPtr<IStream> memory;
  if (failed(CreateStreamOnHGlobal(nullptr, TRUE, &memory), "memory stream", error)) return std::nullopt;
  ComPtr<IWICBitmapEncoder> encoder;
  if (failed(f->CreateEncoder(GUID_ContainerFormatPng, nullptr, &encoder), "PNG encoder", error)) return std::nullopt;
  if (failed(encoder->Initialize(memory.Get(), WICBitmapEncoderNoCache), "PNG encoder", error)) return std::nullopt;
  ComPtr<IWICBitmapFrameEncode> frame;
  ComPtr<IPropertyBag2> options;
  if (failed(encoder->CreateNewFrame(&frame, &options), "PNG frame", error)) return std::nullopt;
  if (failed(frame->Initialize(options.Get()), "PNG frame", error)) return std::nullopt;
  if (failed(frame->SetSize(UINT(image.width), UINT(image.height)), "PNG frame", error)) return std::nullopt;
  WICPixelFormatGUID format = GUID_WICPixelFormat32bppBGRA;
  if (failed(frame->SetPixelFormat(&format), "PNG pixel format", error)) return std::nullopt;
  // The encoder may pick a neighbouring format; convert to what it took.
  ComPtr<IWICBitmapSource> source = bitmap;
  if (!IsEqualGUID(format, GUID_WICPixelFormat32bppBGRA)) {
    ComPtr<IWICFormatConverter> converter;
    if (failed(f->CreateFormatConverter(&converter), "WIC converter", error)) return std::nullopt;
    if (failed(converter->Initialize(bitmap.Get(), format, WICBitmapDitherTypeNone, nullptr, 0.0,
                                     WICBitmapPaletteTypeCustom),
               "converting for PNG", error))
      return std::nullopt;
    source = converter;
  }
  if (failed(frame->WriteSource(source.Get(), nullptr), "writing the PNG", error)) return std::nullopt;
  if (failed(frame->Commit(), "writing the PNG", error)) return std::nullopt;
  if (failed(encoder->Commit(), "writing the PNG", error)) return std::nullopt;
  STATSTG stat{};
  if (failed(memory->Stat(&stat, STATFLAG_NONAME), "memory stream", error)) return std::nullopt;
  HGLOBAL global = nullptr;
  if (failed(GetHGlobalFromStream(memory.Get(), &global), "memory stream", error)) return std::nullopt;
  const void* bytes = GlobalLock(global);
  if (!bytes) {
    error = describe_last_error("GlobalLock");
    return std::nullopt;
  }
  std::string png(static_cast<const char*>(bytes), size_t(stat.cbSize.QuadPart));
  GlobalUnlock(global);
  return png;
}

}  // namespace

std::optional<std::string> encode_png(const BgraImage& image, std::string& error) {
  if (image.width <= 0 || image.height <= 0 || image.bgra.size() != size_t(image.width) * size_t(image.height) * 4) {
    error = "not a picture";
    return std::nullopt;
  }
  return with_wic(error, [&](IWICImagingFactory* f) { return encode(f, image, error); });
}

std::optional<BgraImage> decode_png(std::string_view png, std::string& error) {
  return with_wic(error, [&](IWICImagingFactory* f) { return decode(f, png.data(), png.size(), error); });
}

std::optional<std::string> dib_to_png(std::span<const uint8_t> dib, std::string& error) {
  BITMAPINFOHEADER header;
  if (dib.size() < sizeof(header)) {
    error = "the clipboard's bitmap is truncated";
    return std::nullopt;
  }
  std::memcpy(&header, dib.data(), sizeof(header));
  if (header.biSize < sizeof(header) || header.biSize > dib.size() || header.biBitCount == 0 ||
      header.biClrUsed > 256) {
    error = "the clipboard's bitmap has a header voxl does not know";
    return std::nullopt;
  }
  // A BMP file is the packed DIB behind a file header that says where the
  // pixels start: after the header, the masks (BITMAPINFOHEADER with
  // bit fields only) and the colour table.
  size_t masks = 0;
  if (header.biSize == sizeof(header)) {
    if (header.biCompression == BI_BITFIELDS) masks = 12;
    if (header.biCompression == 6) masks = 16;  // BI_ALPHABITFIELDS
  }
  const size_t colors = header.biClrUsed ? header.biClrUsed : header.biBitCount <= 8 ? (size_t{1} << header.biBitCount) : 0;
  BITMAPFILEHEADER file{};
  file.bfType = 0x4d42;  // "BM"
  file.bfSize = DWORD(sizeof(file) + dib.size());
  file.bfOffBits = DWORD(sizeof(file) + header.biSize + masks + colors * 4);
  std::vector<uint8_t> bmp(sizeof(file) + dib.size());
  std::memcpy(bmp.data(), &file, sizeof(file));
  std::memcpy(bmp.data() + sizeof(file), dib.data(), dib.size());

  return with_wic(error, [&](IWICImagingFactory* f) -> std::optional<std::string> {
    const auto img = decode(f, bmp.data(), bmp.size(), error);
    if (!img) return std::nullopt;
    return encode(f, *img, error);
  });
}

}  // namespace voxl::platform::windows
