// Every client message through the dispatch the server uses
// (stream::ViewerConnection), without the last-resort guard so anything
// that would throw shows up. The first byte picks the role (bit 0: view
// only), the kind (bit 1: binary) and whether another full viewer holds
// control (bit 2: it typed first, so input, "control" and clipboard
// messages meet the handover); the rest is the message. Each input gets a
// fresh connection (and its rival) over a transport that completes every
// write, on a hub, an interaction with a null desktop (input, clipboard)
// and a control timer that is armed but never fires, a resize controller
// over a resizer that takes every size, and no microphone.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "fuzz_target.h"
#include "input/interaction.h"
#include "stream/fanout/hub.h"
#include "stream/viewer/resize_controller.h"
#include "stream/viewer/viewer_connection.h"

namespace VOXL_TEST_FILE {

using namespace voxl;

struct NullInjector : input::InputInjector {
  input::InputStatus key(uint32_t, bool) override { return input::InputStatus::kOk; }
  input::InputStatus type_text(std::string_view) override { return input::InputStatus::kOk; }
  void move(int, int) override {}
  void button(int, bool) override {}
  void scroll_notches(int, int) override {}
  Size desktop_size() const override { return {640, 480}; }
  bool caps_lock() override { return false; }
  bool num_lock() override { return false; }
  std::optional<Point> pointer_position() override { return std::nullopt; }
  bool failed() const override { return false; }
};

struct NullClipboard : input::Clipboard {
  void set_listener(Listener) override {}
  bool offer(input::ClipboardContent, std::string&) override { return true; }
  void set_lost_handler(std::function<void()>) override {}
};

struct Transport : stream::ViewerTransport {
  bool busy = false;
  void write_text(std::string_view) override { busy = true; }
  void write_binary(std::span<const uint8_t>, std::span<const uint8_t>) override { busy = true; }
  void close(stream::CloseCode, std::string_view) override {}
  void set_ticking(bool) override {}
};

struct World {
  Logger log = std::make_shared<spdlog::logger>("fuzz", std::make_shared<spdlog::sinks::null_sink_mt>());
  stream::Hub hub{stream::PipelineControls{}};
  NullInjector injector;
  NullClipboard clipboard;
  input::Interaction interaction{&injector, &clipboard, nullptr, {}, log, {.arm_timer = [](auto) {}}};
  stream::ResizeController resize{{.current = {640, 480}, .max = {3840, 2160}},
                                  {.resize = [](Size, std::string&) { return true; }, .arm_timer = [](auto) {}},
                                  log};
};

}  // namespace

VOXL_FUZZ_TARGET(client_message) {
  static World world;
  if (size == 0) return 0;
  const bool view_only = data[0] & 1;
  const bool binary = data[0] & 2;
  const bool rival = data[0] & 4;
  // A signed-in user's rights: control, or watching; clipboard each way.
  stream::ViewerGrant grant = stream::ViewerGrant::from_view_only(view_only);
  grant.input.clipboard_in = grant.input.clipboard_in && !(data[0] & 8);
  grant.input.clipboard_out = !(data[0] & 16);
  const std::span<const uint8_t> message(data + 1, size - 1);

  stream::ViewerServices services{.hub = &world.hub, .log = world.log};
  services.interaction = &world.interaction;
  services.resize = &world.resize;
  Transport rival_transport;
  std::optional<stream::ViewerConnection> holder;
  if (rival) {
    holder.emplace(rival_transport, services, stream::ViewerGrant{});
    holder->start(2);
    holder->dispatch_text(R"({"type":"key","code":"KeyA","key":"a","down":true,"mods":0})");
  }
  Transport transport;
  stream::ViewerConnection conn(transport, services, grant);
  conn.start(1);
  if (binary)
    conn.dispatch_binary(message);
  else
    conn.dispatch_text(std::string_view(reinterpret_cast<const char*>(message.data()), message.size()));
  conn.tick();
  while (transport.busy && !conn.closed()) {
    transport.busy = false;
    conn.on_written();
  }
  if (holder) holder->dispatch_text(R"({"type":"control","action":"grant","to":1})");
  while (transport.busy && !conn.closed()) {
    transport.busy = false;
    conn.on_written();
  }
  return 0;
}
