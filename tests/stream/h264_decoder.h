// A libavcodec H.264 decoder for the test client, and the decoded picture
// kept as planar YUV (4:2:0, or 4:4:4 from a High 4:4:4 stream) so single
// pixels can be sampled as RGB.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

struct AVCodecContext;
struct AVFrame;
struct AVPacket;

namespace voxl::testing {

struct Picture {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> y, u, v;  // tightly packed planes; 4:2:0 chroma is half size, rounded up
  bool full_chroma = false;      // 4:4:4: u and v are full size
  bool full_range = false;       // the stream said full range (0-255) in its VUI

  int chroma_width() const { return full_chroma ? width : (width + 1) / 2; }
  // 0x00RRGGBB at (x, y), converted with BT.601 in the picture's range
  // (what voxl's encoder side uses).
  uint32_t rgb_at(int x, int y) const;
};

// True when every channel of `a` is within `tolerance` of `b`'s.
bool near_colour(uint32_t a, uint32_t b, int tolerance = 12);
std::string colour_name(uint32_t rgb);  // "#rrggbb"

class H264Decoder {
 public:
  H264Decoder();
  ~H264Decoder();
  H264Decoder(const H264Decoder&) = delete;
  H264Decoder& operator=(const H264Decoder&) = delete;

  // Decodes one Annex B access unit. False on a decoder error; `got_picture`
  // tells whether a new picture came out (then picture() holds it).
  bool decode(std::span<const uint8_t> access_unit, bool& got_picture);
  const Picture& picture() const { return picture_; }
  const std::string& error() const { return error_; }

 private:
  bool store(const AVFrame& f);

  AVCodecContext* ctx_ = nullptr;
  AVPacket* packet_ = nullptr;
  AVFrame* frame_ = nullptr;
  Picture picture_;
  std::string error_;
};

}  // namespace voxl::testing
