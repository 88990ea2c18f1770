// Viewer sessions: one WebSocket per viewer, fed from the hubs. One write in
// flight; control messages go first, then desktop audio (small, and late
// sound is useless) through a bounded AudioQueue, then video through the
// viewer's bounded SendQueue. The second translation unit with Beast.
#include "net/websocket_session.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <optional>

#include <nlohmann/json.hpp>

#include "audio/microphone.h"
#include "base/json_text.h"
#include "stream/audio_hub.h"
#include "stream/audio_queue.h"
#include "stream/bitrate_controller.h"
#include "input/viewer_input.h"
#include "stream/hub.h"
#include "stream/link_estimator.h"
#include "stream/send_queue.h"
#include "stream/wire_format.h"

namespace voxl::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using json = nlohmann::json;

namespace {

// Frames waiting for the socket: a viewer whose link window stays full
// this long (another viewer kept the encoder going) drops its pending
// deltas for a fresh key frame. Frames in flight are bounded by the
// viewer's LinkEstimator (about one round trip's worth).
constexpr size_t kMaxQueuedFrames = 6;
constexpr size_t kMaxQueuedBytes = 16 * 1024 * 1024;
constexpr size_t kMaxQueuedText = 256;  // a viewer this far behind on control is gone
// Room for a pasted image (input::kMaxClipboardBytes, base64) in one message.
constexpr size_t kMaxIncoming = 12 * 1024 * 1024;
// 200 ms of 10 ms packets: waiting behind a large key frame on a slow link
// fits; past that the oldest sound is dropped rather than played late.
constexpr size_t kMaxQueuedAudio = 20;
constexpr auto kStatsEvery = std::chrono::seconds(1);
// Long enough for a first key frame to cross a slow link and be decoded.
constexpr auto kNoAckGrace = std::chrono::seconds(3);

uint64_t wall_us() {
  return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

template <class Stream>
class ViewerSession final : public stream::VideoSink,
                            public stream::AudioSink,
                            public input::ViewerLink,
                            public std::enable_shared_from_this<ViewerSession<Stream>> {
 public:
  ViewerSession(Stream&& s, Role role, SessionContext& ctx)
      : ws_(std::move(s)), role_(role), ctx_(ctx), queue_(kMaxQueuedFrames, kMaxQueuedBytes),
        audio_queue_(kMaxQueuedAudio),
        stats_timer_(ws_.get_executor()), rate_(ctx.bitrate) {}

  ~ViewerSession() override { leave(); }

  void start(Request req) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(beast::http::field::server, "voxl");
    }));
    ws_.read_message_max(kMaxIncoming);
    ws_.auto_fragment(false);
    ws_.async_accept(req, [self = this->shared_from_this()](beast::error_code ec) { self->on_accept(ec); });
  }

  bool ready() const override {
    if (closed_ || !queue_.empty()) return false;
    const auto now = std::chrono::steady_clock::now();
    if (!paced_by_link(now)) return !sending_;  // TCP alone paces it
    if (link_.can_send(ctx_.max_fps, now)) return true;
    held_back_ = true;  // the link, not the content, limits the next frame
    return false;
  }

  int target_kbps() const override { return acks_seen_ ? rate_.target_kbps() : 0; }

  void on_video(const encode::EncodedFramePtr& frame) override {
    if (closed_) return;
    if (queue_.push(frame) == stream::SendQueue::Push::kNeedKeyframe) {
      ctx_.log->debug("viewer {} fell behind; dropped its pending frames", id_);
      ctx_.hub.request_keyframe();
    }
    pump();
  }

  void on_audio(const audio::AudioPacketPtr& packet) override {
    if (closed_) return;
    if (!audio_announced_) {
      audio_announced_ = true;
      send_text(json_text(json{{"type", "audio"}, {"codec", "opus"}, {"rate", audio::kSampleRate},
                     {"channels", audio::kDesktopChannels}}));
    }
    audio_queue_.push(packet);
    pump();
  }

  void send_control(std::string text) override { send_text(std::move(text)); }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) {
      ctx_.log->debug("WebSocket handshake failed: {}", ec.message());
      return;
    }
    id_ = ++ctx_.viewers_seen;
    ctx_.log->info("viewer {} connected{}", id_, role_ == Role::kViewOnly ? " (view only)" : "");
    send_text(json_text(json{{"type", "hello"}, {"version", stream::kProtocolVersion}, {"server", "voxl 0.1.0"},
                   {"view_only", role_ == Role::kViewOnly}, {"microphone", takes_microphone()}}));
    joined_ = true;
    ctx_.hub.add(this);
    if (ctx_.audio_hub) ctx_.audio_hub->add(this);
    if (ctx_.interaction) input_ = ctx_.interaction->join(*this, role_ == Role::kViewOnly, id_);
    read();
  }

  void leave() {
    if (joined_) ctx_.hub.remove(this);
    if (joined_ && ctx_.audio_hub) ctx_.audio_hub->remove(this);
    if (joined_ && ctx_.microphone) ctx_.microphone->forget(this);
    joined_ = false;
    input_.reset();  // releases the keys and buttons this viewer holds
  }

  void fail(beast::error_code ec, const char* what) {
    if (!closed_ && ec != websocket::error::closed && ec != asio::error::operation_aborted &&
        ec != asio::error::eof && ec != asio::error::connection_reset)
      ctx_.log->debug("viewer {} {}: {}", id_, what, ec.message());
    if (!closed_) ctx_.log->info("viewer {} left", id_);
    closed_ = true;
    stats_timer_.cancel();
    leave();
  }

  void read() {
    ws_.async_read(in_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->fail(ec, "read");
      if (self->ws_.got_text()) self->on_text(beast::buffers_to_string(self->in_.data()));
      else self->on_binary();
      self->in_.consume(self->in_.size());
      self->read();
    });
  }

  // A view-only viewer watches and listens; it does not speak.
  bool takes_microphone() const { return ctx_.microphone && role_ != Role::kViewOnly; }

  void on_binary() {
    const auto data = in_.cdata();
    const std::span<const uint8_t> m(static_cast<const uint8_t*>(data.data()), data.size());
    size_t offset = 0;
    const auto h = stream::read_audio_header(m, stream::kKindMicrophone, offset);
    if (!h) {
      ctx_.log->debug("viewer {} sent a binary message voxl does not take", id_);
      return;
    }
    if (takes_microphone()) ctx_.microphone->on_packet(this, h->sequence, m.subspan(offset));
  }

  void on_text(const std::string& text) {
    const json m = json::parse(text, nullptr, false);
    if (!m.is_object() || !m.contains("type") || !m["type"].is_string()) {
      ctx_.log->debug("viewer {} sent a malformed message", id_);
      return;
    }
    const std::string type = m["type"];
    if (type == "ack") {
      ++acked_;
      if (m.contains("decode_ms") && m["decode_ms"].is_number()) last_decode_ms_ = m["decode_ms"];
      // Receive -> ack at the client; older clients only say decode time.
      double hold_ms = last_decode_ms_;
      if (m.contains("hold_ms") && m["hold_ms"].is_number()) hold_ms = m["hold_ms"];
      if (m.contains("id") && m["id"].is_number_unsigned()) on_ack(m["id"].get<uint32_t>(), hold_ms);
    } else if (type == "keyframe") {
      ctx_.log->debug("viewer {} asked for a key frame: {}", id_, m.value("reason", std::string("?")));
      link_.forget_in_flight();  // a reset decoder will not acknowledge what it had
      ctx_.hub.request_keyframe();
      ctx_.hub.refresh_pause();
    } else if (type == "ping") {
      send_text(json_text(json{{"type", "pong"}, {"t", m.value("t", 0.0)}, {"server_us", wall_us()}}));
    } else if (type == "stats") {
      const bool on = m.value("enabled", false);
      if (on && !stats_on_) {
        stats_on_ = true;
        schedule_stats();
      } else if (!on) {
        stats_on_ = false;
        stats_timer_.cancel();
      }
    } else if (input_) {
      input_->handle(type, m);
    }
  }

  // Clients that acknowledge frames are held to what their link carries
  // without a queue (LinkEstimator), and their estimate sets the encoder's
  // bitrate through the hub; clients that never ack are paced by TCP alone.
  void on_ack(uint32_t id, double hold_ms) {
    acks_seen_ = true;
    const auto now = std::chrono::steady_clock::now();
    link_.on_ack(id, hold_ms, now);
    rate_.on_feedback(link_, sent_kbps(now), now);
    pump();
    ctx_.hub.refresh_pause();
    ctx_.hub.refresh_rate();
  }

  // Before its first ack a viewer gets the link window's start-up size (a
  // few frames), not TCP's: loopback and LAN socket buffers hold seconds of
  // a slow link. One that has acked nothing kNoAckGrace after its first
  // frame is a client that does not ack; TCP alone paces it.
  bool paced_by_link(std::chrono::steady_clock::time_point now) const {
    return acks_seen_ || !first_frame_at_ || now - *first_frame_at_ < kNoAckGrace;
  }

  // What this viewer was sent over the last second, in kbit/s.
  double sent_kbps(std::chrono::steady_clock::time_point now) {
    while (!sent_.empty() && now - sent_.front().first > std::chrono::seconds(1)) {
      sent_bytes_ -= sent_.front().second;
      sent_.pop_front();
    }
    return double(sent_bytes_) * 8.0 / 1000.0;
  }

  void schedule_stats() {
    stats_timer_.expires_after(kStatsEvery);
    stats_timer_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
      if (ec || self->closed_ || !self->stats_on_) return;
      json s = json::parse(self->ctx_.stats_json ? self->ctx_.stats_json() : "{}", nullptr, false);
      if (!s.is_object()) s = json::object();
      s["type"] = "stats";
      s["viewer"] = {{"queued_frames", self->queue_.size()},
                     {"queued_bytes", self->queue_.bytes()},
                     {"dropped_frames", self->queue_.dropped()},
                     {"acked_frames", self->acked_},
                     {"in_flight", self->link_.frames_in_flight()},
                     {"in_flight_bytes", self->link_.bytes_in_flight()},
                     {"rtt_ms", self->link_.srtt_ms()},
                     {"min_rtt_ms", self->link_.min_rtt_ms()},
                     {"delivery_kbps", self->link_.delivery_kbps()},
                     {"target_kbps", self->rate_.target_kbps()},
                     {"encoder_kbps", self->ctx_.hub.target_kbps()},
                     {"held_back", self->held_back_count_},
                     {"queue_ms", self->queue_ms_},
                     {"send_ms", self->send_ms_},
                     {"decode_ms", self->last_decode_ms_},
                     {"queued_audio", self->audio_queue_.size()},
                     {"dropped_audio", self->audio_queue_.dropped()}};
      self->send_text(json_text(s));
      self->schedule_stats();
    });
  }

  void send_text(std::string text) {
    if (closed_) return;
    if (text_.size() >= kMaxQueuedText) {
      ctx_.log->info("viewer {} is not reading; closing", id_);
      closed_ = true;
      ws_.async_close(websocket::close_code::policy_error, [self = this->shared_from_this()](beast::error_code) {});
      leave();
      return;
    }
    text_.push_back(std::move(text));
    pump();
  }

  // Starts the next write if none is in flight.
  void pump() {
    if (writing_ || closed_) return;
    if (!text_.empty()) {
      writing_ = true;
      ws_.text(true);
      ws_.async_write(asio::buffer(text_.front()), [self = this->shared_from_this()](beast::error_code ec, size_t) {
        self->writing_ = false;
        if (ec) return self->fail(ec, "write");
        self->text_.pop_front();
        self->pump();
      });
      return;
    }
    if (!audio_queue_.empty()) return send_audio();
    if (queue_.empty()) return;
    const auto now = std::chrono::steady_clock::now();
    link_.expire(now);
    if (paced_by_link(now) && !link_.can_send(ctx_.max_fps, now)) {  // the next ack resumes
      held_back_ = true;
      return;
    }
    const auto& next = *queue_.peek();
    if (next.key && (next.codec != sent_codec_ || next.size != sent_size_)) {
      sent_codec_ = next.codec;
      sent_size_ = next.size;
      send_text(json_text(json{{"type", "video"}, {"codec", next.codec}, {"width", next.size.width},
                     {"height", next.size.height}}));
      return;
    }
    sending_ = queue_.pop();
    if (!first_frame_at_) first_frame_at_ = now;
    const size_t bytes = stream::kVideoHeaderBytes + sending_->data.size();
    if (held_back_) ++held_back_count_;
    link_.on_send(sending_->id, bytes, !held_back_, now);
    held_back_ = false;
    sent_.emplace_back(now, bytes);
    sent_bytes_ += bytes;
    if (sent_.size() > kMaxSentSamples) {
      sent_bytes_ -= sent_.front().second;
      sent_.pop_front();
    }
    stream::VideoHeader h;
    h.key = sending_->key;
    h.frame_id = sending_->id;
    h.capture_us = sending_->capture_wall_us;
    h.width = uint16_t(sending_->size.width);
    h.height = uint16_t(sending_->size.height);
    h.server_us = uint32_t(std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::steady_clock::now() - sending_->captured_at)
                               .count());
    stream::write_video_header(h, header_);
    writing_ = true;
    ws_.binary(true);
    const std::array<asio::const_buffer, 2> bufs{asio::buffer(header_),
                                                 asio::buffer(sending_->data)};
    queue_ms_ = double(h.server_us) / 1000.0;
    const auto write_start = std::chrono::steady_clock::now();
    ws_.async_write(bufs, [self = this->shared_from_this(), write_start](beast::error_code ec, size_t) {
      self->send_ms_ =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - write_start).count();
      self->writing_ = false;
      self->sending_.reset();
      if (ec) return self->fail(ec, "write");
      self->pump();
      self->ctx_.hub.refresh_pause();
    });
  }

  void send_audio() {
    sending_audio_ = audio_queue_.pop();
    stream::AudioHeader h;
    h.kind = stream::kKindAudio;
    h.sequence = sending_audio_->sequence;
    h.capture_us = sending_audio_->capture_wall_us;
    stream::write_audio_header(h, audio_header_);
    writing_ = true;
    ws_.binary(true);
    const std::array<asio::const_buffer, 2> bufs{asio::buffer(audio_header_),
                                                 asio::buffer(sending_audio_->data)};
    ws_.async_write(bufs, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      self->writing_ = false;
      self->sending_audio_.reset();
      if (ec) return self->fail(ec, "write");
      self->pump();
    });
  }

  websocket::stream<Stream> ws_;
  Role role_;
  SessionContext& ctx_;
  stream::SendQueue queue_;
  std::deque<std::string> text_;
  encode::EncodedFramePtr sending_;
  stream::AudioQueue audio_queue_;
  audio::AudioPacketPtr sending_audio_;
  std::array<uint8_t, stream::kAudioHeaderBytes> audio_header_{};
  bool audio_announced_ = false;
  std::array<uint8_t, stream::kVideoHeaderBytes> header_{};
  beast::flat_buffer in_;
  asio::steady_timer stats_timer_;
  std::string sent_codec_;
  Size sent_size_;
  uint64_t id_ = 0;
  stream::LinkEstimator link_;
  stream::BitrateController rate_;
  bool acks_seen_ = false;
  std::optional<std::chrono::steady_clock::time_point> first_frame_at_;  // the first video frame sent
  // Set when a frame had to wait for the link window: the next frame sent
  // then measures the link, not the content (see LinkEstimator::on_send).
  mutable bool held_back_ = false;
  uint64_t held_back_count_ = 0;
  static constexpr size_t kMaxSentSamples = 512;
  std::deque<std::pair<std::chrono::steady_clock::time_point, size_t>> sent_;  // the last second
  size_t sent_bytes_ = 0;
  double queue_ms_ = 0;      // capture -> handed to the socket, last frame
  double send_ms_ = 0;       // handed to the socket -> written, last frame
  uint64_t acked_ = 0;
  double last_decode_ms_ = 0;
  bool joined_ = false;
  bool writing_ = false;
  bool closed_ = false;
  bool stats_on_ = false;
  std::unique_ptr<input::ViewerInput> input_;
};

}  // namespace

template <class Stream>
void start_viewer_session(Stream&& stream, Request request, Role role, SessionContext& ctx) {
  std::make_shared<ViewerSession<Stream>>(std::move(stream), role, ctx)->start(std::move(request));
}

template void start_viewer_session<PlainStream>(PlainStream&&, Request, Role, SessionContext&);
template void start_viewer_session<TlsStream>(TlsStream&&, Request, Role, SessionContext&);

}  // namespace voxl::net
