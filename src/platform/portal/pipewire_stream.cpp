#include "platform/portal/pipewire_stream.h"

#include <poll.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <stdexcept>

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>
#include <spa/utils/result.h>

namespace voxl::platform::portal {

namespace {

constexpr int kMaxSide = 8192;
// More damage boxes than this are taken as the whole picture.
constexpr size_t kMaxDamageRects = 64;
// Damage boxes a picture may carry.
constexpr int kDamageSlots = 16;

void init_pipewire_once() {
  static std::once_flag once;
  std::call_once(once, [] { pw_init(nullptr, nullptr); });
}

const char* format_label(uint32_t f) {
  switch (f) {
    case SPA_VIDEO_FORMAT_BGRx: return "BGRx";
    case SPA_VIDEO_FORMAT_BGRA: return "BGRA";
    case SPA_VIDEO_FORMAT_RGBx: return "RGBx";
    case SPA_VIDEO_FORMAT_RGBA: return "RGBA";
    default: return nullptr;
  }
}

bool is_red_first(uint32_t f) { return f == SPA_VIDEO_FORMAT_RGBx || f == SPA_VIDEO_FORMAT_RGBA; }

const spa_pod* enum_format(spa_pod_builder* b) {
  const spa_rectangle def{1920, 1080}, least{1, 1}, most{kMaxSide, kMaxSide};
  return static_cast<const spa_pod*>(spa_pod_builder_add_object(
      b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
      SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), SPA_FORMAT_VIDEO_format,
      SPA_POD_CHOICE_ENUM_Id(5, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRA,
                             SPA_VIDEO_FORMAT_RGBx, SPA_VIDEO_FORMAT_RGBA),
      SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&def, &least, &most)));
}

}  // namespace

struct PipewireStream::Impl {
  PipewireStream* owner = nullptr;
  pw_loop* loop = nullptr;
  pw_context* context = nullptr;
  pw_core* core = nullptr;
  pw_stream* stream = nullptr;
  spa_hook core_listener{};
  spa_hook stream_listener{};
  uint32_t format = 0;
  bool connected = false;

  ~Impl() {
    if (stream) pw_stream_destroy(stream);
    if (core) pw_core_disconnect(core);
    if (context) pw_context_destroy(context);
    if (loop) pw_loop_destroy(loop);
  }

  void fail(std::string why) {
    if (owner->error_.empty()) owner->error_ = std::move(why);
  }

