#include "portal_screen.h"

#include <spa/buffer/meta.h>
#include <spa/param/buffers.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <stdexcept>

namespace voxl::testing::portal {

namespace {

// The damage a buffer carries at most; more is sent as its bounding box.
constexpr uint32_t kMaxRegions = 16;

Region bounds(const std::vector<Region>& regions) {
  int x0 = regions.front().x, y0 = regions.front().y;
  int x1 = x0 + regions.front().w, y1 = y0 + regions.front().h;
  for (const Region& r : regions) {
    x0 = std::min(x0, r.x);
    y0 = std::min(y0, r.y);
    x1 = std::max(x1, r.x + r.w);
    y1 = std::max(y1, r.y + r.h);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace

std::optional<PixelFormat> pixel_format(const std::string& name) {
  if (name == "BGRx") return PixelFormat{name, SPA_VIDEO_FORMAT_BGRx};
  if (name == "RGBx") return PixelFormat{name, SPA_VIDEO_FORMAT_RGBx};
  if (name == "BGRA") return PixelFormat{name, SPA_VIDEO_FORMAT_BGRA};
  return std::nullopt;
}

Picture::Picture(int width, int height, PixelFormat format)
    : width_(width), height_(height), format_(std::move(format)), words_(size_t(width) * size_t(height)) {
  fill(0x202020);
}

uint32_t Picture::word(uint32_t rgb) const {
  const uint32_t r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
  // The bytes in memory, little-endian words: BGRx is B G R x, RGBx is
  // R G B x. The padding byte and BGRA's alpha are 0xff (opaque).
  if (format_.spa == SPA_VIDEO_FORMAT_RGBx) return 0xff000000u | (b << 16) | (g << 8) | r;
  return 0xff000000u | (r << 16) | (g << 8) | b;
}

Region Picture::fill(uint32_t rgb) {
  std::fill(words_.begin(), words_.end(), word(rgb));
  return {0, 0, width_, height_};
}

Region Picture::rect(int x, int y, int w, int h, uint32_t rgb) {
  const int x0 = std::clamp(x, 0, width_), y0 = std::clamp(y, 0, height_);
  const int x1 = int(std::clamp(int64_t(x) + w, int64_t(0), int64_t(width_)));
  const int y1 = int(std::clamp(int64_t(y) + h, int64_t(0), int64_t(height_)));
  const Region drawn{x0, y0, x1 - x0, y1 - y0};
  if (drawn.empty()) return {};
  const uint32_t value = word(rgb);
  for (int row = y0; row < y1; ++row)
    std::fill_n(words_.begin() + ptrdiff_t(row) * width_ + x0, x1 - x0, value);
  return drawn;
}

ScreenStream::ScreenStream(pw_core* core, const Picture& picture, Events events)
    : picture_(picture), events_(std::move(events)) {
  // A Video/Source node, as compositors make it, but not its graph's
  // driver: PipeWire's own driver runs the graph (every quantum), so a
  // frame queued before a consumer that has just linked runs waits in the
  // link until it does. As the driver (PW_STREAM_FLAG_DRIVER, mutter's
  // way) each queued frame runs the graph once, at once: the frame sent
  // when the stream starts streaming often ran it before the consumer's
  // node did, and the consumer got nothing until the next draw (seen
  // here in about one run in three).
  pw_properties* props = pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                           PW_KEY_MEDIA_ROLE, "Screen", PW_KEY_MEDIA_CLASS, "Video/Source",
                                           PW_KEY_NODE_NAME, "voxl-test-portal", nullptr);
  stream_ = pw_stream_new(core, "voxl-test-portal screen", props);
  if (!stream_) throw std::runtime_error("pw_stream_new failed");
  callbacks_.version = PW_VERSION_STREAM_EVENTS;
  callbacks_.state_changed = &ScreenStream::on_state;
  callbacks_.param_changed = &ScreenStream::on_param;
  callbacks_.process = &ScreenStream::on_process;
  pw_stream_add_listener(stream_, &listener_, &callbacks_, this);

  uint8_t storage[1024];
  spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof storage);
  spa_rectangle size = SPA_RECTANGLE(uint32_t(picture_.width()), uint32_t(picture_.height()));
  spa_fraction variable = SPA_FRACTION(0, 1), slowest = SPA_FRACTION(1, 1), fastest = SPA_FRACTION(60, 1);
  // As mutter and xdg-desktop-portal-wlr offer it: a variable rate
  // (framerate 0/1), at most 60 a second.
  const spa_pod* format = static_cast<const spa_pod*>(spa_pod_builder_add_object(
      &b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
      SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), SPA_FORMAT_VIDEO_format,
      SPA_POD_Id(picture_.format().spa), SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size),
      SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&variable), SPA_FORMAT_VIDEO_maxFramerate,
      SPA_POD_CHOICE_RANGE_Fraction(&fastest, &slowest, &fastest)));
  const auto flags = pw_stream_flags(PW_STREAM_FLAG_MAP_BUFFERS);
  if (const int r = pw_stream_connect(stream_, PW_DIRECTION_OUTPUT, PW_ID_ANY, flags, &format, 1); r < 0) {
    pw_stream_destroy(stream_);
    throw std::runtime_error(std::string("pw_stream_connect: ") + std::strerror(-r));
  }
}

