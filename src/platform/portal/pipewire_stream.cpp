#include "platform/portal/pipewire_stream.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
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

void drain(int fd) {
  uint64_t count = 0;
  [[maybe_unused]] ssize_t n = read(fd, &count, sizeof count);
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
  pw_thread_loop* thread_loop = nullptr;
  pw_context* context = nullptr;
  pw_core* core = nullptr;
  pw_stream* stream = nullptr;
  spa_hook core_listener{};
  spa_hook stream_listener{};
  int state_fd = -1;  // the stream's eventfd
  bool connected = false;
  // Shared with the readers, under the loop's lock:
  uint32_t format = 0;
  std::string format_name;
  Size size;
  pw_buffer* held = nullptr;
  HeldPicture picture;
  std::string error;
  std::vector<StreamReader*> readers;
  // What pictures given back unread changed, for the next one held.
  std::vector<Rect> unread_damage;
  bool unread_whole = false;

  ~Impl() {
    if (thread_loop) pw_thread_loop_stop(thread_loop);  // no callback runs from here on
    if (stream) pw_stream_destroy(stream);  // takes its buffers back, the held one too
    if (core) pw_core_disconnect(core);
    if (context) pw_context_destroy(context);
    if (thread_loop) pw_thread_loop_destroy(thread_loop);
  }

  void lock() const { pw_thread_loop_lock(thread_loop); }
  void unlock() const { pw_thread_loop_unlock(thread_loop); }

  static void signal(int fd) {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(fd, &one, sizeof one);
  }
  void signal_all() const {
    signal(state_fd);
    for (StreamReader* r : readers) signal(r->news_fd_.get());
  }

  void fail(std::string why) {
    if (!error.empty()) return;
    error = std::move(why);
    signal_all();
  }

  // The held picture is no longer ours (PipeWire took its buffers back):
  // forgotten, not given back, and every reader is to copy the next one whole.
  void drop_held() {
    if (!held) return;
    held = nullptr;
    picture = {};
    for (StreamReader* r : readers) r->news_.whole = true;
  }

  static void on_remove_buffer(void* data, pw_buffer* b) {
    auto* self = static_cast<Impl*>(data);
    if (b == self->held) self->drop_held();
  }

  // The buffers and metadata voxl takes, once the format is known. Damage
  // reaches a consumer only when it asks for it.
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
    if (id != SPA_PARAM_Format) return;
    // A new format (or none) comes with new buffers: the held one is gone.
    self->drop_held();
    if (param == nullptr) {
      // The producer went away (the desktop stopped sharing): PipeWire
      // pauses the stream rather than ending it.
      if (self->format != 0) self->fail("the screen cast ended (the desktop stopped sharing its screen)");
      self->format = 0;
      return;
    }
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
    if (self->size != Size{w, h})
      for (StreamReader* r : self->readers) r->news_.whole = true;
    self->format = info.format;
    self->format_name = label;
    self->size = Size{w, h};
    self->ask_buffers(w, h);
    self->signal_all();
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

  // Where `b`'s picture lies, read once from the chunk the producer shares
  // with us (it could change it meanwhile); false unless it lies wholly
  // inside the buffer's memory.
  bool locate(const pw_buffer* b, const uint8_t*& data, int& stride) const {
    const spa_buffer* sb = b->buffer;
    if (sb->n_datas < 1 || sb->datas[0].data == nullptr || sb->datas[0].chunk == nullptr) return false;
    const spa_data& d = sb->datas[0];
    const volatile spa_chunk* chunk = d.chunk;
    const int64_t chunk_stride = chunk->stride;
    const int64_t offset = chunk->offset;
    if (chunk_stride < int64_t(size.width) * 4 || chunk_stride > INT_MAX || offset < 0) return false;
    if (offset + chunk_stride * (size.height - 1) + int64_t(size.width) * 4 > int64_t(d.maxsize)) return false;
    data = static_cast<const uint8_t*>(d.data) + offset;
    stride = int(chunk_stride);
    return true;
  }

  // Adds what `sb` changed to what waits for the next picture held.
  void add_damage(const spa_buffer* sb) {
    const Rect all = Rect::from_size(size);
    const auto* meta = static_cast<const spa_meta*>(spa_buffer_find_meta(sb, SPA_META_VideoDamage));
    if (meta == nullptr) unread_whole = true;
    const spa_meta_region* r = nullptr;
    if (meta) spa_meta_for_each(r, meta) {
      if (!spa_meta_region_is_valid(r)) break;
      const int64_t x = r->region.position.x, y = r->region.position.y;
      const int64_t w = std::min<int64_t>(r->region.size.width, INT_MAX);
      const int64_t h = std::min<int64_t>(r->region.size.height, INT_MAX);
      if (x >= all.width || y >= all.height || x + w <= 0 || y + h <= 0) continue;
      const int x0 = int(std::max<int64_t>(x, 0)), y0 = int(std::max<int64_t>(y, 0));
      const int x1 = int(std::min<int64_t>(x + w, all.width)), y1 = int(std::min<int64_t>(y + h, all.height));
      if (unread_damage.size() < kMaxDamageRects) unread_damage.push_back(Rect{x0, y0, x1 - x0, y1 - y0});
      else unread_whole = true;
    }
  }

  // A picture is held: what changed up to it reaches every reader.
  void deliver_damage() {
    for (StreamReader* reader : readers) {
      StreamNews& n = reader->news_;
      if (unread_whole || n.damage.size() + unread_damage.size() > kMaxDamageRects) {
        n.whole = true;
        n.damage.clear();
      } else if (!n.whole) {
        n.damage.insert(n.damage.end(), unread_damage.begin(), unread_damage.end());
      }
      n.fresh = true;
      signal(reader->news_fd_.get());
    }
    unread_damage.clear();
    unread_whole = false;
  }

  static void on_process(void* data) {
    auto* self = static_cast<Impl*>(data);
    bool got = false;
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
      const uint8_t* pixels = nullptr;
      int stride = 0;
      if (corrupt || !self->locate(b, pixels, stride)) {
        pw_stream_queue_buffer(self->stream, b);  // its damage waits for the next picture
        continue;
      }
      if (self->held) pw_stream_queue_buffer(self->stream, self->held);
      self->held = b;
      self->picture.data = pixels;
      self->picture.stride = stride;
      self->picture.size = self->size;
      self->picture.red_first = is_red_first(self->format);
      got = true;
    }
    if (got) self->deliver_damage();
  }
};