  // The buffers and metadata voxl takes, once the format is known.
  void ask_buffers(int width, int height) {
    uint8_t storage[1024];
    spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof storage);
    const int stride = width * 4;
    const spa_pod* params[3];
    params[0] = static_cast<const spa_pod*>(spa_pod_builder_add_object(
        &b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers,
        SPA_POD_CHOICE_RANGE_Int(4, 2, 16), SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1), SPA_PARAM_BUFFERS_size,
        SPA_POD_Int(stride * height), SPA_PARAM_BUFFERS_stride, SPA_POD_Int(stride), SPA_PARAM_BUFFERS_dataType,
        SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd))));
    params[1] = static_cast<const spa_pod*>(
        spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type,
                                   SPA_POD_Id(SPA_META_Header), SPA_PARAM_META_size, SPA_POD_Int(sizeof(spa_meta_header))));
    params[2] = static_cast<const spa_pod*>(spa_pod_builder_add_object(
        &b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoDamage),
        SPA_PARAM_META_size,
        SPA_POD_CHOICE_RANGE_Int(sizeof(spa_meta_region) * kDamageSlots, sizeof(spa_meta_region),
                                 sizeof(spa_meta_region) * kDamageSlots)));
    pw_stream_update_params(stream, params, 3);
  }

  static void on_param_changed(void* data, uint32_t id, const spa_pod* param) {
    auto* self = static_cast<Impl*>(data);
    if (id != SPA_PARAM_Format || param == nullptr) return;
    uint32_t media_type = 0, media_subtype = 0;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0 || media_type != SPA_MEDIA_TYPE_video ||
        media_subtype != SPA_MEDIA_SUBTYPE_raw)
      return self->fail("the screen cast offered no uncompressed video");
    spa_video_info_raw info{};
    if (spa_format_video_raw_parse(param, &info) < 0) return self->fail("the screen cast's format could not be read");
    const char* label = format_label(info.format);
    const int w = int(info.size.width), h = int(info.size.height);
    if (!label || w < 1 || h < 1 || w > kMaxSide || h > kMaxSide)
      return self->fail("the screen cast chose a format voxl did not offer");
    PipewireStream& o = *self->owner;
    if (o.held_ && o.size_ != Size{w, h}) {  // a picture of the old size is no use
      pw_stream_queue_buffer(self->stream, o.held_);
      o.held_ = nullptr;
      o.picture_ = {};
    }
    if (o.size_ != Size{w, h}) o.whole_ = true;
    self->format = info.format;
    o.size_ = Size{w, h};
    self->owner->format_name_ = label;
    self->ask_buffers(w, h);
  }

  static void on_state_changed(void* data, pw_stream_state, pw_stream_state state, const char* error) {
    auto* self = static_cast<Impl*>(data);
    if (state == PW_STREAM_STATE_ERROR)
      self->fail(std::string("the screen cast failed: ") + (error ? error : "no reason given"));
    else if (state == PW_STREAM_STATE_UNCONNECTED && self->connected)
      self->fail("the screen cast ended");
    else if (state == PW_STREAM_STATE_PAUSED || state == PW_STREAM_STATE_STREAMING)
      self->connected = true;
  }

  static void on_core_error(void* data, uint32_t id, int, int res, const char* message) {
    auto* self = static_cast<Impl*>(data);
    if (id == PW_ID_CORE || res == -EPIPE)
      self->fail(std::string("the PipeWire connection failed: ") + (message ? message : spa_strerror(res)));
  }

  // Whether `b`'s picture lies wholly inside its memory.
  bool fits(const pw_buffer* b) const {
    const spa_buffer* sb = b->buffer;
    if (sb->n_datas < 1 || sb->datas[0].data == nullptr || sb->datas[0].chunk == nullptr) return false;
    const spa_data& d = sb->datas[0];
    const Size s = owner->size_;
    const int64_t stride = d.chunk->stride;
    const int64_t offset = d.chunk->offset;
    if (stride < int64_t(s.width) * 4 || offset < 0) return false;
    return offset + stride * (s.height - 1) + int64_t(s.width) * 4 <= int64_t(d.maxsize);
  }

  void add_damage(const spa_buffer* sb) {
    auto& damage = owner->damage_;
    const Rect all = Rect::from_size(owner->size_);
    const auto* meta = static_cast<const spa_meta*>(spa_buffer_find_meta(sb, SPA_META_VideoDamage));
    if (meta == nullptr) {
      owner->whole_ = true;
      return;
    }
    const spa_meta_region* r = nullptr;
    spa_meta_for_each(r, meta) {
      if (!spa_meta_region_is_valid(r)) break;
      const int64_t x = r->region.position.x, y = r->region.position.y;
      const int64_t w = std::min<int64_t>(r->region.size.width, INT_MAX);
      const int64_t h = std::min<int64_t>(r->region.size.height, INT_MAX);
      if (x >= all.width || y >= all.height || x + w <= 0 || y + h <= 0) continue;
      const int x0 = int(std::max<int64_t>(x, 0)), y0 = int(std::max<int64_t>(y, 0));
      const int x1 = int(std::min<int64_t>(x + w, all.width)), y1 = int(std::min<int64_t>(y + h, all.height));
      damage.push_back(Rect{x0, y0, x1 - x0, y1 - y0});
      if (damage.size() > kMaxDamageRects) owner->whole_ = true;
    }
  }

  static void on_process(void* data) {
    auto* self = static_cast<Impl*>(data);
    PipewireStream& o = *self->owner;
    while (pw_buffer* b = pw_stream_dequeue_buffer(self->stream)) {
      const spa_buffer* sb = b->buffer;
      const auto* header = static_cast<const spa_meta_header*>(
          spa_buffer_find_meta_data(sb, SPA_META_Header, sizeof(spa_meta_header)));
      const bool empty = sb->n_datas < 1 || sb->datas[0].chunk == nullptr || sb->datas[0].chunk->size == 0;
      if (empty || self->format == 0) {  // no picture in it (a pointer move alone)
        pw_stream_queue_buffer(self->stream, b);
        continue;
      }
      self->add_damage(sb);
      const bool corrupt = (header && (header->flags & SPA_META_HEADER_FLAG_CORRUPTED)) ||
                           (sb->datas[0].chunk->flags & SPA_CHUNK_FLAG_CORRUPTED);
      if (corrupt || !self->fits(b)) {
        pw_stream_queue_buffer(self->stream, b);
        continue;
      }
      if (o.held_) pw_stream_queue_buffer(self->stream, o.held_);
      o.held_ = b;
      const spa_data& d = sb->datas[0];
      o.picture_.data = static_cast<const uint8_t*>(d.data) + d.chunk->offset;
      o.picture_.stride = d.chunk->stride;
      o.picture_.size = o.size_;
      o.picture_.red_first = is_red_first(self->format);
      o.fresh_ = true;
    }
  }
};

