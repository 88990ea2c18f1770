// One viewer, whatever carries its messages: reads what the viewer sends
// (acks, key frame requests, pings, stats switches, input and clipboard for
// input::ViewerInput, microphone packets) and decides what it is sent next
// (control text first, then desktop audio, then video, paced by the
// viewer's LinkEstimator; its BitrateController feeds the hub's encoder
// target). The WebSocket session (src/net/websocket_session.cpp) is only
// the ViewerTransport under it.
//
// A viewer that says it decodes High 4:4:4 Predictive ("decoder") counts
// towards the hub's full-chroma rule; one that says nothing does not.
//
// Everything a viewer sends is hostile until checked: a message is bounded
// in size by type and role (see wire_format.h), its JSON in nesting depth
// before it is parsed, and every field is read through JsonFields; a
// message that fails is ignored (logged at debug, rate-limited). Key frame
// requests go through a per-viewer token bucket. A view-only viewer's link
// estimate does not lower the shared encoder target (it skips frames and
// resyncs on key frames, like a viewer below --min-kbps).
//
// A viewer's own settings ("settings", stream/viewer/viewer_settings.h): its frame
// rate cap, full or view-only, only counts towards the hub's frame rate
// ceiling (the highest any viewer or consumer allows), so one viewer's cap
// never slows another and nothing is thinned per viewer; a full viewer's
// bitrate cap bounds its target_kbps(); a view-only viewer's bitrate cap is
// dropped (answered as 0). Its name goes to the viewer list
// (input::Interaction).
//
// Threads: the loop thread only. Lifetime: owned by its transport; it
// registers itself with the hubs and the interaction in start() and leaves
// them when closed or destroyed.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "stream/viewer/viewer_grant.h"
#include "stream/viewer/viewer_services.h"
#include "base/json_fields.h"
#include "base/logging.h"
#include "base/token_bucket.h"
#include "input/interaction.h"
#include "platform/tcp_path.h"
#include "stream/fanout/audio_hub.h"
#include "stream/viewer/audio_queue.h"
#include "stream/viewer/bitrate_controller.h"
#include "stream/pacing/transfer_share.h"
#include "stream/fanout/hub.h"
#include "stream/viewer/link_estimator.h"
#include "stream/viewer/send_queue.h"
#include "stream/viewer/text_queue.h"
#include "stream/viewer/viewer_metrics.h"
#include "stream/viewer/viewer_settings.h"
#include "stream/viewer/wire_format.h"

namespace voxl::audio {
class Microphone;
}
namespace voxl::input {
class ViewerInput;
}

namespace voxl::stream {

class ResizeController;

// WebSocket close codes (RFC 6455 7.4.1) a connection is closed with.
enum class CloseCode : uint16_t {
  kGoingAway = 1001,  // the server is stopping
  kPolicy = 1008,    // the viewer broke a limit (it stopped reading)
  kTooBig = 1009,
  kInternal = 1011,  // voxl failed handling this viewer
};

// What a ViewerConnection needs of the connection under it.
class ViewerTransport {
 public:
  // Start writing one message; the connection has at most one write in
  // flight and keeps the bytes alive until the transport calls
  // ViewerConnection::on_written() (or on_transport_closed()).
  virtual void write_text(std::string_view text) = 0;
  virtual void write_binary(std::span<const uint8_t> header, std::span<const uint8_t> payload) = 0;
  // Close the connection (after a write in flight, if any). The connection
  // has already left the hubs; it sends nothing more.
  virtual void close(CloseCode code, std::string_view reason) = 0;
  // While on, call ViewerConnection::tick() about once a second.
  virtual void set_ticking(bool on) = 0;
  // What the kernel's TCP has measured of the connection's path, where the
  // system says (platform/tcp_path.h); nullopt otherwise.
  virtual std::optional<platform::TcpPath> tcp_path() { return std::nullopt; }

