// Viewer sessions: one WebSocket per viewer, fed from the hub. One write in
// flight; control messages go first, video behind them through the
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

#include <nlohmann/json.hpp>

#include "input/viewer_input.h"
#include "stream/hub.h"
#include "stream/send_queue.h"
#include "stream/wire_format.h"

namespace voxl::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using json = nlohmann::json;

namespace {

// Frames waiting for the socket, and frames sent but not yet acknowledged
// as decoded. Together they bound how far a viewer can fall behind (a slow
// link, or a slow decoder on a busy machine) before its pending deltas are
// dropped for a fresh key frame: at 60 fps about 200 ms.
constexpr size_t kMaxQueuedFrames = 6;
constexpr size_t kMaxInFlight = 6;
// A frame not acknowledged after this long was lost with a decoder reset.
constexpr auto kAckGiveUp = std::chrono::seconds(1);
// Frames a viewer may have in flight before it counts as congested: enough
// to cover the round trip and decoding at 60 fps (the smallest recent
// send -> decoded delay), at least two.
constexpr double kFrameMs = 1000.0 / 60.0;
constexpr size_t kMaxQueuedBytes = 16 * 1024 * 1024;
constexpr size_t kMaxQueuedText = 256;  // a viewer this far behind on control is gone
// Room for a pasted image (input::kMaxClipboardBytes, base64) in one message.
constexpr size_t kMaxIncoming = 12 * 1024 * 1024;
constexpr auto kStatsEvery = std::chrono::seconds(1);

uint64_t wall_us() {
  return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

template <class Stream>
class ViewerSession final : public stream::VideoSink,
                            public input::ViewerLink,
                            public std::enable_shared_from_this<ViewerSession<Stream>> {
 public:
  ViewerSession(Stream&& s, Role role, SessionContext& ctx)
      : ws_(std::move(s)), role_(role), ctx_(ctx), queue_(kMaxQueuedFrames, kMaxQueuedBytes),
        stats_timer_(ws_.get_executor()) {}

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
    if (!acks_seen_) return !sending_;  // TCP alone paces it
    return in_flight_.size() < window();
  }

  void on_video(const encode::EncodedFramePtr& frame) override {
    if (closed_) return;
    if (queue_.push(frame) == stream::SendQueue::Push::kNeedKeyframe) {
      ctx_.log->debug("viewer {} fell behind; dropped its pending frames", id_);
      ctx_.hub.request_keyframe();
    }
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
    send_text(json{{"type", "hello"}, {"version", stream::kProtocolVersion}, {"server", "voxl 0.1.0"},
                   {"view_only", role_ == Role::kViewOnly}}
                  .dump());
    joined_ = true;
    ctx_.hub.add(this);
    if (ctx_.interaction) input_ = ctx_.interaction->join(*this, role_ == Role::kViewOnly, id_);
    read();
  }

  void leave() {
    if (joined_) ctx_.hub.remove(this);
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
      self->in_.consume(self->in_.size());
      self->read();
    });
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
      if (m.contains("id") && m["id"].is_number_unsigned()) on_ack(m["id"].get<uint32_t>());
    } else if (type == "keyframe") {
      ctx_.log->debug("viewer {} asked for a key frame: {}", id_, m.value("reason", std::string("?")));
      in_flight_.clear();  // a reset decoder will not acknowledge what it had
      ctx_.hub.request_keyframe();
      ctx_.hub.refresh_pause();
    } else if (type == "ping") {
      send_text(json{{"type", "pong"}, {"t", m.value("t", 0.0)}, {"server_us", wall_us()}}.dump());
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

  // Clients that acknowledge frames are held to kMaxInFlight unacknowledged
  // ones; clients that never do are paced by TCP alone.
  void on_ack(uint32_t id) {
    acks_seen_ = true;
    const auto now = std::chrono::steady_clock::now();
    // Ids wrap at 2^32: compare by signed distance.
    while (!in_flight_.empty() && int32_t(in_flight_.front().id - id) <= 0) {
      if (in_flight_.front().id == id) {
        ack_delay_ms_ = std::chrono::duration<double, std::milli>(now - in_flight_.front().sent).count();
        recent_delays_.push_back(ack_delay_ms_);
        if (recent_delays_.size() > kDelaySamples) recent_delays_.pop_front();
      }
      in_flight_.pop_front();
    }
    pump();
    ctx_.hub.refresh_pause();
  }

  size_t window() const {
    if (recent_delays_.empty()) return kMaxInFlight;
    const double best = *std::min_element(recent_delays_.begin(), recent_delays_.end());
    return std::clamp<size_t>(size_t(std::ceil(best / kFrameMs)) + 1, 2, kMaxInFlight);
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
                     {"in_flight", self->in_flight_.size()},
                     {"ack_delay_ms", self->ack_delay_ms_},
                     {"queue_ms", self->queue_ms_},
                     {"send_ms", self->send_ms_},
                     {"decode_ms", self->last_decode_ms_}};
      self->send_text(s.dump());
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
    if (queue_.empty()) return;
    const auto now = std::chrono::steady_clock::now();
    while (!in_flight_.empty() && now - in_flight_.front().sent > kAckGiveUp) in_flight_.pop_front();
    if (acks_seen_ && in_flight_.size() >= kMaxInFlight) return;  // the next ack resumes
    const auto& next = *queue_.peek();
    if (next.key && (next.codec != sent_codec_ || next.size != sent_size_)) {
      sent_codec_ = next.codec;
      sent_size_ = next.size;
      send_text(json{{"type", "video"}, {"codec", next.codec}, {"width", next.size.width},
                     {"height", next.size.height}}
                    .dump());
      return;
    }
    sending_ = queue_.pop();
    in_flight_.push_back({sending_->id, std::chrono::steady_clock::now()});
    if (in_flight_.size() > kMaxInFlight) in_flight_.pop_front();  // a client that never acks
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

  websocket::stream<Stream> ws_;
  Role role_;
  SessionContext& ctx_;
  stream::SendQueue queue_;
  std::deque<std::string> text_;
  encode::EncodedFramePtr sending_;
  std::array<uint8_t, stream::kVideoHeaderBytes> header_{};
  beast::flat_buffer in_;
  asio::steady_timer stats_timer_;
  std::string sent_codec_;
  Size sent_size_;
  uint64_t id_ = 0;
  struct Sent {
    uint32_t id;
    std::chrono::steady_clock::time_point sent;
  };
  std::deque<Sent> in_flight_;  // at most kMaxInFlight once acks flow
  bool acks_seen_ = false;
  static constexpr size_t kDelaySamples = 32;
  std::deque<double> recent_delays_;  // send -> decoded, the last kDelaySamples
  double ack_delay_ms_ = 0;  // send -> decoded ack of the last acknowledged frame
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