namespace {

const pw_stream_events kStreamEvents = [] {
  pw_stream_events e{};
  e.version = PW_VERSION_STREAM_EVENTS;
  e.state_changed = PipewireStream::Impl::on_state_changed;
  e.param_changed = PipewireStream::Impl::on_param_changed;
  e.process = PipewireStream::Impl::on_process;
  e.remove_buffer = PipewireStream::Impl::on_remove_buffer;
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
    : state_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)), impl_(std::make_unique<Impl>()) {
  init_pipewire_once();
  if (!state_fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  Impl& i = *impl_;
  i.state_fd = state_fd_.get();
  i.thread_loop = pw_thread_loop_new("voxl-pipewire", nullptr);
  if (!i.thread_loop) throw std::runtime_error("PipeWire: cannot make a loop");
  i.context = pw_context_new(pw_thread_loop_get_loop(i.thread_loop), nullptr, 0);
  if (!i.context) throw std::runtime_error("PipeWire: cannot make a context");
  if (pw_thread_loop_start(i.thread_loop) < 0) throw std::runtime_error("PipeWire: cannot start its thread");
  i.lock();
  std::string error;
  // The connection takes the socket, and closes it when it ends.
  i.core = pw_context_connect_fd(i.context, remote.release(), nullptr, 0);
  if (i.core) {
    pw_core_add_listener(i.core, &i.core_listener, &kCoreEvents, &i);
    i.stream = pw_stream_new(i.core, "voxl",
                             pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                               PW_KEY_MEDIA_ROLE, "Screen", nullptr));
  }
  if (i.stream) {
    pw_stream_add_listener(i.stream, &i.stream_listener, &kStreamEvents, &i);
    uint8_t storage[1024];
    spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof storage);
    const spa_pod* params[1] = {enum_format(&b)};
    // Not relinked elsewhere when the producer goes: its end is the session's.
    const auto flags =
        pw_stream_flags(PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_DONT_RECONNECT);
    if (const int r = pw_stream_connect(i.stream, PW_DIRECTION_INPUT, node, flags, params, 1); r < 0)
      error = std::string("PipeWire: cannot connect to the screen cast: ") + spa_strerror(r);
  } else {
    error = i.core ? "PipeWire: cannot make a stream" : "PipeWire: the portal's connection to the daemon was refused";
  }
  i.unlock();
  if (!error.empty()) throw std::runtime_error(error);
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    i.lock();
    const bool agreed = !i.format_name.empty();
    error = i.error;
    i.unlock();
    if (!error.empty()) throw std::runtime_error(error);
    if (agreed) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      throw std::runtime_error("PipeWire: the screen cast agreed no picture format in " +
                               std::to_string(limit.count()) +
                               " ms (is a session manager such as WirePlumber running?)");
    pollfd f{state_fd_.get(), POLLIN, 0};
    if (poll(&f, 1, int(left.count()) + 1) > 0) drain(state_fd_.get());
  }
}