 protected:
  virtual ~ViewerTransport() = default;
};

// The clocks a connection reads; empty members mean the system's.
struct ViewerClocks {
  std::function<std::chrono::steady_clock::time_point()> steady;
  std::function<uint64_t()> wall_us;  // CLOCK_REALTIME, µs
};

// Limits on what a viewer sends (documented in wire_format.h).
struct ClientLimits {
  // Text: a "clipboard" message from a full viewer (an 8 MiB image in base64).
  static constexpr size_t kMaxClipboardMessageBytes = 12 * 1024 * 1024;
  // Text: every other message, and everything from a view-only viewer.
  static constexpr size_t kMaxControlMessageBytes = 16 * 1024;
  // Binary: one microphone packet (16-byte header + one Opus packet).
  static constexpr size_t kMaxBinaryMessageBytes = 4 * 1024;
  static constexpr size_t kMaxJsonDepth = 16;
  static constexpr size_t kMaxTypeBytes = 32;
  // Key frame requests per viewer: a burst of 3, then one per 2 s.
  static constexpr int kKeyframeBurst = 3;
  static constexpr std::chrono::seconds kKeyframeRefill{2};
  // Outgoing text waiting for a viewer; past it the viewer is closed.
  static constexpr size_t kMaxQueuedTextBytes = 2 * 1024 * 1024;
  static constexpr size_t kMaxQueuedText = 256;

  // The largest message of `type` a viewer of that role may send.
  static size_t max_text_bytes(std::string_view type, bool view_only);
  // What the transport may read in one message (the largest of any type).
  static size_t read_limit(bool view_only);
};

class ViewerConnection final : public VideoSink, public AudioSink, public input::ViewerLink {
 public:
  ViewerConnection(ViewerTransport& transport, const ViewerServices& services, ViewerGrant grant,
                   ViewerClocks clocks = {});
  ~ViewerConnection() override;
  ViewerConnection(const ViewerConnection&) = delete;
  ViewerConnection& operator=(const ViewerConnection&) = delete;

  // The transport is open: says hello and joins the hubs and the interaction.
  void start(uint64_t id);

  // A message from the viewer. A throw while handling it is caught here,
  // logged, and closes this connection (CloseCode::kInternal).
  void receive_text(std::string_view text);
  void receive_binary(std::span<const uint8_t> message);
  // The same dispatch without the guard (for the fuzz target, which wants
  // to see what would throw). Never throws on any input short of bad_alloc.
  void dispatch_text(std::string_view text);
  void dispatch_binary(std::span<const uint8_t> message);

  // The write in flight is done.
  void on_written();
  // The transport closed or failed: leave the hubs, send nothing more.
  void on_transport_closed();
  // About once a second while ticking (stats).
  void tick();
  // Something threw at the transport boundary: log it and close.
  void fault(std::string_view where, std::string_view what);
  // The server is stopping: leave the hubs and close (kGoingAway).
  void shut_down();

  // VideoSink
  bool ready() const override;
  int target_kbps() const override;
  int link_kbps() const override;
  bool takes_full_chroma() const override { return full_chroma_ && !closed_; }
  int max_fps() const override { return closed_ ? 0 : settings_.max_fps; }
  std::optional<Motion> motion() const override { return closed_ ? std::nullopt : settings_.motion; }
  void on_video(const encode::EncodedFramePtr& frame) override;
  // The hub dropped this viewer (taking a frame threw): it closes.
  void on_dropped(std::string_view what) override { fault("a video frame", what); }
  // AudioSink
  void on_audio(const audio::AudioPacketPtr& packet) override;
  // ViewerLink
  void send_control(std::string text) override;
  void send_latest(std::string text, input::ControlKind kind) override;
  void on_control(bool held) override;

  uint64_t id() const { return id_; }
  bool closed() const { return closed_; }
  bool view_only() const { return view_only_; }
  bool stats_on() const { return stats_on_; }
  // Messages ignored as malformed, oversized or with a bad field.
  uint64_t ignored() const { return ignored_; }
  // Key frame requests the bucket put off.
  uint64_t keyframes_put_off() const { return keyframes_put_off_; }
  const TextQueue& text_queue() const { return text_; }
  const ViewerSettings& settings() const { return settings_; }
  // What /metrics says of this viewer.
  ViewerFigures figures() const;

