#include "platform/windows/input/cursor_image_reader.h"

#include <cstdint>
#include <vector>

namespace voxl::platform::windows {

namespace {

// Owns the two bitmaps GetIconInfo hands out.
struct IconBitmaps {
  ICONINFO info{};
  bool ok = false;
  explicit IconBitmaps(HCURSOR c) : ok(GetIconInfo(c, &info) != 0) {}
  ~IconBitmaps() {
    if (info.hbmColor) DeleteObject(info.hbmColor);
    if (info.hbmMask) DeleteObject(info.hbmMask);
  }
  IconBitmaps(const IconBitmaps&) = delete;
  IconBitmaps& operator=(const IconBitmaps&) = delete;
};

// A bitmap's pixels as top-down 32-bit BGRX words; empty on failure.
std::vector<uint32_t> pixels_of(HBITMAP bitmap, int width, int height) {
  std::vector<uint32_t> px(size_t(width) * size_t(height));
  BITMAPINFO bi{};
  bi.bmiHeader.biSize = sizeof(BITMAPINFOHEADER);
  bi.bmiHeader.biWidth = width;
  bi.bmiHeader.biHeight = -height;  // top-down
  bi.bmiHeader.biPlanes = 1;
  bi.bmiHeader.biBitCount = 32;
  bi.bmiHeader.biCompression = BI_RGB;
  HDC dc = GetDC(nullptr);
  if (!dc) return {};
  const int lines = GetDIBits(dc, bitmap, 0, UINT(height), px.data(), &bi, DIB_RGB_COLORS);
  ReleaseDC(nullptr, dc);
  if (lines != height) return {};
  return px;
}

void put(input::CursorImage& img, size_t i, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
  img.rgba[i * 4 + 0] = r;
  img.rgba[i * 4 + 1] = g;
  img.rgba[i * 4 + 2] = b;
  img.rgba[i * 4 + 3] = a;
}

// Inverting pixels: black, then a white rim around them where transparent.
void outline_inverted(input::CursorImage& img, const std::vector<bool>& inverted) {
  const int w = img.width;
  const int h = img.height;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = size_t(y) * size_t(w) + size_t(x);
      if (img.rgba[i * 4 + 3] != 0) continue;
      bool beside = false;
      for (int dy = -1; dy <= 1 && !beside; ++dy)
        for (int dx = -1; dx <= 1 && !beside; ++dx) {
          const int nx = x + dx, ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < w && ny < h && inverted[size_t(ny) * size_t(w) + size_t(nx)]) beside = true;
        }
      if (beside) put(img, i, 255, 255, 255, 255);
    }
}

}  // namespace

input::CursorImage hidden_cursor_image() {
  input::CursorImage img;
  img.width = 1;
  img.height = 1;
  img.rgba.assign(4, 0);
  return img;
}

std::optional<input::CursorImage> read_cursor_image(HCURSOR cursor) {
  IconBitmaps icon(cursor);
  if (!icon.ok || !icon.info.hbmMask) return std::nullopt;
  BITMAP mask_info{};
  if (!GetObjectW(icon.info.hbmMask, sizeof(mask_info), &mask_info)) return std::nullopt;
  const int width = mask_info.bmWidth;
  // A monochrome cursor's mask holds the AND half over the XOR half.
  const int height = icon.info.hbmColor ? mask_info.bmHeight : mask_info.bmHeight / 2;
  if (width <= 0 || height <= 0 || width > kMaxCursorSide || height > kMaxCursorSide) return std::nullopt;

  input::CursorImage img;
  img.width = width;
  img.height = height;
  img.hot_x = int(icon.info.xHotspot);
  img.hot_y = int(icon.info.yHotspot);
  img.rgba.assign(size_t(width) * size_t(height) * 4, 0);
  const size_t n = size_t(width) * size_t(height);

  const auto mask = pixels_of(icon.info.hbmMask, width, mask_info.bmHeight);
  if (mask.empty()) return std::nullopt;
  std::vector<uint32_t> color;
  if (icon.info.hbmColor) {
    color = pixels_of(icon.info.hbmColor, width, height);
    if (color.empty()) return std::nullopt;
    bool has_alpha = false;
    for (uint32_t p : color) has_alpha = has_alpha || (p >> 24) != 0;
    if (has_alpha) {
      for (size_t i = 0; i < n; ++i) {
        const uint32_t p = color[i];
        put(img, i, uint8_t(p >> 16), uint8_t(p >> 8), uint8_t(p), uint8_t(p >> 24));
      }
      return img;
    }
  } else {
    color.assign(mask.begin() + std::ptrdiff_t(n), mask.end());  // the XOR half
  }
  std::vector<bool> inverted(n, false);
  bool any_inverted = false;
  for (size_t i = 0; i < n; ++i) {
    const bool and_bit = (mask[i] & 0xffffff) != 0;
    const uint32_t c = color[i] & 0xffffff;
    if (!and_bit) {
      put(img, i, uint8_t(c >> 16), uint8_t(c >> 8), uint8_t(c), 255);
    } else if (c != 0) {
      put(img, i, 0, 0, 0, 255);
      inverted[i] = true;
      any_inverted = true;
    }
  }
  if (any_inverted) outline_inverted(img, inverted);
  return img;
}

}  // namespace voxl::platform::windows
