#include "platform/windows/input/clipboard_formats.h"

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

#include "platform/windows/input/wic_png.h"
#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

// A DIB larger than this is not even converted (64 Mpx of 32 bits).
constexpr size_t kMaxDibBytes = size_t(kMaxImagePixels) * 4 + 4096;

// "8.0 MB", or bytes for small limits (tests, tight configurations).
std::string megabytes(size_t bytes) {
  if (bytes < 1024 * 1024) return std::to_string(bytes) + " bytes";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f MB", double(bytes) / (1024.0 * 1024.0));
  return buf;
}

// The bytes of clipboard data in `format` (a global memory handle), or
// nullopt; `size` is its size even when it is over `limit` (then not read).
std::optional<std::string> global_bytes(UINT format, size_t limit, size_t& size) {
  HANDLE h = GetClipboardData(format);
  size = 0;
  if (!h) return std::nullopt;
  size = GlobalSize(h);
  if (size > limit) return std::nullopt;
  const void* p = GlobalLock(h);
  if (!p) return std::nullopt;
  std::string out(static_cast<const char*>(p), size);
  GlobalUnlock(h);
  return out;
}

// Puts `bytes` on the open clipboard as `format`; the system owns the
// memory once SetClipboardData took it.
bool set_bytes(UINT format, const void* bytes, size_t size, std::string& error) {
  HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, size ? size : 1);
  if (!h) {
    error = describe_last_error("GlobalAlloc");
    return false;
  }
  void* p = GlobalLock(h);
  if (!p) {
    error = describe_last_error("GlobalLock");
    GlobalFree(h);
    return false;
  }
  if (size) std::memcpy(p, bytes, size);
  GlobalUnlock(h);
  if (!SetClipboardData(format, h)) {
    error = describe_last_error("SetClipboardData");
    GlobalFree(h);
    return false;
  }
  return true;
}

ClipboardRead read_text(size_t max_bytes) {
  ClipboardRead r;
  size_t size = 0;
  // UTF-16 takes 2 bytes for what UTF-8 takes 1 to 3 in: at most 2 * max
  // bytes of UTF-16 can fit the limit once converted.
  const auto bytes = global_bytes(CF_UNICODETEXT, max_bytes * 2 + 2, size);
  if (!bytes) {
    if (size) r.refused = too_large(size / 2, max_bytes);
    return r;
  }
  std::wstring wide(bytes->size() / sizeof(wchar_t), L'\0');
  std::memcpy(wide.data(), bytes->data(), wide.size() * sizeof(wchar_t));
  wide.resize(std::wcslen(wide.c_str()));  // up to the terminating NUL
  std::string text = to_utf8(wide);
  if (text.size() > max_bytes) {
    r.refused = too_large(text.size(), max_bytes);
    return r;
  }
  r.content = input::ClipboardContent{std::string(input::kMimeText), std::move(text)};
  return r;
}

ClipboardRead read_png(UINT format, size_t max_bytes) {
  ClipboardRead r;
  size_t size = 0;
  auto bytes = global_bytes(format, max_bytes, size);
  if (!bytes) {
    if (size) r.refused = too_large(size, max_bytes);
    return r;
  }
  r.content = input::ClipboardContent{std::string(input::kMimePng), std::move(*bytes)};
  return r;
}

ClipboardRead read_dib(UINT format, size_t max_bytes) {
  ClipboardRead r;
  size_t size = 0;
  const auto bytes = global_bytes(format, kMaxDibBytes, size);
  if (!bytes) {
    if (size) r.refused = "the clipboard holds a bitmap of " + megabytes(size) + ", too large to convert";
    return r;
  }
  std::string error;
  auto png = dib_to_png(std::span(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()), error);
  if (!png) {
    r.refused = "the clipboard's bitmap cannot be read: " + error;
    return r;
  }
  if (png->size() > max_bytes) {
    r.refused = too_large(png->size(), max_bytes);
    return r;
  }
  r.content = input::ClipboardContent{std::string(input::kMimePng), std::move(*png)};
  return r;
}

// CF_DIB of a decoded picture: BITMAPINFOHEADER, 32 bits, bottom-up rows.
std::vector<uint8_t> make_dib(const BgraImage& img) {
  BITMAPINFOHEADER h{};
  h.biSize = sizeof(h);
  h.biWidth = img.width;
  h.biHeight = img.height;
  h.biPlanes = 1;
  h.biBitCount = 32;
  h.biCompression = BI_RGB;
  const size_t row = size_t(img.width) * 4;
  h.biSizeImage = DWORD(row * size_t(img.height));
  std::vector<uint8_t> dib(sizeof(h) + row * size_t(img.height));
  std::memcpy(dib.data(), &h, sizeof(h));
  for (int y = 0; y < img.height; ++y)
    std::memcpy(dib.data() + sizeof(h) + size_t(img.height - 1 - y) * row, img.bgra.data() + size_t(y) * row, row);
  return dib;
}

}  // namespace

bool open_clipboard(HWND owner) {
  for (int attempt = 0; attempt < kOpenAttempts; ++attempt) {
    if (OpenClipboard(owner)) return true;
    if (attempt + 1 < kOpenAttempts) Sleep(kOpenRetryWait);
  }
  return false;
}

UINT png_clipboard_format() { return RegisterClipboardFormatW(L"PNG"); }

std::string too_large(size_t bytes, size_t max_bytes) {
  return "the clipboard holds " + megabytes(bytes) + ", more than the " + megabytes(max_bytes) + " voxl carries";
}

ClipboardRead read_open_clipboard(size_t max_bytes) {
  // An application that offers "PNG" copied a picture; text next; a bitmap
  // last, since programs that copy text often add a picture of it.
  const UINT png = png_clipboard_format();
  if (png && IsClipboardFormatAvailable(png)) return read_png(png, max_bytes);
  if (IsClipboardFormatAvailable(CF_UNICODETEXT)) return read_text(max_bytes);
  if (IsClipboardFormatAvailable(CF_DIBV5)) {
    auto r = read_dib(CF_DIBV5, max_bytes);
    if (r.content || !IsClipboardFormatAvailable(CF_DIB)) return r;
  }
  if (IsClipboardFormatAvailable(CF_DIB)) return read_dib(CF_DIB, max_bytes);
  return {};
}

bool write_open_clipboard(const input::ClipboardContent& content, std::string& error) {
  if (content.mime == input::kMimeText) {
    const std::wstring wide = to_wide(content.data);
    if (!EmptyClipboard()) {
      error = describe_last_error("EmptyClipboard");
      return false;
    }
    return set_bytes(CF_UNICODETEXT, wide.c_str(), (wide.size() + 1) * sizeof(wchar_t), error);
  }
  if (content.mime == input::kMimePng) {
    const auto img = decode_png(content.data, error);
    if (!img) {
      error = "not a PNG voxl can read: " + error;
      return false;
    }
    const auto dib = make_dib(*img);
    const UINT png = png_clipboard_format();
    if (!EmptyClipboard()) {
      error = describe_last_error("EmptyClipboard");
      return false;
    }
    if (png && !set_bytes(png, content.data.data(), content.data.size(), error)) return false;
    return set_bytes(CF_DIB, dib.data(), dib.size(), error);
  }
  error = "the clipboard carries text/plain and image/png, not " + content.mime;
  return false;
}

}  // namespace voxl::platform::windows
