#include "portal_test_support.h"

#include <spa/buffer/meta.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace voxl::testing {

namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kPortal = "org.freedesktop.portal.Desktop";
constexpr const char* kDesktop = "/org/freedesktop/portal/desktop";
constexpr uint64_t kCallUsec = 20'000'000;

std::string request_path(const char* unique, const std::string& token) {
  std::string who(unique[0] == ':' ? unique + 1 : unique);
  std::replace(who.begin(), who.end(), '.', '_');
  return std::string(kDesktop) + "/request/" + who + "/" + token;
}

int on_response(sd_bus_message* m, void* answer, sd_bus_error*) {
  auto* a = static_cast<PortalAnswer*>(answer);
  uint32_t code = 0;
  if (sd_bus_message_read(m, "u", &code) < 0) return 0;
  a->response = code;
  a->results.reset(sd_bus_message_ref(m));  // read up to its results
  return 0;
}

// Runs `on_value` with the message at the variant of `key` in the results
// (rewound first); false when the key is absent.
bool find_result(sd_bus_message* m, const char* key, const std::function<bool(sd_bus_message*)>& on_value) {
  if (!m || sd_bus_message_rewind(m, 1) < 0 || sd_bus_message_skip(m, "u") < 0) return false;
  if (sd_bus_message_enter_container(m, 'a', "{sv}") <= 0) return false;
  while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
    const char* name = nullptr;
    if (sd_bus_message_read(m, "s", &name) < 0) return false;
    if (std::strcmp(name, key) == 0) return on_value(m);
    if (sd_bus_message_skip(m, "v") < 0 || sd_bus_message_exit_container(m) < 0) return false;
  }
  return false;
}

}  // namespace

PortalClient::PortalClient(const std::string& bus_address) {
  int r = sd_bus_new(&bus_);
  if (r >= 0) r = sd_bus_set_address(bus_, bus_address.c_str());
  if (r >= 0) r = sd_bus_set_bus_client(bus_, 1);
  if (r >= 0) r = sd_bus_start(bus_);
  if (r < 0) {
    sd_bus_unref(bus_);
    throw std::runtime_error(std::string("cannot reach the rig's bus: ") + std::strerror(-r));
  }
}

PortalClient::~PortalClient() {
  sd_bus_slot_unref(closed_match_);
  sd_bus_flush_close_unref(bus_);
}

std::string PortalClient::unique_name() const {
  const char* unique = nullptr;
  return sd_bus_get_unique_name(bus_, &unique) >= 0 ? unique : "";
}

bool PortalClient::wait(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (!done()) {
    const int r = sd_bus_process(bus_, nullptr);
    if (r < 0) return false;
    if (r > 0) continue;
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    sd_bus_wait(bus_, uint64_t(left.count()));
  }
  return true;
}

PortalAnswer PortalClient::request(const char* interface, const char* method, const Writer& leading,
                                   const Writer& options) {
  const std::string token = "voxl" + std::to_string(++tokens_);
  const std::string path = request_path(unique_name().c_str(), token);
  PortalAnswer answer;
  sd_bus_slot* slot = nullptr;
  if (sd_bus_match_signal(bus_, &slot, nullptr, path.c_str(), "org.freedesktop.portal.Request", "Response",
                          &on_response, &answer) < 0)
    throw std::runtime_error("cannot subscribe to the request's Response");
  sd_bus_message* call = nullptr;
  sd_bus_message_new_method_call(bus_, &call, kPortal, kDesktop, interface, method);
  if (leading) leading(call);
  sd_bus_message_open_container(call, 'a', "{sv}");
  sd_bus_message_append(call, "{sv}", "handle_token", "s", token.c_str());
  if (options) options(call);
  sd_bus_message_close_container(call);
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message* reply = nullptr;
  if (sd_bus_call(bus_, call, kCallUsec, &error, &reply) < 0) {
    answer.error = error.name ? error.name : "?";
    answer.error_message = error.message ? error.message : "";
  } else {
    const char* handle = nullptr;
    if (sd_bus_message_read(reply, "o", &handle) < 0 || path != handle)
      answer.error_message = "the portal answered with another request path";
    wait([&] { return answer.response != ~0u; }, std::chrono::seconds(20));
  }
  sd_bus_error_free(&error);
  sd_bus_message_unref(reply);
  sd_bus_message_unref(call);
  sd_bus_slot_unref(slot);
  return answer;
}

std::string PortalClient::call(const char* interface, const char* method, const Writer& args, Message* reply,
                               std::string* message) {
  return call_at(kDesktop, interface, method, args, reply, message);
}

