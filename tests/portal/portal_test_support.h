// What the rig's own tests (portal_rig_test.cpp) use against the test
// portal: a blocking D-Bus client of org.freedesktop.portal.Desktop written
// with sd-bus (PortalClient), and a PipeWire video consumer that links to
// a node the way a screen-cast client does (FrameConsumer).
//
// Threads: each object is used on the thread that made it; its waits run
// its own loop there. Ownership: each owns its connection; FrameConsumer
// owns the PipeWire socket it is given.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pipewire/pipewire.h>
#include <spa/param/video/raw.h>
#include <systemd/sd-bus.h>

#include "platform/owned_file.h"

namespace voxl::testing {

struct MessageUnref {
  void operator()(sd_bus_message* m) const { sd_bus_message_unref(m); }
};
using Message = std::unique_ptr<sd_bus_message, MessageUnref>;

// Appends a method's arguments (or an options dictionary's entries).
using Writer = std::function<void(sd_bus_message*)>;

struct PortalAnswer {
  std::string error;  // the D-Bus error's name; empty when the call was answered
  std::string error_message;
  uint32_t response = ~0u;  // Request.Response's code; ~0u when none came
  Message results;          // at the results' a{sv}
};

// What Start's results said of the session's first stream.
struct StartedStream {
  uint32_t node = 0;
  int width = 0, height = 0;
  uint32_t source_type = 0;
};

class PortalClient {
 public:
  explicit PortalClient(const std::string& bus_address);
  ~PortalClient();
  PortalClient(const PortalClient&) = delete;
  PortalClient& operator=(const PortalClient&) = delete;

  // interface.method(leading..., {handle_token, options...}): the reply, and
  // the Request's Response (subscribed to before calling), waited for up
  // to 20 s.
  PortalAnswer request(const char* interface, const char* method, const Writer& leading, const Writer& options = {});
  // A plain call: its error's name, empty on success; the reply in `reply`.
  std::string call(const char* interface, const char* method, const Writer& args, Message* reply = nullptr,
                   std::string* message = nullptr);
  // The same at another of the portal's objects (a session's path).
  std::string call_at(const std::string& path, const char* interface, const char* method, const Writer& args,
                      Message* reply = nullptr, std::string* message = nullptr);
  // The Session.Closed signal for `session`: subscribe, then wait (20 s).
  void watch_closed(const std::string& session);
  bool wait_closed(std::chrono::milliseconds limit = std::chrono::seconds(20));

  // CreateSession on `interface`; the session's path, empty when refused.
  std::string create_session(const char* interface);
  std::string unique_name() const;

 private:
  bool wait(const std::function<bool()>& done, std::chrono::milliseconds limit);

  sd_bus* bus_ = nullptr;
  uint32_t tokens_ = 0;
  sd_bus_slot* closed_match_ = nullptr;
  bool closed_ = false;
};

// Reads `key` of an a{sv} of results (the message at it); nullopt when
// absent. The streams' first entry for "streams".
std::optional<std::string> result_string(sd_bus_message* results, const char* key);
std::optional<uint32_t> result_u(sd_bus_message* results, const char* key);
std::optional<StartedStream> result_stream(sd_bus_message* results);

struct Frame {
  int width = 0, height = 0, stride = 0;
  spa_video_format format = SPA_VIDEO_FORMAT_UNKNOWN;
  std::vector<uint8_t> bytes;  // height rows of stride bytes
  struct Rect {
    int x, y, w, h;
  };
  std::vector<Rect> damage;  // empty when the buffer had no damage meta
};

class FrameConsumer {
 public:
  // Connects through `remote` (OpenPipeWireRemote's socket) a video input
  // stream with PW_STREAM_FLAG_AUTOCONNECT targeting `node`.
  FrameConsumer(platform::OwnedFile remote, uint32_t node);
  ~FrameConsumer();
  FrameConsumer(const FrameConsumer&) = delete;
  FrameConsumer& operator=(const FrameConsumer&) = delete;

  // Runs the loop until the stream is streaming; false after `limit`.
  bool wait_streaming(std::chrono::milliseconds limit);
  // Runs the loop until a frame `accept`s (frames that do not are
  // dropped); the frame, or nullopt after `limit`.
  std::optional<Frame> wait_frame(const std::function<bool(const Frame&)>& accept, std::chrono::milliseconds limit);

 private:
  static void on_state(void* self, pw_stream_state old, pw_stream_state state, const char* error);
  static void on_param(void* self, uint32_t id, const spa_pod* param);
  static void on_process(void* self);
  bool run(const std::function<bool()>& done, std::chrono::milliseconds limit);

  pw_loop* loop_ = nullptr;
  pw_context* context_ = nullptr;
  pw_core* core_ = nullptr;
  pw_stream* stream_ = nullptr;
  spa_hook listener_{};
  pw_stream_events events_{};
  spa_video_info_raw format_{};
  bool streaming_ = false;
  std::string error_;
  std::deque<Frame> frames_;
};

}  // namespace voxl::testing