ScreenStream::~ScreenStream() {
  spa_hook_remove(&listener_);
  pw_stream_destroy(stream_);
}

void ScreenStream::changed(Region region) {
  if (region.empty()) return;
  damage_.push_back(region);
  send();
}

void ScreenStream::on_state(void* self, pw_stream_state, pw_stream_state state, const char* error) {
  auto* s = static_cast<ScreenStream*>(self);
  if (state == PW_STREAM_STATE_ERROR) {
    if (!s->failed_ && s->events_.failed) s->events_.failed(error ? error : "the stream failed");
    s->failed_ = true;
    return;
  }
  if (state == PW_STREAM_STATE_UNCONNECTED && s->announced_) {
    if (!s->failed_ && s->events_.failed) s->events_.failed("the stream was disconnected");
    s->failed_ = true;
    return;
  }
  if ((state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING) && !s->announced_) {
    const uint32_t node = pw_stream_get_node_id(s->stream_);
    if (node != SPA_ID_INVALID) {
      s->announced_ = true;
      if (s->events_.ready) s->events_.ready(node);
    }
  }
  // A consumer linked (or came back): it gets the picture as it is.
  if (state == PW_STREAM_STATE_STREAMING) s->changed({0, 0, s->picture_.width(), s->picture_.height()});
}

void ScreenStream::on_param(void* self, uint32_t id, const spa_pod* param) {
  auto* s = static_cast<ScreenStream*>(self);
  if (id != SPA_PARAM_Format) return;
  s->negotiated_ = param != nullptr;
  if (param) s->offer_buffers();
}

void ScreenStream::offer_buffers() {
  const int stride = picture_.width() * 4;
  uint8_t storage[1024];
  spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof storage);
  const spa_pod* params[3];
  params[0] = static_cast<const spa_pod*>(spa_pod_builder_add_object(
      &b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers,
      SPA_POD_CHOICE_RANGE_Int(4, 2, 8), SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1), SPA_PARAM_BUFFERS_size,
      SPA_POD_Int(stride * picture_.height()), SPA_PARAM_BUFFERS_stride, SPA_POD_Int(stride),
      SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_MemFd)));
  params[1] = static_cast<const spa_pod*>(spa_pod_builder_add_object(
      &b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
      SPA_PARAM_META_size, SPA_POD_Int(sizeof(spa_meta_header))));
  const int region = int(sizeof(spa_meta_region));
  params[2] = static_cast<const spa_pod*>(spa_pod_builder_add_object(
      &b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoDamage),
      SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(region * int(kMaxRegions), region, region * int(kMaxRegions))));
  pw_stream_update_params(stream_, params, 3);
}

void ScreenStream::on_process(void* self) {
  // The graph asks for a frame (a buffer is free): what could not be
  // sent goes now.
  static_cast<ScreenStream*>(self)->send();
}

void ScreenStream::send() {
  if (damage_.empty() || !negotiated_ || failed_) return;
  pw_buffer* buffer = pw_stream_dequeue_buffer(stream_);
  if (!buffer) return;  // on_process() tries again
  spa_buffer* sb = buffer->buffer;
  spa_data& data = sb->datas[0];
  const uint32_t stride = uint32_t(picture_.width()) * 4;
  const uint32_t bytes = stride * uint32_t(picture_.height());
  if (!data.data || data.maxsize < bytes) {
    data.chunk->size = 0;
    data.chunk->flags = SPA_CHUNK_FLAG_CORRUPTED;
    pw_stream_queue_buffer(stream_, buffer);
    return;
  }
  std::memcpy(data.data, picture_.words().data(), bytes);
  data.chunk->offset = 0;
  data.chunk->size = bytes;
  data.chunk->stride = int32_t(stride);
  data.chunk->flags = SPA_CHUNK_FLAG_NONE;
  auto* header = static_cast<spa_meta_header*>(spa_buffer_find_meta_data(sb, SPA_META_Header, sizeof(spa_meta_header)));
  if (header) {
    header->flags = 0;
    header->offset = 0;
    header->pts = monotonic_ns();
    header->dts_offset = 0;
    header->seq = sequence_++;
  }
  if (spa_meta* meta = spa_buffer_find_meta(sb, SPA_META_VideoDamage)) {
    auto* regions = static_cast<spa_meta_region*>(meta->data);
    const size_t room = meta->size / sizeof(spa_meta_region);
    std::vector<Region> listed = damage_;
    if (listed.size() > room) listed = {bounds(damage_)};  // the end of the array ends a full list
    size_t i = 0;
    for (; i < listed.size() && i < room; ++i)
      regions[i].region = SPA_REGION(listed[i].x, listed[i].y, uint32_t(listed[i].w), uint32_t(listed[i].h));
    if (i < room) regions[i].region = SPA_REGION(0, 0, 0, 0);  // the end of the list
  }
  damage_.clear();
  pw_stream_queue_buffer(stream_, buffer);
}

}  // namespace voxl::testing::portal