std::string PortalClient::call_at(const std::string& path, const char* interface, const char* method,
                                  const Writer& args, Message* reply, std::string* message) {
  sd_bus_message* call = nullptr;
  sd_bus_message_new_method_call(bus_, &call, kPortal, path.c_str(), interface, method);
  if (args) args(call);
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message* answer = nullptr;
  const int r = sd_bus_call(bus_, call, kCallUsec, &error, &answer);
  const std::string name = r < 0 ? (error.name ? error.name : "?") : "";
  if (message) *message = error.message ? error.message : "";
  if (reply) reply->reset(answer);
  else sd_bus_message_unref(answer);
  sd_bus_error_free(&error);
  sd_bus_message_unref(call);
  return name;
}

void PortalClient::watch_closed(const std::string& session) {
  closed_ = false;
  closed_match_ = sd_bus_slot_unref(closed_match_);
  auto on_closed = [](sd_bus_message*, void* self, sd_bus_error*) {
    static_cast<PortalClient*>(self)->closed_ = true;
    return 0;
  };
  if (sd_bus_match_signal(bus_, &closed_match_, nullptr, session.c_str(), "org.freedesktop.portal.Session", "Closed",
                          on_closed, this) < 0)
    throw std::runtime_error("cannot subscribe to Session.Closed");
}

bool PortalClient::wait_closed(std::chrono::milliseconds limit) {
  return wait([this] { return closed_; }, limit);
}

std::string PortalClient::create_session(const char* interface) {
  const std::string token = "session" + std::to_string(++tokens_);
  const PortalAnswer a = request(interface, "CreateSession", {}, [&](sd_bus_message* m) {
    sd_bus_message_append(m, "{sv}", "session_handle_token", "s", token.c_str());
  });
  if (!a.error.empty() || a.response != 0) return {};
  return result_string(a.results.get(), "session_handle").value_or("");
}

std::optional<std::string> result_string(sd_bus_message* results, const char* key) {
  std::optional<std::string> value;
  find_result(results, key, [&](sd_bus_message* m) {
    const char* s = nullptr;
    if (sd_bus_message_read(m, "v", "s", &s) >= 0) value = s;
    return true;
  });
  return value;
}

std::optional<uint32_t> result_u(sd_bus_message* results, const char* key) {
  std::optional<uint32_t> value;
  find_result(results, key, [&](sd_bus_message* m) {
    uint32_t u = 0;
    if (sd_bus_message_read(m, "v", "u", &u) >= 0) value = u;
    return true;
  });
  return value;
}

std::optional<StartedStream> result_stream(sd_bus_message* results) {
  std::optional<StartedStream> value;
  find_result(results, "streams", [&](sd_bus_message* m) {
    StartedStream s;
    if (sd_bus_message_enter_container(m, 'v', "a(ua{sv})") <= 0 ||
        sd_bus_message_enter_container(m, 'a', "(ua{sv})") <= 0 ||
        sd_bus_message_enter_container(m, 'r', "ua{sv}") <= 0 || sd_bus_message_read(m, "u", &s.node) < 0 ||
        sd_bus_message_enter_container(m, 'a', "{sv}") <= 0)
      return false;
    while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
      const char* name = nullptr;
      sd_bus_message_read(m, "s", &name);
      if (std::strcmp(name, "size") == 0) sd_bus_message_read(m, "v", "(ii)", &s.width, &s.height);
      else if (std::strcmp(name, "source_type") == 0) sd_bus_message_read(m, "v", "u", &s.source_type);
      else sd_bus_message_skip(m, "v");
      sd_bus_message_exit_container(m);
    }
    value = s;
    return true;
  });
  return value;
}

FrameConsumer::FrameConsumer(platform::OwnedFile remote, uint32_t node) {
  pw_init(nullptr, nullptr);
  loop_ = pw_loop_new(nullptr);
  context_ = loop_ ? pw_context_new(loop_, nullptr, 0) : nullptr;
  core_ = context_ ? pw_context_connect_fd(context_, remote.release(), nullptr, 0) : nullptr;
  if (!core_) throw std::runtime_error("cannot connect to PipeWire through the portal's socket");
  stream_ = pw_stream_new(core_, "voxl-portal-rig-test",
                          pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                            PW_KEY_MEDIA_ROLE, "Screen", nullptr));
  if (!stream_) throw std::runtime_error("pw_stream_new failed");
  events_.version = PW_VERSION_STREAM_EVENTS;
  events_.state_changed = &FrameConsumer::on_state;
  events_.param_changed = &FrameConsumer::on_param;
  events_.process = &FrameConsumer::on_process;
  pw_stream_add_listener(stream_, &listener_, &events_, this);
  uint8_t storage[1024];
  spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof storage);
  spa_rectangle size = SPA_RECTANGLE(640, 360), smallest = SPA_RECTANGLE(1, 1), largest = SPA_RECTANGLE(8192, 8192);
  spa_fraction rate = SPA_FRACTION(0, 1), fastest = SPA_FRACTION(1000, 1);
  const spa_pod* format = static_cast<const spa_pod*>(spa_pod_builder_add_object(
      &b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
      SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), SPA_FORMAT_VIDEO_format,
      SPA_POD_CHOICE_ENUM_Id(5, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_RGBx,
                             SPA_VIDEO_FORMAT_BGRA, SPA_VIDEO_FORMAT_RGBA),
      SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&size, &smallest, &largest), SPA_FORMAT_VIDEO_framerate,
      SPA_POD_CHOICE_RANGE_Fraction(&rate, &rate, &fastest)));
  const auto flags = pw_stream_flags(PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS);
  if (pw_stream_connect(stream_, PW_DIRECTION_INPUT, node, flags, &format, 1) < 0)
    throw std::runtime_error("pw_stream_connect failed");
}

