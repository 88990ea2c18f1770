#include "endpoints/png_encoder.h"

#include <png.h>
#include <zlib.h>

namespace voxl::endpoints {

namespace {

void append(png_structp png, png_bytep data, png_size_t n) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  out->append(reinterpret_cast<const char*>(data), n);
}

void no_flush(png_structp) {}

// libpng reports errors by longjmp: nothing with a destructor may be live
// between setjmp and the calls that can fail, hence this plain function.
bool write(png_structp png, png_infop info, const uint8_t* pixels, int stride, Size size, std::string* out,
           const PngOptions& o) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, out, append, no_flush);
  png_set_IHDR(png, info, png_uint_32(size.width), png_uint_32(size.height), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, o.level);
  png_set_compression_strategy(png, o.rle ? Z_RLE : Z_DEFAULT_STRATEGY);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, o.sub_filter ? PNG_FILTER_SUB : PNG_FILTER_NONE);
  png_write_info(png, info);
  png_set_bgr(png);                           // memory order is B, G, R, X
  png_set_filler(png, 0, PNG_FILLER_AFTER);   // drop the X byte
  for (int y = 0; y < size.height; ++y)
    png_write_row(png, const_cast<png_bytep>(pixels + ptrdiff_t(y) * stride));
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

std::string encode_png(const uint8_t* pixels, int stride, Size size, std::string& error, const PngOptions& o) {
  if (size.empty()) {
    error = "empty picture";
    return {};
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) {
    error = "out of memory";
    return {};
  }
  png_infop info = png_create_info_struct(png);
  std::string out;
  out.reserve(size_t(size.area()) / 4);
  const bool ok = info && write(png, info, pixels, stride, size, &out, o);
  png_destroy_write_struct(&png, &info);
  if (!ok) {
    error = "PNG encoding failed";
    return {};
  }
  return out;
}

}  // namespace voxl::endpoints
