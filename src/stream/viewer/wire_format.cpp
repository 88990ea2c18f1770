#include "stream/viewer/wire_format.h"

namespace voxl::stream {

namespace {

template <class T>
void put(uint8_t* p, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) p[i] = uint8_t(uint64_t(v) >> (8 * i));
}

template <class T>
T get(const uint8_t* p) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(p[i]) << (8 * i);
  return T(v);
}

}  // namespace

void write_video_header(const VideoHeader& h, std::span<uint8_t, kVideoHeaderBytes> out) {
  uint8_t* p = out.data();
  p[0] = kKindVideo;
  p[1] = h.key ? kFlagKeyFrame : 0;
  put<uint16_t>(p + 2, uint16_t(kVideoHeaderBytes));
  put<uint32_t>(p + 4, h.frame_id);
  put<uint64_t>(p + 8, h.capture_us);
  put<uint16_t>(p + 16, h.width);
  put<uint16_t>(p + 18, h.height);
  put<uint32_t>(p + 20, h.server_us);
}

void write_video_header(const VideoHeader& h, const VideoStamps& s,
                        std::span<uint8_t, kVideoHeaderWithStampsBytes> out) {
  write_video_header(h, out.first<kVideoHeaderBytes>());
  uint8_t* p = out.data();
  put<uint16_t>(p + 2, uint16_t(kVideoHeaderWithStampsBytes));
  put<int32_t>(p + 24, s.ready_us);
  put<int32_t>(p + 28, s.grab_us);
  put<int32_t>(p + 32, s.converted_us);
  put<int32_t>(p + 36, s.encoded_us);
  put<int32_t>(p + 40, s.published_us);
}

void write_video_header(const VideoHeader& h, const VideoStamps& s, const VideoStripe& stripe,
                        std::span<uint8_t, kVideoHeaderWithStripeBytes> out) {
  write_video_header(h, s, out.first<kVideoHeaderWithStampsBytes>());
  uint8_t* p = out.data();
  put<uint16_t>(p + 2, uint16_t(kVideoHeaderWithStripeBytes));
  p[44] = stripe.stripe;
  p[45] = stripe.stripes;
  put<uint16_t>(p + 46, stripe.band_y);
  put<uint16_t>(p + 48, stripe.band_height);
  p[50] = stripe.last ? kStripeFlagLast : 0;
  p[51] = 0;
}

std::optional<VideoStripe> read_video_stripe(std::span<const uint8_t> m) {
  size_t offset = 0;
  if (!read_video_header(m, offset) || offset < kVideoHeaderWithStripeBytes) return std::nullopt;
  const uint8_t* p = m.data();
  VideoStripe s;
  s.stripe = p[44];
  s.stripes = p[45];
  s.band_y = get<uint16_t>(p + 46);
  s.band_height = get<uint16_t>(p + 48);
  s.last = (p[50] & kStripeFlagLast) != 0;
  return s;
}

std::optional<VideoStamps> read_video_stamps(std::span<const uint8_t> m) {
  size_t offset = 0;
  if (!read_video_header(m, offset) || offset < kVideoHeaderWithStampsBytes) return std::nullopt;
  const uint8_t* p = m.data();
  VideoStamps s;
  s.ready_us = int32_t(get<uint32_t>(p + 24));
  s.grab_us = int32_t(get<uint32_t>(p + 28));
  s.converted_us = int32_t(get<uint32_t>(p + 32));
  s.encoded_us = int32_t(get<uint32_t>(p + 36));
  s.published_us = int32_t(get<uint32_t>(p + 40));
  return s;
}

std::optional<VideoHeader> read_video_header(std::span<const uint8_t> m, size_t& payload_offset) {
  if (m.size() < kVideoHeaderBytes || m[0] != kKindVideo) return std::nullopt;
  const uint8_t* p = m.data();
  const size_t header_bytes = get<uint16_t>(p + 2);
  if (header_bytes < kVideoHeaderBytes || header_bytes > m.size()) return std::nullopt;
  VideoHeader h;
  h.key = (p[1] & kFlagKeyFrame) != 0;
  h.frame_id = get<uint32_t>(p + 4);
  h.capture_us = get<uint64_t>(p + 8);
  h.width = get<uint16_t>(p + 16);
  h.height = get<uint16_t>(p + 18);
  h.server_us = get<uint32_t>(p + 20);
  payload_offset = header_bytes;
  return h;
}

void write_audio_header(const AudioHeader& h, std::span<uint8_t, kAudioHeaderBytes> out) {
  uint8_t* p = out.data();
  p[0] = h.kind;
  p[1] = 0;
  put<uint16_t>(p + 2, uint16_t(kAudioHeaderBytes));
  put<uint32_t>(p + 4, h.sequence);
  put<uint64_t>(p + 8, h.capture_us);
}

std::optional<AudioHeader> read_audio_header(std::span<const uint8_t> m, uint8_t kind, size_t& payload_offset) {
  if (m.size() < kAudioHeaderBytes || m[0] != kind) return std::nullopt;
  const uint8_t* p = m.data();
  const size_t header_bytes = get<uint16_t>(p + 2);
  if (header_bytes < kAudioHeaderBytes || header_bytes > m.size()) return std::nullopt;
  AudioHeader h;
  h.kind = kind;
  h.sequence = get<uint32_t>(p + 4);
  h.capture_us = get<uint64_t>(p + 8);
  payload_offset = header_bytes;
  return h;
}

}  // namespace voxl::stream
