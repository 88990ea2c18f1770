// The still-screen path end to end without a display: coloured, text-like
// BGRX -> ColorConverter -> x264 (4:2:0 Constrained Baseline or 4:4:4 High
// 4:4:4 Predictive, limited or full range) -> libavcodec -> RGB, and the
// RGB PSNR against the input. Prints the figures it measured.
#include <gtest/gtest.h>

#include <spdlog/sinks/null_sink.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "encode/color_converter.h"
#include "encode/h264_bitstream.h"
#include "encode/i420_image.h"
#include "encode/x264_encoder.h"
#include "encode/yuv444_rows.h"

#if VOXL_TEST_HAVE_LIBAV
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
}
#endif

namespace voxl::encode {
namespace VOXL_TEST_FILE {

constexpr Size kSize{320, 192};

Logger null_logger() {
  return std::make_shared<spdlog::logger>("chroma-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// Syntax-highlighted code, roughly: rows of 1-2 px strokes in saturated
// colours on a dark background, a light panel with coloured text, and a
// smooth gradient.
std::vector<uint8_t> coloured_text(int stride) {
  std::vector<uint8_t> px(size_t(stride) * size_t(kSize.height));
  std::mt19937 rng(7);
  // 16 glyphs of 5x8 strokes, picked at random for each 6x12 cell: text.
  uint64_t glyphs[16];
  for (auto& g : glyphs) g = (uint64_t(rng()) << 32 | rng()) & 0xffffffffffull;
  const uint32_t palette[] = {0xff5555, 0x50fa7b, 0xf1fa8c, 0xbd93f9, 0xff79c6, 0x8be9fd, 0xffb86c, 0xf8f8f2};
  std::vector<int> cells(size_t(kSize.width / 6 + 1) * size_t(kSize.height / 12 + 1));
  // Lines of code: 16 glyphs and some blanks, every other line shorter.
  for (size_t i = 0; i < cells.size(); ++i) {
    const size_t column = i % size_t(kSize.width / 6 + 1), line = i / size_t(kSize.width / 6 + 1);
    cells[i] = column > (line % 2 ? 20u : 30u) + line % 5 ? 16 : int(rng() % 24);
  }
  for (int y = 0; y < kSize.height; ++y) {
    for (int x = 0; x < kSize.width; ++x) {
      uint32_t rgb;
      if (y >= 160) {
        rgb = uint32_t(x * 255 / kSize.width) << 16 | uint32_t((y - 160) * 8) << 8 | 0x80;
      } else {
        const bool panel = x >= 200;
        rgb = panel ? 0xf0f0f0 : 0x282a36;
        const int gy = y % 12 - 2, gx = x % 6;
        int cell = cells[size_t(y / 12) * size_t(kSize.width / 6 + 1) + size_t(x / 6)];
        if (x % 200 < 6) cell = 16;  // indent
        if (cell < 16 && gy >= 0 && gy < 8 && gx < 5 && (glyphs[cell] >> (gy * 5 + gx) & 1))
          rgb = palette[((x / 36) + (y / 12)) % 8] ^ (panel ? 0x606060 : 0);
      }
      uint8_t* p = px.data() + ptrdiff_t(y) * stride + ptrdiff_t(x) * 4;
      p[0] = uint8_t(rgb), p[1] = uint8_t(rgb >> 8), p[2] = uint8_t(rgb >> 16), p[3] = 0;
    }
  }
  return px;
}

TEST(Yuv444Rows, ConvertsPrimariesExactly) {
  // BGRX white, black, red in both ranges.
  const uint8_t src[] = {255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0};
  uint8_t y[3], u[3], v[3];
  bgrx_to_yuv444(src, 12, y, 3, u, v, 3, 3, 1, ColourRange::kLimited);
  EXPECT_EQ(y[0], 235);
  EXPECT_EQ(u[0], 128);
  EXPECT_EQ(y[1], 16);
  EXPECT_EQ(v[1], 128);
  EXPECT_EQ(y[2], 81);  // 16 + 219 * 0.299
  EXPECT_EQ(v[2], 240);
  bgrx_to_yuv444(src, 12, y, 3, u, v, 3, 3, 1, ColourRange::kFull);
  EXPECT_EQ(y[0], 255);
  EXPECT_EQ(y[1], 0);
  EXPECT_EQ(y[2], 76);
  EXPECT_EQ(v[2], 255);  // 128 + 127.5, clamped
  EXPECT_EQ(u[2], 85);
}

TEST(I420Image, FullChromaPlanesAreFullSize) {
  const I420Image img({63, 31}, ChromaFormat::k444, ColourRange::kFull);  // odd sizes are fine at 4:4:4
  EXPECT_EQ(img.chroma_step(), 1);
  EXPECT_GE(img.stride_uv(), 63);
  EXPECT_EQ(img.y()[0], 0) << "full-range black";
  EXPECT_EQ(img.u()[30 * img.stride_uv() + 62], 128);
}

#if VOXL_TEST_HAVE_LIBAV

int clamp_byte(double v) { return std::clamp(int(std::lround(v)), 0, 255); }

struct Result {
  double rgb_psnr = 0;
  double luma_psnr = 0;
  std::string codec;
  size_t bytes = 0;
  int av_format = -1;
  bool av_full_range = false;
};

// Encodes the picture as one IDR and three paintover-like repeats, decodes
// the last one and compares it with the input in RGB.
Result round_trip(ChromaFormat chroma, ColourRange range, int crf) {
  const int stride = kSize.width * 4;
  const std::vector<uint8_t> px = coloured_text(stride);
  capture::Frame frame(const_cast<uint8_t*>(px.data()), kSize, stride);
  ColorConverter converter(1);
  I420Image img(kSize, chroma, range);
  const Rect all = Rect::from_size(kSize);
  converter.convert(frame, std::span<const Rect>(&all, 1), img);
  EncoderSettings s;
  s.crf = crf;
  s.chroma = chroma;
  s.range = range;
  X264Encoder enc(kSize, s, null_logger());

  const AVCodec* codec = avcodec_find_decoder(AV_CODEC_ID_H264);
  AVCodecContext* ctx = avcodec_alloc_context3(codec);
  ctx->thread_count = 1;
  ctx->flags |= AV_CODEC_FLAG_LOW_DELAY;
  if (avcodec_open2(ctx, codec, nullptr) < 0) throw std::runtime_error("cannot open the decoder");
  AVPacket* pkt = av_packet_alloc();
  AVFrame* f = av_frame_alloc();
  AVFrame* next = av_frame_alloc();  // a failed receive clears its frame: keep the last good one apart
  Result r;
  bool got = false;
  for (int i = 0; i < 4; ++i) {
    std::vector<uint8_t> au;
    bool key = false;
    if (!enc.encode(img, i * 16'667, i == 0, au, key)) throw std::runtime_error("x264 produced nothing");
    if (i == 0) r.codec = codec_string(au).value_or("");
    r.bytes += au.size();
    av_new_packet(pkt, int(au.size()));
    std::memcpy(pkt->data, au.data(), au.size());
    avcodec_send_packet(ctx, pkt);
    av_packet_unref(pkt);
    while (avcodec_receive_frame(ctx, next) == 0) {
      av_frame_unref(f);
      av_frame_move_ref(f, next);
      got = true;
    }
  }
  if (!got) throw std::runtime_error("nothing decoded");
  r.av_format = f->format;
  r.av_full_range = f->color_range == AVCOL_RANGE_JPEG;
  const bool full = r.av_full_range;
  const int shift = f->format == AV_PIX_FMT_YUV420P ? 1 : 0;
  double se = 0, se_luma = 0;
  for (int y = 0; y < kSize.height; ++y) {
    for (int x = 0; x < kSize.width; ++x) {
      const double luma = (f->data[0][ptrdiff_t(y) * f->linesize[0] + x] - (full ? 0 : 16)) * (full ? 1.0 : 255.0 / 219);
      const double cb = (f->data[1][ptrdiff_t(y >> shift) * f->linesize[1] + (x >> shift)] - 128.0) * (full ? 1.0 : 255.0 / 224);
      const double cr = (f->data[2][ptrdiff_t(y >> shift) * f->linesize[2] + (x >> shift)] - 128.0) * (full ? 1.0 : 255.0 / 224);
      const int out[3] = {clamp_byte(luma + 1.772 * cb), clamp_byte(luma - 0.344136 * cb - 0.714136 * cr),
                          clamp_byte(luma + 1.402 * cr)};  // B, G, R
      const uint8_t* in = px.data() + ptrdiff_t(y) * stride + ptrdiff_t(x) * 4;
      for (int c = 0; c < 3; ++c) se += double(out[c] - in[c]) * (out[c] - in[c]);
      const double want_luma = 0.299 * in[2] + 0.587 * in[1] + 0.114 * in[0];
      const double got_luma = 0.299 * out[2] + 0.587 * out[1] + 0.114 * out[0];
      se_luma += (got_luma - want_luma) * (got_luma - want_luma);
    }
  }
  const double n = double(kSize.width) * kSize.height;
  r.rgb_psnr = 10 * std::log10(255.0 * 255.0 / std::max(1e-9, se / (3 * n)));
  r.luma_psnr = 10 * std::log10(255.0 * 255.0 / std::max(1e-9, se_luma / n));
  av_frame_free(&f);
  av_frame_free(&next);
  av_packet_free(&pkt);
  avcodec_free_context(&ctx);
  return r;
}

TEST(FullChroma, AStillPictureIsSharpInRgbOnlyAt444) {
  const Result r420 = round_trip(ChromaFormat::k420, ColourRange::kLimited, 16);
  const Result lim = round_trip(ChromaFormat::k444, ColourRange::kLimited, 16);
  const Result full = round_trip(ChromaFormat::k444, ColourRange::kFull, 16);
  std::printf("coloured text %dx%d at CRF 16, RGB / luma PSNR and bytes of 4 frames:\n", kSize.width, kSize.height);
  std::printf("  4:2:0 limited %s: %.2f / %.2f dB, %zu B\n", r420.codec.c_str(), r420.rgb_psnr, r420.luma_psnr, r420.bytes);
  std::printf("  4:4:4 limited %s: %.2f / %.2f dB, %zu B\n", lim.codec.c_str(), lim.rgb_psnr, lim.luma_psnr, lim.bytes);
  std::printf("  4:4:4 full    %s: %.2f / %.2f dB, %zu B\n", full.codec.c_str(), full.rgb_psnr, full.luma_psnr, full.bytes);
  EXPECT_EQ(r420.av_format, AV_PIX_FMT_YUV420P);
  EXPECT_EQ(r420.codec.substr(0, 9), "avc1.42C0") << "Constrained Baseline";
  EXPECT_EQ(lim.codec.substr(0, 9), "avc1.F400") << "High 4:4:4 Predictive";
  EXPECT_TRUE(lim.av_format == AV_PIX_FMT_YUV444P) << lim.av_format;
  EXPECT_FALSE(lim.av_full_range);
  EXPECT_TRUE(full.av_full_range) << "the VUI says full range";
  EXPECT_GE(lim.rgb_psnr, 45.0);
  EXPECT_GE(full.rgb_psnr, 45.0);
  EXPECT_LT(r420.rgb_psnr, lim.rgb_psnr - 5) << "4:2:0 cannot show 1-px coloured strokes";
}

TEST(FullChroma, EncoderRefusesAPictureOfAnotherFormat) {
  EncoderSettings s;
  s.chroma = ChromaFormat::k444;
  X264Encoder enc(kSize, s, null_logger());
  EXPECT_EQ(enc.chroma(), ChromaFormat::k444);
  const I420Image wrong(kSize);
  std::vector<uint8_t> out;
  bool key = false;
  EXPECT_FALSE(enc.encode(wrong, 0, true, out, key));
  EXPECT_TRUE(out.empty());
}

#endif

}  // namespace
}  // namespace voxl::encode
