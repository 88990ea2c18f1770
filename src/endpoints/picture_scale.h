// Pictures for agents at the size they work best at, and the pointer drawn
// into them. An agent asks for a smaller picture (/screenshot?max_width=1280,
// ?scale=0.5) and sends positions in it; Scaling maps those back to the
// picture at full size, and full-size positions (the pointer) to it,
// without drift: a scaled pixel maps to the full pixel under its centre,
// and that full pixel maps back to the same scaled pixel, however often an
// agent goes back and forth. Pure functions; any thread.
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/geometry.h"
#include "net/query.h"
#include "input/cursor_source.h"

namespace voxl::endpoints {

struct ScaleSpec {
  double scale = 0;   // (0, 1]; 0: not given
  int max_width = 0;  // 0: not given
  int max_height = 0;
  bool given() const { return scale > 0 || max_width > 0 || max_height > 0; }
};

inline constexpr double kMinScale = 0.05;
inline constexpr int kMinScaledSide = 16;
inline constexpr int kMaxScaledSide = 16384;

// Reads "scale" (a decimal from 0.05 to 1), "max_width" and "max_height"
// (16 to 16384; either or both) from the query; scale cannot be combined
// with max_*. False with `error` naming the parameter.
bool parse_scale(const net::Query& q, ScaleSpec& out, net::ParamError& error);
// The same rules for values that came some other way (a JSON body).
bool make_scale(std::optional<double> scale, std::optional<int64_t> max_width, std::optional<int64_t> max_height,
                ScaleSpec& out, net::ParamError& error);

// A picture of size `full` shown at `scaled` (no larger, aspect kept to
// the pixel, each side at least 1).
class Scaling {
 public:
  Scaling() = default;  // identity, size unknown
  Scaling(Size full, Size scaled);
  // Fits `full` into what `spec` asks; identity when it asks nothing or
  // would enlarge.
  static Scaling fit(Size full, const ScaleSpec& spec);

  Size full() const { return full_; }
  Size scaled() const { return scaled_; }
  bool identity() const { return full_ == scaled_; }
  double factor() const { return full_.width > 0 ? double(scaled_.width) / full_.width : 1.0; }

  // The full pixel under the centre of scaled pixel x, y (clamped into
  // the full picture).
  Point to_full(int x, int y) const;
  // The scaled pixel whose centre's full pixel is nearest x, y: the
  // inverse of to_full on its image (clamped into the scaled picture).
  Point to_scaled(int x, int y) const;
  // Every full pixel under `r`; every scaled pixel that shows part of `r`.
  Rect to_full(const Rect& r) const;
  Rect to_scaled(const Rect& r) const;

 private:
  Size full_;
  Size scaled_;
};

// The space an answer's positions are in, so an agent never assumes it:
// {"width", "height"} of the picture the agent sees, "picture_width" and
// "picture_height" (the picture at full size), "scale" between them, and
// "picture_origin" {"x", "y"}: where the picture's pixel 0,0 is on the
// desktop (not 0,0 with --capture-region or --capture-window).
nlohmann::json coordinate_space_json(const Scaling& scaling, Point picture_origin);

// Downscales B, G, R, X pixels (4 bytes each) with an area filter. False
// on empty or enlarging sizes.
bool scale_bgra(const uint8_t* src, int src_stride, Size src_size, uint8_t* dst, int dst_stride, Size dst_size);

// Blends a pointer image (straight RGBA) into a B, G, R, X picture with its
// hot spot at `hot`; what falls outside the picture is clipped.
void draw_cursor(uint8_t* bgra, int stride, Size size, const input::CursorImage& cursor, Point hot);

}  // namespace voxl::endpoints
