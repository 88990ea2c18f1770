#include "platform/windows/capture/gdi_grabber.h"

#include <stdexcept>

#include "capture/frame.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

GdiGrabber::GdiGrabber(HWND window) : window_(window), memory_dc_(CreateCompatibleDC(nullptr)) {
  if (!memory_dc_) throw std::runtime_error(describe_last_error("CreateCompatibleDC"));
}

GdiGrabber::~GdiGrabber() {
  for (Dib& d : dibs_) release(d);
  DeleteDC(memory_dc_);
}

void GdiGrabber::release(Dib& d) {
  if (d.bitmap) DeleteObject(d.bitmap);
  d = {};
}

std::string GdiGrabber::ensure(Dib& d, Size s) {
  if (d.bitmap && d.size == s) return {};
  release(d);
  BITMAPINFO bi{};
  bi.bmiHeader.biSize = sizeof bi.bmiHeader;
  bi.bmiHeader.biWidth = s.width;
  bi.bmiHeader.biHeight = -s.height;  // top-down rows, like Frame
  bi.bmiHeader.biPlanes = 1;
  bi.bmiHeader.biBitCount = 32;
  bi.bmiHeader.biCompression = BI_RGB;
  void* bits = nullptr;
  d.bitmap = CreateDIBSection(memory_dc_, &bi, DIB_RGB_COLORS, &bits, nullptr, 0);
  if (!d.bitmap || !bits) {
    d = {};
    return describe_last_error("CreateDIBSection " + std::to_string(s.width) + "x" + std::to_string(s.height));
  }
  d.bits = static_cast<uint8_t*>(bits);
  d.size = s;
  return {};
}

std::string GdiGrabber::grab(const Rect& area, BlockMap& changed) {
  changed = BlockMap(area.size());
  if (area.empty()) return "nothing to grab: the area is empty";
  Dib& next = dibs_[1 - current_];
  if (std::string err = ensure(next, area.size()); !err.empty()) return err;

  HDC src = GetDC(window_);
  if (!src) return describe_last_error(window_ ? "GetDC of the window" : "GetDC of the desktop");
  HGDIOBJ old = SelectObject(memory_dc_, next.bitmap);
  const BOOL ok = BitBlt(memory_dc_, 0, 0, area.width, area.height, src, area.x, area.y, SRCCOPY | CAPTUREBLT);
  const std::string err = ok ? std::string() : describe_last_error("BitBlt");
  SelectObject(memory_dc_, old);
  ReleaseDC(window_, src);
  GdiFlush();
  if (!ok) return err;

  const Dib& prev = dibs_[current_];
  const int stride = area.width * capture::kBytesPerPixel;
  if (have_previous_ && prev.size == next.size)
    diff_blocks({next.bits, stride, next.size}, {prev.bits, stride, prev.size}, changed);
  else
    changed.add_all();
  current_ = 1 - current_;
  have_previous_ = true;
  return {};
}

ImageView GdiGrabber::image() const {
  const Dib& d = dibs_[current_];
  if (!have_previous_ || !d.bits) return {};
  return {d.bits, d.size.width * capture::kBytesPerPixel, d.size};
}

}  // namespace voxl::platform::windows
