#include "painter.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace voxl::demo {

namespace {

bool ends_with(const char* s, const char* tail) {
  const size_t n = std::strlen(s), m = std::strlen(tail);
  return n >= m && std::strcmp(s + n - m, tail) == 0;
}

xcb_char2b_t wide_char(char32_t c) {
  if (c < 0x20 || c > 0xffff || (c >= 0x7f && c < 0xa0)) c = U'?';
  return {uint8_t(c >> 8), uint8_t(c & 0xff)};
}

char narrow_char(char32_t c) {
  const bool latin1 = (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff);
  return latin1 ? char(c) : '?';
}

}  // namespace

Painter::Painter(xcb_connection_t* c, xcb_drawable_t target) : c_(c), target_(target), gc_(xcb_generate_id(c)) {
  const uint32_t no_exposures = 0;
  xcb_create_gc(c_, gc_, target_, XCB_GC_GRAPHICS_EXPOSURES, &no_exposures);
  body_ = open({"-misc-fixed-medium-r-normal--20-200-75-75-c-100-iso10646-1", "10x20", "9x15"});
  bold_ = open({"-misc-fixed-bold-r-normal--18-120-100-100-c-90-iso10646-1",
                "-misc-fixed-bold-r-normal--15-140-75-75-c-90-iso10646-1", "9x15bold"});
}

Painter::~Painter() {
  xcb_close_font(c_, body_.id);
  xcb_close_font(c_, bold_.id);
  xcb_free_gc(c_, gc_);
}

Painter::Font Painter::open(std::initializer_list<const char*> names) {
  std::vector<const char*> tries(names);
  tries.push_back("fixed");
  Font f;
  for (const char* name : tries) {
    f.id = xcb_generate_id(c_);
    xcb_generic_error_t* e = xcb_request_check(c_, xcb_open_font_checked(c_, f.id, uint16_t(std::strlen(name)), name));
    if (e) {
      std::free(e);
      continue;
    }
    f.wide = ends_with(name, "iso10646-1");
    // One character's extents give the font's ascent, descent and (the
    // fonts being fixed-width) every character's advance.
    const xcb_char2b_t m{0, 'M'};
    if (auto* r = xcb_query_text_extents_reply(c_, xcb_query_text_extents(c_, f.id, 1, &m), nullptr)) {
      f.ascent = r->font_ascent;
      f.descent = r->font_descent;
      f.width = std::max(1, int(r->overall_width));
      std::free(r);
    }
    return f;
  }
  return f;  // even "fixed" failed: the connection is gone, nothing draws
}

void Painter::colours(uint32_t fg, uint32_t bg) {
  const uint32_t values[] = {fg, bg};
  xcb_change_gc(c_, gc_, XCB_GC_FOREGROUND | XCB_GC_BACKGROUND, values);
}

void Painter::fill(const Area& a, uint32_t rgb) {
  if (a.empty()) return;
  xcb_change_gc(c_, gc_, XCB_GC_FOREGROUND, &rgb);
  const xcb_rectangle_t r{int16_t(a.x), int16_t(a.y), uint16_t(a.w), uint16_t(a.h)};
  xcb_poly_fill_rectangle(c_, target_, gc_, 1, &r);
}

void Painter::frame(const Area& a, uint32_t rgb) {
  xcb_change_gc(c_, gc_, XCB_GC_FOREGROUND, &rgb);
  const xcb_rectangle_t r[] = {
      {int16_t(a.x - 1), int16_t(a.y - 1), uint16_t(a.w + 2), 1},
      {int16_t(a.x - 1), int16_t(a.bottom()), uint16_t(a.w + 2), 1},
      {int16_t(a.x - 1), int16_t(a.y), 1, uint16_t(a.h)},
      {int16_t(a.right()), int16_t(a.y), 1, uint16_t(a.h)},
  };
  xcb_poly_fill_rectangle(c_, target_, gc_, 4, r);
}

void Painter::text(Face face, int x, int y, std::u32string_view text, uint32_t fg, uint32_t bg,
                   size_t max_columns) {
  const Font& f = font(face);
  text = text.substr(0, std::min(text.size(), max_columns));
  if (text.empty()) return;
  colours(fg, bg);
  xcb_change_gc(c_, gc_, XCB_GC_FONT, &f.id);
  const int baseline = y + f.ascent;
  // ImageText takes at most 255 characters a request.
  for (size_t at = 0; at < text.size(); at += 255) {
    const std::u32string_view piece = text.substr(at, 255);
    const int16_t px = int16_t(x + int(at) * f.width);
    if (f.wide) {
      std::vector<xcb_char2b_t> chars;
      chars.reserve(piece.size());
      for (char32_t ch : piece) chars.push_back(wide_char(ch));
      xcb_image_text_16(c_, uint8_t(chars.size()), target_, gc_, px, int16_t(baseline), chars.data());
    } else {
      std::string bytes;
      bytes.reserve(piece.size());
      for (char32_t ch : piece) bytes.push_back(narrow_char(ch));
      xcb_image_text_8(c_, uint8_t(bytes.size()), target_, gc_, px, int16_t(baseline), bytes.data());
    }
  }
}

size_t Painter::columns(Face face, int pixels) const {
  return pixels <= 0 ? 0 : size_t(pixels / font(face).width);
}

void Painter::centred_text(Face face, const Area& a, std::u32string_view t, uint32_t fg, uint32_t bg) {
  const size_t n = std::min(t.size(), columns(face, a.w - 4));
  const int x = a.x + (a.w - int(n) * char_width(face)) / 2;
  text(face, x, a.y + (a.h - line_height(face)) / 2, t, fg, bg, n);
}

void Painter::left_text(Face face, const Area& a, int indent, std::u32string_view t, uint32_t fg, uint32_t bg) {
  text(face, a.x + indent, a.y + (a.h - line_height(face)) / 2, t, fg, bg, columns(face, a.w - indent));
}

}  // namespace voxl::demo
