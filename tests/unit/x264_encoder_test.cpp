#include "encode/x264_encoder.h"

#include <gtest/gtest.h>

#include <spdlog/sinks/null_sink.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "encode/h264_bitstream.h"
#include "encode/i420_image.h"

#if VOXL_TEST_HAVE_LIBAV
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
}
#endif

namespace voxl::encode {
namespace VOXL_TEST_FILE {

constexpr Size kSize{320, 240};
constexpr int64_t kFrameUs = 16'667;

Logger null_logger() {
  return std::make_shared<spdlog::logger>("x264-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// A smooth diagonal ramp with grey chroma; `shift` moves it sideways a little,
// like scrolling, so later frames are cheap P frames rather than scene cuts.
int luma_at(int x, int y, int shift) { return 40 + (x + shift) / 3 + y / 3; }

I420Image synthetic_picture(int shift) {
  I420Image img(kSize);
  for (int y = 0; y < kSize.height; ++y)
    for (int x = 0; x < kSize.width; ++x) img.y()[ptrdiff_t(y) * img.stride_y() + x] = uint8_t(luma_at(x, y, shift));
  for (int y = 0; y < kSize.height / 2; ++y) {
    std::memset(img.u() + ptrdiff_t(y) * img.stride_uv(), 128, size_t(kSize.width / 2));
    std::memset(img.v() + ptrdiff_t(y) * img.stride_uv(), 128, size_t(kSize.width / 2));
  }
  return img;
}

struct Encoded {
  bool produced = false;
  bool key = false;
  std::vector<uint8_t> data;
};

Encoded encode_one(X264Encoder& enc, int index, bool force_key) {
  Encoded e;
  const I420Image pic = synthetic_picture(index);
  e.produced = enc.encode(pic, index * kFrameUs, force_key, e.data, e.key);
  return e;
}

TEST(X264Encoder, FirstForcedFrameIsAnIdrWithSps) {
  X264Encoder enc(kSize, EncoderSettings{}, null_logger());
  EXPECT_EQ(enc.size(), kSize);
  const Encoded e = encode_one(enc, 0, true);
  ASSERT_TRUE(e.produced);
  EXPECT_TRUE(e.key);
  EXPECT_TRUE(contains_idr(e.data));
  const auto codec = codec_string(e.data);
  ASSERT_TRUE(codec);
  EXPECT_EQ(codec->rfind("avc1.42", 0), 0u) << *codec << " is not Baseline";
  EXPECT_EQ(codec->size(), 11u) << *codec;
  // Annex B from the first byte: a start code, then the SPS.
  ASSERT_GE(e.data.size(), 5u);
  const auto nals = split_annex_b(e.data);
  ASSERT_FALSE(nals.empty());
  EXPECT_EQ(nals.front().type(), kNalSps);
}

TEST(X264Encoder, FirstFrameIsAKeyFrameEvenUnasked) {
  X264Encoder enc(kSize, EncoderSettings{}, null_logger());
  const Encoded e = encode_one(enc, 0, false);
  ASSERT_TRUE(e.produced);
  EXPECT_TRUE(e.key);
  EXPECT_TRUE(contains_idr(e.data));
}

TEST(X264Encoder, EveryCallProducesItsFrameAtOnceAndIdrsOnlyWhenForced) {
  for (int threads : {1, 2}) {
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    EncoderSettings s;
    s.threads = threads;
    X264Encoder enc(kSize, s, null_logger());
    const bool force[] = {true, false, false, true, false};
    int outputs = 0;
    for (int i = 0; i < 5; ++i) {
      SCOPED_TRACE(::testing::Message() << "frame " << i);
      const Encoded e = encode_one(enc, i, force[i]);
      ASSERT_TRUE(e.produced) << "no frame of delay";
      ASSERT_FALSE(e.data.empty());
      ++outputs;
      EXPECT_EQ(e.key, force[i]);
      EXPECT_EQ(contains_idr(e.data), force[i]);
      // SPS and PPS come with every IDR and only with it.
      EXPECT_EQ(codec_string(e.data).has_value(), force[i]);
    }
    EXPECT_EQ(outputs, 5);
  }
}

TEST(X264Encoder, AppendsToTheOutputBuffer) {
  X264Encoder enc(kSize, EncoderSettings{}, null_logger());
  std::vector<uint8_t> out{0xAB, 0xCD};
  bool key = false;
  const I420Image pic = synthetic_picture(0);
  ASSERT_TRUE(enc.encode(pic, 0, true, out, key));
  ASSERT_GT(out.size(), 2u);
  EXPECT_EQ(out[0], 0xAB);
  EXPECT_EQ(out[1], 0xCD);
  EXPECT_TRUE(contains_idr(std::span<const uint8_t>(out).subspan(2)));
}

TEST(X264Encoder, UnknownPresetThrows) {
  EncoderSettings s;
  s.preset = "warp-speed";
  EXPECT_THROW(X264Encoder(kSize, s, null_logger()), std::runtime_error);
}

TEST(X264Encoder, MaxKbpsCanChangeWithoutAKeyFrame) {
  EncoderSettings s;
  s.max_kbps = 8000;
  X264Encoder enc(kSize, s, null_logger());
  EXPECT_EQ(enc.max_kbps(), 8000);
  ASSERT_TRUE(encode_one(enc, 0, true).produced);
  enc.set_max_kbps(2000);
  EXPECT_EQ(enc.max_kbps(), 2000);
  const Encoded e = encode_one(enc, 1, false);
  ASSERT_TRUE(e.produced);
  EXPECT_FALSE(e.key);
  EXPECT_FALSE(contains_idr(e.data));
}

// Noise: no encoder can make it smaller than its VBV cap allows.
I420Image noise_picture(uint32_t seed) {
  I420Image img(kSize);
  uint32_t state = seed | 1u;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return uint8_t(state);
  };
  for (int y = 0; y < kSize.height; ++y)
    for (int x = 0; x < kSize.width; ++x) img.y()[ptrdiff_t(y) * img.stride_y() + x] = next();
  for (int y = 0; y < kSize.height / 2; ++y)
    for (int x = 0; x < kSize.width / 2; ++x) {
      img.u()[ptrdiff_t(y) * img.stride_uv() + x] = next();
      img.v()[ptrdiff_t(y) * img.stride_uv() + x] = next();
    }
  return img;
}

TEST(X264Encoder, MaxKbpsChangeSurvivesACrfChangeBeforeTheNextFrame) {
  EncoderSettings s;
  s.max_kbps = 30000;  // one frame of VBV: 62 KB at 60 fps
  X264Encoder enc(kSize, s, null_logger());
  std::vector<uint8_t> out;
  bool key = false;
  int index = 0;
  auto encode_noise = [&] {
    out.clear();
    EXPECT_TRUE(enc.encode(noise_picture(uint32_t(index) + 1), index * kFrameUs, index == 0, out, key));
    ++index;
    return out.size();
  };
  for (int i = 0; i < 3; ++i) encode_noise();
  const size_t before = encode_noise();
  // The pipeline's order for the frame after a paintover: the cap, then the CRF.
  enc.set_max_kbps(2000);  // 4 KB a frame at 60 fps
  enc.set_crf(s.crf - 5);
  EXPECT_EQ(enc.max_kbps(), 2000);
  EXPECT_EQ(enc.crf(), s.crf - 5);
  encode_noise();
  const size_t after = encode_noise();
  EXPECT_LT(after * 4, before) << "frames of " << before << " bytes at 30000 kbit/s, then " << after
                               << " at 2000";
}

// A still screen's paintover: after a gap, one frame banks the gap's bits
// and the next may spend them; every other frame gets one interval's.
TEST(X264Encoder, APaintoverBanksTheGapForTheFrameAfterIt) {
  EncoderSettings s;
  s.crf = 10;        // noise at CRF 10 wants far more than any budget below
  s.max_kbps = 2000;  // 4.2 KB a frame at 60 fps
  X264Encoder enc(kSize, s, null_logger());
  constexpr size_t kInterval = 2000 * 1000 / 8 / 60;
  std::vector<uint8_t> out;
  bool key = false;
  int64_t at = 0;
  uint32_t seed = 1;
  auto encode_noise = [&](int64_t after_us, X264Encoder::GapBudget budget) {
    at += after_us;
    out.clear();
    enc.set_gap_budget(budget);
    EXPECT_TRUE(enc.encode(noise_picture(seed++), at, at == after_us, out, key));
    return out.size();
  };
  using GapBudget = X264Encoder::GapBudget;
  for (int i = 0; i < 4; ++i) encode_noise(kFrameUs, GapBudget::kNone);
  EXPECT_LT(encode_noise(kFrameUs, GapBudget::kNone), 2 * kInterval);
  // 150 ms of stillness: the banking frame itself still has one interval.
  EXPECT_LT(encode_noise(150'000, GapBudget::kBank), 2 * kInterval);
  EXPECT_EQ(enc.budget_intervals(), 9);
  const size_t spent = encode_noise(kFrameUs, GapBudget::kSpend);
  EXPECT_GT(spent, 5 * kInterval) << "the frame after the bank took " << spent << " bytes";
  EXPECT_LT(spent, 11 * kInterval);
  // Back to one interval, the leftover dropped.
  EXPECT_LT(encode_noise(kFrameUs, GapBudget::kNone), 2 * kInterval);
  EXPECT_EQ(enc.budget_intervals(), 1);
  // A long gap banks at most kMaxFrameBudgetUs; kSpend without a bank is one interval.
  encode_noise(5'000'000, GapBudget::kBank);
  EXPECT_EQ(enc.budget_intervals(), int(X264Encoder::kMaxFrameBudgetUs / (1'000'000 / 60)));
  EXPECT_LT(encode_noise(kFrameUs, GapBudget::kSpend), 14 * kInterval);
  encode_noise(kFrameUs, GapBudget::kNone);
  EXPECT_LT(encode_noise(500'000, GapBudget::kSpend), 2 * kInterval);
  // A cap change keeps the bank's size in intervals of the new cap.
  encode_noise(150'000, GapBudget::kBank);
  enc.set_max_kbps(1000);
  EXPECT_EQ(enc.max_kbps(), 1000);
  EXPECT_EQ(enc.budget_intervals(), 9);
  EXPECT_LT(encode_noise(kFrameUs, GapBudget::kSpend), 6 * kInterval);
}

#if VOXL_TEST_HAVE_LIBAV

struct AvDeleter {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
  void operator()(AVFrame* f) const { av_frame_free(&f); }
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};

// Decodes a whole stream of access units with libavcodec; one AVFrame per
// picture, in output order.
class Decoder {
 public:
  Decoder() {
    const AVCodec* codec = avcodec_find_decoder(AV_CODEC_ID_H264);
    if (!codec) throw std::runtime_error("libavcodec has no H.264 decoder");
    ctx_.reset(avcodec_alloc_context3(codec));
    ctx_->thread_count = 1;
    ctx_->flags |= AV_CODEC_FLAG_LOW_DELAY;
    if (avcodec_open2(ctx_.get(), codec, nullptr) < 0) throw std::runtime_error("cannot open the decoder");
  }

  void send(const std::vector<uint8_t>& access_unit) {
    std::unique_ptr<AVPacket, AvDeleter> pkt(av_packet_alloc());
    ASSERT_EQ(av_new_packet(pkt.get(), int(access_unit.size())), 0);  // zero padding included
    std::memcpy(pkt->data, access_unit.data(), access_unit.size());
    ASSERT_EQ(avcodec_send_packet(ctx_.get(), pkt.get()), 0);
    drain();
  }

  void flush() {
    ASSERT_EQ(avcodec_send_packet(ctx_.get(), nullptr), 0);
    drain();
  }

  std::vector<std::unique_ptr<AVFrame, AvDeleter>> frames;

 private:
  void drain() {
    for (;;) {
      std::unique_ptr<AVFrame, AvDeleter> f(av_frame_alloc());
      if (avcodec_receive_frame(ctx_.get(), f.get()) < 0) return;
      frames.push_back(std::move(f));
    }
  }

  std::unique_ptr<AVCodecContext, AvDeleter> ctx_;
};

TEST(X264Encoder, StreamDecodesToTheInputPicture) {
  EncoderSettings s;
  s.crf = 12;  // near-lossless, so the comparison can be tight
  X264Encoder enc(kSize, s, null_logger());
  Decoder dec;
  constexpr int kFrames = 4;
  for (int i = 0; i < kFrames; ++i) {
    const Encoded e = encode_one(enc, i, i == 0);
    ASSERT_TRUE(e.produced);
    dec.send(e.data);
    EXPECT_EQ(int(dec.frames.size()), i + 1) << "the decoder shows each frame as soon as it arrives";
  }
  dec.flush();
  ASSERT_EQ(int(dec.frames.size()), kFrames);

  for (int i = 0; i < kFrames; ++i) {
    SCOPED_TRACE(::testing::Message() << "frame " << i);
    const AVFrame& f = *dec.frames[size_t(i)];
    ASSERT_EQ(f.width, kSize.width);
    ASSERT_EQ(f.height, kSize.height);
    ASSERT_EQ(f.format, AV_PIX_FMT_YUV420P);
    int worst = 0;
    for (int y = 0; y < kSize.height; ++y)
      for (int x = 0; x < kSize.width; ++x)
        worst = std::max(worst, std::abs(int(f.data[0][ptrdiff_t(y) * f.linesize[0] + x]) - luma_at(x, y, i)));
    EXPECT_LE(worst, 3) << "largest luma difference";
    int worst_chroma = 0;
    for (int y = 0; y < kSize.height / 2; ++y)
      for (int x = 0; x < kSize.width / 2; ++x)
        for (int plane : {1, 2})
          worst_chroma =
              std::max(worst_chroma, std::abs(int(f.data[plane][ptrdiff_t(y) * f.linesize[plane] + x]) - 128));
    EXPECT_LE(worst_chroma, 3) << "largest chroma difference";
  }
}

#else

TEST(X264Encoder, StreamDecodesToTheInputPicture) { GTEST_SKIP() << "built without libavcodec"; }

#endif

TEST(AutoEncoderThreads, OnePerTenEightyPAtThirtyUpToTheCpusAndFour) {
  EXPECT_EQ(auto_encoder_threads({1280, 720}, 60, 2), 1);
  EXPECT_EQ(auto_encoder_threads({1920, 1080}, 30, 2), 1);
  EXPECT_EQ(auto_encoder_threads({1920, 1080}, 60, 2), 2);
  EXPECT_EQ(auto_encoder_threads({1920, 1080}, 60, 1), 1);
  EXPECT_EQ(auto_encoder_threads({1920, 1080}, 60, 0), 1);  // unknown CPU count
  EXPECT_EQ(auto_encoder_threads({1920, 1080}, 60, 8), 2);
  EXPECT_EQ(auto_encoder_threads({2560, 1440}, 60, 8), 4);
  EXPECT_EQ(auto_encoder_threads({3840, 2160}, 60, 16), 4);
  EXPECT_EQ(auto_encoder_threads({0, 0}, 60, 4), 1);
}

}  // namespace
}  // namespace voxl::encode