PipewireStream::~PipewireStream() = default;

void PipewireStream::lock() const { impl_->lock(); }
void PipewireStream::unlock() const { impl_->unlock(); }

bool PipewireStream::failed() const {
  lock();
  const bool failed = !impl_->error.empty();
  unlock();
  return failed;
}

Size PipewireStream::size() const {
  lock();
  const Size s = impl_->size;
  unlock();
  return s;
}

std::string PipewireStream::format_name() const {
  lock();
  std::string name = impl_->format_name;
  unlock();
  return name;
}

StreamReader::StreamReader(std::shared_ptr<PipewireStream> stream)
    : stream_(std::move(stream)), news_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!news_fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  PipewireStream::Impl& i = *stream_->impl_;
  stream_->lock();
  i.readers.push_back(this);
  news_.size = i.size;
  news_.whole = true;
  news_.fresh = i.held != nullptr;
  stream_->unlock();
}

StreamReader::~StreamReader() {
  auto& readers = stream_->impl_->readers;
  stream_->lock();
  readers.erase(std::remove(readers.begin(), readers.end(), this), readers.end());
  stream_->unlock();
}

bool StreamReader::has_news() const {
  stream_->lock();
  const bool news = news_.fresh || !stream_->impl_->error.empty();
  stream_->unlock();
  return news;
}

StreamReader::Wait StreamReader::wait(std::chrono::steady_clock::time_point deadline, int wake_fd) {
  for (;;) {
    if (has_news()) return Wait::kNews;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return Wait::kTimeout;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    pollfd fds[2] = {{news_fd_.get(), POLLIN, 0}, {wake_fd, POLLIN, 0}};
    const int n = poll(fds, wake_fd >= 0 ? 2 : 1, int(std::min<int64_t>(left, INT_MAX)));
    if (n > 0 && (fds[0].revents & POLLIN)) drain(news_fd_.get());
    if (n > 0 && wake_fd >= 0 && (fds[1].revents & POLLIN)) return has_news() ? Wait::kNews : Wait::kWoken;
  }
}

void StreamReader::clear_signal() { drain(news_fd_.get()); }

StreamNews StreamReader::take_news() {
  stream_->lock();
  StreamNews out = std::move(news_);
  out.size = stream_->impl_->size;
  out.error = stream_->impl_->error;
  news_ = {};
  stream_->unlock();
  return out;
}

void StreamReader::with_picture(const std::function<void(const HeldPicture*)>& use) const {
  const PipewireStream::Impl& i = *stream_->impl_;
  stream_->lock();
  try {
    use(i.held ? &i.picture : nullptr);
  } catch (...) {
    stream_->unlock();
    throw;
  }
  stream_->unlock();
}

}  // namespace voxl::platform::portal
