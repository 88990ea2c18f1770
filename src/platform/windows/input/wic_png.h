// PNG and BMP through the Windows Imaging Component: PNG bytes to and from
// 32-bit BGRA pixels, and a clipboard DIB (CF_DIB / CF_DIBV5: a bitmap
// header, its colour table or masks, then the pixels) to PNG, which WIC's
// BMP decoder reads in every depth and layout it knows.
//
// Threads: any; each call initialises COM on the calling thread for its
// duration (ComApartment). Blocking: CPU only.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace voxl::platform::windows {

// Top-down rows of width * 4 bytes, B G R A, straight alpha.
struct BgraImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> bgra;
};

// Largest picture decoded, in pixels (a bound on what a PNG or DIB can make
// voxl allocate).
inline constexpr uint64_t kMaxImagePixels = 64ull * 1024 * 1024;

std::optional<std::string> encode_png(const BgraImage& image, std::string& error);
std::optional<BgraImage> decode_png(std::string_view png, std::string& error);
// `dib` is a packed DIB as the clipboard holds it.
std::optional<std::string> dib_to_png(std::span<const uint8_t> dib, std::string& error);

}  // namespace voxl::platform::windows
