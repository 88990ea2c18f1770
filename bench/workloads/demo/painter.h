// Drawing voxl-demo's parts with core X requests: solid rectangles,
// one-pixel frames and text in the server's own bitmap fonts. Text uses
// misc-fixed in its ISO 10646 encoding when the server has it (xfonts-base:
// most of Latin, Greek, Cyrillic and symbols), else the "fixed" font every
// server has built in (Latin-1). A character the font cannot encode is
// drawn as '?'; one it encodes but lacks is drawn as the font's default.
//
// Not thread-safe: the X thread only. Borrows the connection and the
// drawable; owns its graphics context and fonts, freed on destruction.
#pragma once

#include <xcb/xcb.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "demo_layout.h"

namespace voxl::demo {

class Painter {
 public:
  enum class Face { kBody, kBold };

  Painter(xcb_connection_t* c, xcb_drawable_t target);
  ~Painter();
  Painter(const Painter&) = delete;
  Painter& operator=(const Painter&) = delete;

  void fill(const Area& a, uint32_t rgb);
  // A one-pixel frame just outside `a`.
  void frame(const Area& a, uint32_t rgb);
  // `text` on `bg` with its first character cell's top-left corner at
  // (x, y), cut to `max_columns` characters.
  void text(Face face, int x, int y, std::u32string_view text, uint32_t fg, uint32_t bg,
            size_t max_columns = SIZE_MAX);
  // `text` centred in `a` (cut to fit).
  void centred_text(Face face, const Area& a, std::u32string_view text, uint32_t fg, uint32_t bg);
  // `text` vertically centred in `a`, from its left edge plus `indent`.
  void left_text(Face face, const Area& a, int indent, std::u32string_view text, uint32_t fg, uint32_t bg);

  int char_width(Face face) const { return font(face).width; }
  int line_height(Face face) const { return font(face).ascent + font(face).descent; }
  // How many characters fit in `pixels`.
  size_t columns(Face face, int pixels) const;

 private:
  struct Font {
    xcb_font_t id = 0;
    bool wide = false;  // two-byte (ISO 10646) rather than Latin-1
    int ascent = 10, descent = 3, width = 6;
  };
  // Opens the first of `names` the server has; "fixed" when none.
  Font open(std::initializer_list<const char*> names);
  const Font& font(Face face) const { return face == Face::kBold ? bold_ : body_; }
  void colours(uint32_t fg, uint32_t bg);

  xcb_connection_t* c_;
  xcb_drawable_t target_;
  xcb_gcontext_t gc_;
  Font body_, bold_;
};

}  // namespace voxl::demo