 private:
  using Time = std::chrono::steady_clock::time_point;
  enum class InFlight { kNone, kText, kVideo, kAudio };

  Time now() const;
  uint64_t wall_us() const;
  bool takes_microphone() const;
  void leave();
  void close_with(CloseCode code, std::string_view reason);
  void ignore(std::string_view what, std::string_view type = {}, const char* field = nullptr);
  void guarded(const char* where, const std::function<void()>& f);

  void on_ack(JsonFields& f);
  void on_keyframe_request(JsonFields& f);
  void on_ping(JsonFields& f);
  void on_stats(JsonFields& f);
  void on_decoder(JsonFields& f);
  void on_resize(JsonFields& f);
  void on_settings(JsonFields& f);
  void send_settings();
  void ask_keyframe(Time now);
  void acked(uint32_t id, double hold_ms);

  void send_text(std::string text, TextKind kind);
  void pump();
  void send_video(Time now);
  void send_audio();
  bool paced_by_link(Time now) const;
  double sent_kbps(Time now);
  std::string stats_text();

  ViewerTransport& transport_;
  ViewerServices services_;
  ViewerGrant grant_;
  bool view_only_;
  ViewerClocks clocks_;
  uint64_t id_ = 0;

  SendQueue queue_;
  TextQueue text_;
  AudioQueue audio_queue_;
  InFlight in_flight_ = InFlight::kNone;
  encode::EncodedFramePtr sending_;
  audio::AudioPacketPtr sending_audio_;
  std::array<uint8_t, kAudioHeaderBytes> audio_header_{};
  std::array<uint8_t, kVideoHeaderWithStripeBytes> header_{};
  Time write_start_{};
  bool audio_announced_ = false;
  // What each stream's last "video" message said (one entry per stripe).
  struct Announced {
    std::string codec;
    Size size;
    Rect band;
  };
  std::vector<Announced> announced_;
  // Streams the picture is coded as now: a picture is sent as up to that
  // many frames (one per changed band), and the link window counts pictures.
  int stripes_ = 1;

  LinkEstimator link_;
  BitrateController rate_;
  bool acks_seen_ = false;
  std::optional<Time> first_frame_at_;  // the first video frame sent
  // Set when a frame had to wait for the link window: the next frame sent
  // then measures the link, not the content (see LinkEstimator::on_send).
  mutable bool held_back_ = false;
  uint64_t held_back_count_ = 0;
  uint64_t frames_sent_ = 0;  // since start, for figures()
  uint64_t bytes_sent_total_ = 0;
  uint64_t key_frames_sent_ = 0;
  std::deque<std::pair<Time, size_t>> sent_;  // the last second
  size_t sent_bytes_ = 0;
  double queue_ms_ = 0;  // capture -> handed to the transport, last frame
  double send_ms_ = 0;   // handed to the transport -> written, last frame
  uint64_t acked_ = 0;
  double last_decode_ms_ = 0;

  TokenBucket key_bucket_;
  bool key_owed_ = false;  // a request the bucket put off, asked for once it refills
  uint64_t keyframes_put_off_ = 0;

  // Rate limit of the debug lines about ignored messages.
  // Debug lines about ignored messages: a few at once, then one every 2 s.
  static constexpr int kIgnoredLogBurst = 5;
  static constexpr std::chrono::seconds kIgnoredLogRefill{2};
  TokenBucket ignored_log_;
  uint64_t ignored_ = 0;

  bool joined_ = false;
  bool closed_ = false;
  bool stats_on_ = false;
  bool full_chroma_ = false;  // said it decodes High 4:4:4 Predictive ("decoder" message)
  bool refused_resize_ = false;  // told a view-only viewer once that it cannot resize
  ViewerSettings settings_;
  std::unique_ptr<input::ViewerInput> input_;
};

}  // namespace voxl::stream