FrameConsumer::~FrameConsumer() {
  if (stream_) {
    spa_hook_remove(&listener_);
    pw_stream_destroy(stream_);
  }
  if (core_) pw_core_disconnect(core_);
  if (context_) pw_context_destroy(context_);
  if (loop_) pw_loop_destroy(loop_);
}

void FrameConsumer::on_state(void* self, pw_stream_state, pw_stream_state state, const char* error) {
  auto* c = static_cast<FrameConsumer*>(self);
  c->streaming_ = state == PW_STREAM_STATE_STREAMING;
  if (state == PW_STREAM_STATE_ERROR) c->error_ = error ? error : "error";
}

void FrameConsumer::on_param(void* self, uint32_t id, const spa_pod* param) {
  auto* c = static_cast<FrameConsumer*>(self);
  if (id != SPA_PARAM_Format || !param) return;
  spa_video_info_raw info{};
  if (spa_format_video_raw_parse(param, &info) >= 0) c->format_ = info;
  // Metadata reaches a consumer that asks for it: PipeWire gives a link
  // the metas both of its ends list.
  uint8_t storage[512];
  spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof storage);
  const int region = int(sizeof(spa_meta_region));
  const spa_pod* metas[2];
  metas[0] = static_cast<const spa_pod*>(spa_pod_builder_add_object(
      &b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
      SPA_PARAM_META_size, SPA_POD_Int(sizeof(spa_meta_header))));
  metas[1] = static_cast<const spa_pod*>(spa_pod_builder_add_object(
      &b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoDamage),
      SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(region * 16, region, region * 16)));
  pw_stream_update_params(c->stream_, metas, 2);
}

void FrameConsumer::on_process(void* self) {
  auto* c = static_cast<FrameConsumer*>(self);
  while (pw_buffer* buffer = pw_stream_dequeue_buffer(c->stream_)) {
    const spa_buffer* sb = buffer->buffer;
    const spa_data& d = sb->datas[0];
    if (d.data && d.chunk->size > 0 && !(d.chunk->flags & SPA_CHUNK_FLAG_CORRUPTED)) {
      Frame f;
      f.width = int(c->format_.size.width);
      f.height = int(c->format_.size.height);
      f.stride = d.chunk->stride;
      f.format = c->format_.format;
      const auto* start = static_cast<const uint8_t*>(d.data) + d.chunk->offset;
      f.bytes.assign(start, start + d.chunk->size);
      if (spa_meta* meta = spa_buffer_find_meta(sb, SPA_META_VideoDamage)) {
        const auto* regions = static_cast<const spa_meta_region*>(meta->data);
        for (size_t i = 0; i < meta->size / sizeof(spa_meta_region); ++i) {
          if (!spa_meta_region_is_valid(&regions[i])) break;
          const spa_region& r = regions[i].region;
          f.damage.push_back({r.position.x, r.position.y, int(r.size.width), int(r.size.height)});
        }
      }
      c->frames_.push_back(std::move(f));
    }
    pw_stream_queue_buffer(c->stream_, buffer);
  }
}

bool FrameConsumer::run(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  pw_loop_enter(loop_);
  while (!done() && error_.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    pw_loop_iterate(loop_, int(std::min<int64_t>(left.count(), 200)));
  }
  pw_loop_leave(loop_);
  return done();
}

bool FrameConsumer::wait_streaming(std::chrono::milliseconds limit) {
  return run([this] { return streaming_; }, limit);
}

std::optional<Frame> FrameConsumer::wait_frame(const std::function<bool(const Frame&)>& accept,
                                               std::chrono::milliseconds limit) {
  std::optional<Frame> found;
  run(
      [&] {
        while (!found && !frames_.empty()) {
          if (accept(frames_.front())) found = std::move(frames_.front());
          frames_.pop_front();
        }
        return found.has_value();
      },
      limit);
  return found;
}

}  // namespace voxl::testing