namespace {

const pw_stream_events kStreamEvents = [] {
  pw_stream_events e{};
  e.version = PW_VERSION_STREAM_EVENTS;
  e.state_changed = PipewireStream::Impl::on_state_changed;
  e.param_changed = PipewireStream::Impl::on_param_changed;
  e.process = PipewireStream::Impl::on_process;
  return e;
}();

const pw_core_events kCoreEvents = [] {
  pw_core_events e{};
  e.version = PW_VERSION_CORE_EVENTS;
  e.error = PipewireStream::Impl::on_core_error;
  return e;
}();

}  // namespace

PipewireStream::PipewireStream(OwnedFile remote, uint32_t node, std::chrono::milliseconds limit)
    : impl_(std::make_unique<Impl>()) {
  init_pipewire_once();
  impl_->owner = this;
  impl_->loop = pw_loop_new(nullptr);
  if (!impl_->loop) throw std::runtime_error("PipeWire: cannot make a loop");
  impl_->context = pw_context_new(impl_->loop, nullptr, 0);
  if (!impl_->context) throw std::runtime_error("PipeWire: cannot make a context");
  // The connection takes the socket, and closes it when it ends.
  impl_->core = pw_context_connect_fd(impl_->context, remote.release(), nullptr, 0);
  if (!impl_->core) throw std::runtime_error("PipeWire: the portal's connection to the daemon was refused");
  pw_core_add_listener(impl_->core, &impl_->core_listener, &kCoreEvents, impl_.get());
  impl_->stream = pw_stream_new(impl_->core, "voxl",
                                pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                                  PW_KEY_MEDIA_ROLE, "Screen", nullptr));
  if (!impl_->stream) throw std::runtime_error("PipeWire: cannot make a stream");
  pw_stream_add_listener(impl_->stream, &impl_->stream_listener, &kStreamEvents, impl_.get());
  uint8_t storage[1024];
  spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof storage);
  const spa_pod* params[1] = {enum_format(&b)};
  const auto flags = pw_stream_flags(PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS);
  if (const int r = pw_stream_connect(impl_->stream, PW_DIRECTION_INPUT, node, flags, params, 1); r < 0)
    throw std::runtime_error(std::string("PipeWire: cannot connect to the screen cast: ") + spa_strerror(r));
  const auto deadline = std::chrono::steady_clock::now() + limit;
  bool woken = false;
  while (format_name_.empty() && error_.empty() && std::chrono::steady_clock::now() < deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    run_once(int(std::max<int64_t>(left.count(), 1)), -1, woken);
  }
  if (!error_.empty()) throw std::runtime_error(error_);
  if (format_name_.empty())
    throw std::runtime_error("PipeWire: the screen cast agreed no picture format in " +
                             std::to_string(limit.count()) + " ms (is a session manager such as WirePlumber running?)");
}

PipewireStream::~PipewireStream() {
  if (held_ && impl_->stream) pw_stream_queue_buffer(impl_->stream, held_);
  held_ = nullptr;
  impl_.reset();  // its callbacks may still reach this stream's members
}

void PipewireStream::run_once(int timeout_ms, int wake_fd, bool& woken) {
  pollfd fds[2] = {{pw_loop_get_fd(impl_->loop), POLLIN, 0}, {wake_fd, POLLIN, 0}};
  const int n = poll(fds, wake_fd >= 0 ? 2 : 1, timeout_ms);
  if (n > 0 && wake_fd >= 0 && (fds[1].revents & POLLIN)) woken = true;
  if (n > 0 && fds[0].revents) dispatch();
}

int PipewireStream::loop_fd() const { return pw_loop_get_fd(impl_->loop); }

void PipewireStream::dispatch() {
  pw_loop_enter(impl_->loop);
  while (pw_loop_iterate(impl_->loop, 0) > 0) {
  }
  pw_loop_leave(impl_->loop);
}

PipewireStream::Wait PipewireStream::wait(std::chrono::steady_clock::time_point deadline, int wake_fd) {
  for (;;) {
    if (!error_.empty()) return Wait::kFailed;
    if (fresh_) return Wait::kPicture;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return Wait::kTimeout;
    bool woken = false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    run_once(int(std::min<int64_t>(left, INT_MAX)), wake_fd, woken);
    if (woken) return fresh_ ? Wait::kPicture : Wait::kWoken;
  }
}

void PipewireStream::mark_read() {
  damage_.clear();
  whole_ = false;
  fresh_ = false;
}

void PipewireStream::set_active(bool active) { pw_stream_set_active(impl_->stream, active); }

}  // namespace voxl::platform::portal
