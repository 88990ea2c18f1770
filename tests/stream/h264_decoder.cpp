#include "h264_decoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/pixfmt.h>
}

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace voxl::testing {

namespace {

int clamp_byte(double v) { return std::clamp(int(v + 0.5), 0, 255); }

std::string av_error(int e) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(e, buf, sizeof buf);
  return buf;
}

void copy_plane(const uint8_t* src, int stride, int width, int height, std::vector<uint8_t>& out) {
  out.resize(size_t(width) * size_t(height));
  for (int row = 0; row < height; ++row)
    std::memcpy(out.data() + size_t(row) * size_t(width), src + ptrdiff_t(row) * stride, size_t(width));
}

}  // namespace

uint32_t Picture::rgb_at(int x, int yy) const {
  const int shift = full_chroma ? 0 : 1;
  const size_t c = size_t(yy >> shift) * size_t(chroma_width()) + size_t(x >> shift);
  const double luma_scale = full_range ? 1.0 : 255.0 / 219.0, chroma_scale = full_range ? 1.0 : 255.0 / 224.0;
  const double luma = luma_scale * (y[size_t(yy) * size_t(width) + size_t(x)] - (full_range ? 0 : 16));
  const double cb = chroma_scale * (u[c] - 128.0);
  const double cr = chroma_scale * (v[c] - 128.0);
  // BT.601: Kr 0.299, Kb 0.114.
  const int r = clamp_byte(luma + 1.402 * cr);
  const int g = clamp_byte(luma - 0.344136 * cb - 0.714136 * cr);
  const int b = clamp_byte(luma + 1.772 * cb);
  return uint32_t(r) << 16 | uint32_t(g) << 8 | uint32_t(b);
}

bool near_colour(uint32_t a, uint32_t b, int tolerance) {
  for (int shift = 0; shift <= 16; shift += 8) {
    const int ca = int((a >> shift) & 0xff);
    const int cb = int((b >> shift) & 0xff);
    if (std::abs(ca - cb) > tolerance) return false;
  }
  return true;
}

std::string colour_name(uint32_t rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%06x", rgb & 0xffffffu);
  return buf;
}

H264Decoder::H264Decoder() {
  const AVCodec* codec = avcodec_find_decoder(AV_CODEC_ID_H264);
  if (!codec) throw std::runtime_error("libavcodec has no H.264 decoder");
  ctx_ = avcodec_alloc_context3(codec);
  packet_ = av_packet_alloc();
  frame_ = av_frame_alloc();
  if (!ctx_ || !packet_ || !frame_) throw std::runtime_error("libavcodec: out of memory");
  // Like the browser's decoder: every access unit comes out as soon as it
  // is decoded (frame threads would hold pictures back).
  ctx_->thread_count = 1;
  ctx_->flags |= AV_CODEC_FLAG_LOW_DELAY;
  if (const int e = avcodec_open2(ctx_, codec, nullptr); e < 0)
    throw std::runtime_error("cannot open the H.264 decoder: " + av_error(e));
}

H264Decoder::~H264Decoder() {
  av_frame_free(&frame_);
  av_packet_free(&packet_);
  avcodec_free_context(&ctx_);
}

bool H264Decoder::decode(std::span<const uint8_t> access_unit, bool& got_picture) {
  got_picture = false;
  if (const int e = av_new_packet(packet_, int(access_unit.size())); e < 0) {
    error_ = "av_new_packet: " + av_error(e);
    return false;
  }
  std::memcpy(packet_->data, access_unit.data(), access_unit.size());
  const int sent = avcodec_send_packet(ctx_, packet_);
  av_packet_unref(packet_);
  if (sent < 0) {
    error_ = "avcodec_send_packet: " + av_error(sent);
    return false;
  }
  for (;;) {
    const int r = avcodec_receive_frame(ctx_, frame_);
    if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
    if (r < 0) {
      error_ = "avcodec_receive_frame: " + av_error(r);
      return false;
    }
    const bool ok = store(*frame_);
    av_frame_unref(frame_);
    if (!ok) return false;
    got_picture = true;
  }
}

bool H264Decoder::store(const AVFrame& f) {
  const bool full_chroma = f.format == AV_PIX_FMT_YUV444P || f.format == AV_PIX_FMT_YUVJ444P;
  if (f.format != AV_PIX_FMT_YUV420P && !full_chroma) {
    error_ = "unexpected pixel format " + std::to_string(f.format) + " (want YUV420P or YUV444P)";
    return false;
  }
  picture_.width = f.width;
  picture_.height = f.height;
  picture_.full_chroma = full_chroma;
  picture_.full_range = f.color_range == AVCOL_RANGE_JPEG || f.format == AV_PIX_FMT_YUVJ444P;
  const int cw = picture_.chroma_width();
  const int ch = full_chroma ? f.height : (f.height + 1) / 2;
  copy_plane(f.data[0], f.linesize[0], f.width, f.height, picture_.y);
  copy_plane(f.data[1], f.linesize[1], cw, ch, picture_.u);
  copy_plane(f.data[2], f.linesize[2], cw, ch, picture_.v);
  return true;
}

}  // namespace voxl::testing
