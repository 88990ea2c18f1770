#include "stream/viewer/viewer_connection.h"

#include <algorithm>
#include <exception>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "audio/audio_format.h"
#include "audio/microphone.h"
#include "base/clock.h"
#include "base/json_depth.h"
#include "base/json_text.h"
#include "input/viewer_input.h"
#include "stream/viewer/resize_controller.h"

namespace voxl::stream {

namespace {

using json = nlohmann::json;

// Frames waiting for the transport: a viewer whose link window stays full
// this long (another viewer kept the encoder going) drops its pending
// deltas for a fresh key frame. Frames in flight are bounded by the
// viewer's LinkEstimator (about one round trip's worth).
constexpr size_t kMaxQueuedFrames = 6;
constexpr size_t kMaxQueuedBytes = 16 * 1024 * 1024;
// 200 ms of 10 ms packets: waiting behind a large key frame on a slow link
// fits; past that the oldest sound is dropped rather than played late.
constexpr size_t kMaxQueuedAudio = 20;
// Long enough for a first key frame to cross a slow link and be decoded.
constexpr auto kNoAckGrace = std::chrono::seconds(3);
constexpr size_t kMaxSentSamples = 512;

}  // namespace

size_t ClientLimits::max_text_bytes(std::string_view type, bool view_only) {
  if (!view_only && type == "clipboard") return kMaxClipboardMessageBytes;
  return kMaxControlMessageBytes;
}

size_t ClientLimits::read_limit(bool view_only) {
  return view_only ? kMaxControlMessageBytes : kMaxClipboardMessageBytes;
}

ViewerConnection::ViewerConnection(ViewerTransport& transport, const ViewerServices& services, ViewerGrant grant,
                                   ViewerClocks clocks)
    : transport_(transport),
      services_(services),
      grant_(std::move(grant)),
      view_only_(grant_.view_only()),
      clocks_(std::move(clocks)),
      queue_(kMaxQueuedFrames, kMaxQueuedBytes),
      text_(ClientLimits::kMaxQueuedText, ClientLimits::kMaxQueuedTextBytes),
      audio_queue_(kMaxQueuedAudio),
      rate_(services.bitrate),
      key_bucket_(ClientLimits::kKeyframeBurst, ClientLimits::kKeyframeRefill),
      ignored_log_(kIgnoredLogBurst, kIgnoredLogRefill) {}

ViewerConnection::~ViewerConnection() { leave(); }

ViewerConnection::Time ViewerConnection::now() const {
  return clocks_.steady ? clocks_.steady() : std::chrono::steady_clock::now();
}

uint64_t ViewerConnection::wall_us() const {
  return clocks_.wall_us ? clocks_.wall_us() : wall_clock_us();
}

// A view-only viewer watches and listens; it does not speak.
bool ViewerConnection::takes_microphone() const { return services_.microphone && !view_only_; }

void ViewerConnection::start(uint64_t id) {
  id_ = id;
  services_.log->info("viewer {} connected{}{}", id_, grant_.user.empty() ? "" : " as " + grant_.user,
                      view_only_ ? " (view only)" : "");
  send_control(json_text(json{{"type", "hello"},
                              {"version", kProtocolVersion},
                              {"server", "voxl 0.1.0"},
                              {"view_only", view_only_},
                              {"microphone", takes_microphone()},
                              {"id", id_},
                              {"files", services_.files && !view_only_ && grant_.files},
                              {"stripes", services_.stripes}}));
  if (closed_) return;
  joined_ = true;
  // Said once it joined, so every "connect" has its "leave".
  if (services_.audit)
    services_.audit("connect", json{{"viewer", id_}, {"user", grant_.user}, {"address", grant_.address},
                                    {"role", view_only_ ? "view-only" : "full"}});
  if (services_.metrics) services_.metrics->add(id_, [this] { return figures(); });
  services_.hub->add(this);
  if (services_.audio_hub) services_.audio_hub->add(this);
  if (services_.interaction) input_ = services_.interaction->join(*this, grant_.input, id_, grant_.user);
  send_settings();
  if (services_.resize)
    services_.resize->join(id_, view_only_, [this](std::string text) { send_control(std::move(text)); });
}

void ViewerConnection::leave() {
  if (joined_ && services_.audit) services_.audit("leave", json{{"viewer", id_}, {"user", grant_.user}});
  if (joined_ && services_.metrics) services_.metrics->remove(id_);
  if (joined_) services_.hub->remove(this);
  if (joined_ && services_.audio_hub) services_.audio_hub->remove(this);
  if (joined_ && services_.microphone) services_.microphone->forget(this);
  if (joined_ && services_.resize) services_.resize->leave(id_);
  joined_ = false;
  // Releases the keys and buttons this viewer holds; the object stays (this
  // may run inside one of its own calls, when the viewer overflowed).
  if (input_) input_->detach();
}

ViewerFigures ViewerConnection::figures() const {
  ViewerFigures f;
  f.view_only = view_only_;
  f.user = grant_.user;
  f.frames_sent = frames_sent_;
  f.bytes_sent = bytes_sent_total_;
  f.key_frames_sent = key_frames_sent_;
  f.frames_dropped = queue_.dropped();
  f.srtt_ms = link_.srtt_ms();
  f.min_rtt_ms = link_.min_rtt_ms();
  f.delivery_kbps = link_.delivery_kbps();
  f.target_kbps = target_kbps();
  return f;
}

void ViewerConnection::close_with(CloseCode code, std::string_view reason) {
  if (closed_) return;
  closed_ = true;
  stats_on_ = false;
  transport_.set_ticking(false);
  leave();
  transport_.close(code, reason);
}

void ViewerConnection::on_transport_closed() {
  if (!closed_) services_.log->info("viewer {} left", id_);
  closed_ = true;
  stats_on_ = false;
  leave();
}

void ViewerConnection::fault(std::string_view where, std::string_view what) {
  services_.log->error("viewer {}: {} failed: {}; closing it", id_, where, what);
  close_with(CloseCode::kInternal, "internal error");
}

void ViewerConnection::shut_down() {
  if (!closed_) services_.log->info("viewer {} closed: the server is stopping", id_);
  close_with(CloseCode::kGoingAway, "server stopping");
}

void ViewerConnection::guarded(const char* where, const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    fault(where, e.what());
  } catch (...) {
    fault(where, "unknown exception");
  }
}

bool ViewerConnection::ready() const {
  if (closed_ || !queue_.empty()) return false;
  const Time t = now();
  if (!paced_by_link(t)) return in_flight_ != InFlight::kVideo;  // TCP alone paces it
  if (link_.can_send(services_.max_fps, t, stripes_)) return true;
  held_back_ = true;  // the link, not the content, limits the next frame
  return false;
}

// A view-only viewer has no say in the shared encoder's bitrate: a slow
// one skips frames and resyncs on key frames instead. A full viewer's own
// cap is a limit of its link.
int ViewerConnection::target_kbps() const {
  if (view_only_ || closed_) return 0;
  return capped_target_kbps(acks_seen_ ? rate_.target_kbps() : 0, settings_.max_kbps);
}

// What the link carries, to choose this viewer's rung of the ladder, a
// view-only viewer's too (it has no say in a rung's bitrate, but a slow one
// is better off on a slower rung): unknown (0) before its first acks; the
// server's ceiling while the link has never pushed back (a LAN viewer whose
// estimate has not grown yet is not slow: it was never shown the rate); its
// estimate after that. Under its own cap.
int ViewerConnection::link_kbps() const {
  if (closed_) return 0;
  if (!acks_seen_) return capped_target_kbps(0, settings_.max_kbps);
  const int known = rate_.pushed_back() ? rate_.target_kbps() : services_.bitrate.max_kbps;
  return capped_target_kbps(known, settings_.max_kbps);
}

void ViewerConnection::on_video(const encode::EncodedFramePtr& frame) {
  if (closed_) return;
  const Time t = now();
  if (key_owed_) {
    if (frame->key) key_owed_ = false;
    else if (key_bucket_.available(t)) ask_keyframe(t);
  }
  stripes_ = std::max(1, frame->stripes);
  if (queue_.push(frame) == SendQueue::Push::kNeedKeyframe) {
    services_.log->debug("viewer {} fell behind; dropped its pending frames", id_);
    ask_keyframe(t);
  }
  pump();
}

void ViewerConnection::on_audio(const audio::AudioPacketPtr& packet) {
  if (closed_) return;
  if (!audio_announced_) {
    audio_announced_ = true;
    send_control(json_text(json{{"type", "audio"},
                                {"codec", "opus"},
                                {"rate", audio::kSampleRate},
                                {"channels", audio::kDesktopChannels}}));
  }
  audio_queue_.push(packet);
  pump();
}

void ViewerConnection::send_control(std::string text) { send_text(std::move(text), TextKind::kOther); }

void ViewerConnection::send_latest(std::string text, input::ControlKind kind) {
  switch (kind) {
    case input::ControlKind::kCursor:
      return send_text(std::move(text), TextKind::kCursor);
    case input::ControlKind::kClipboard:
      return send_text(std::move(text), TextKind::kClipboard);
    case input::ControlKind::kViewers:
      return send_text(std::move(text), TextKind::kViewers);
  }
}

void ViewerConnection::send_text(std::string text, TextKind kind) {
  if (closed_) return;
  switch (text_.push(std::move(text), kind)) {
    case TextQueue::Push::kOverflow:
      services_.log->info("viewer {} is not reading; closing", id_);
      close_with(CloseCode::kPolicy, "not reading");
      return;
    case TextQueue::Push::kReplaced:
      // The shape it replaced was never sent: send shapes in full again.
      if (kind == TextKind::kCursor && input_) input_->forget_cursors_sent();
      break;
    case TextQueue::Push::kQueued:
      break;
  }
  pump();
}

void ViewerConnection::on_written() {
  const InFlight was = in_flight_;
  in_flight_ = InFlight::kNone;
  switch (was) {
    case InFlight::kText:
      text_.pop();
      break;
    case InFlight::kVideo:
      send_ms_ = std::chrono::duration<double, std::milli>(now() - write_start_).count();
      if (services_.metrics) services_.metrics->observe_send(send_ms_ / 1000);
      sending_.reset();
      break;
    case InFlight::kAudio:
      sending_audio_.reset();
      break;
    case InFlight::kNone:
      break;
  }
  if (closed_) return;
  pump();
  if (was == InFlight::kVideo) services_.hub->refresh_pause();
}

// Starts the next write if none is in flight.
void ViewerConnection::pump() {
  if (in_flight_ != InFlight::kNone || closed_) return;
  if (!text_.empty()) {
    in_flight_ = InFlight::kText;
    transport_.write_text(text_.start_front());
    return;
  }
  if (!audio_queue_.empty()) return send_audio();
  if (queue_.empty()) return;
  const Time t = now();
  link_.expire(t);
  if (paced_by_link(t) && !link_.can_send(services_.max_fps, t, stripes_)) {  // the next ack resumes
    held_back_ = true;
    return;
  }
  const auto& next = *queue_.peek();
  if (next.key && announced_.size() != size_t(next.stripes)) announced_.assign(size_t(next.stripes), {});
  auto& said = announced_[size_t(next.stripe) % announced_.size()];
  if (next.key && (next.codec != said.codec || next.size != said.size || next.band != said.band)) {
    said = {next.codec, next.size, next.band};
    json video{{"type", "video"}, {"codec", next.codec}, {"width", next.size.width}, {"height", next.size.height}};
    if (next.stripes > 1) {
      video["stripe"] = next.stripe;
      video["stripes"] = next.stripes;
      video["band_y"] = next.band.y;
      video["band_height"] = next.band.height;
    }
    send_control(json_text(video));
    return;
  }
  send_video(t);
}

void ViewerConnection::send_video(Time t) {
  sending_ = queue_.pop();
  if (!first_frame_at_) first_frame_at_ = t;
  const size_t bytes = (sending_->stripes > 1 ? kVideoHeaderWithStripeBytes : kVideoHeaderWithStampsBytes) +
                       sending_->data.size();
  if (held_back_) ++held_back_count_;
  link_.on_send(sending_->id, bytes, !held_back_, t);
  held_back_ = false;
  sent_.emplace_back(t, bytes);
  sent_bytes_ += bytes;
  ++frames_sent_;
  bytes_sent_total_ += bytes;
  if (sending_->key) ++key_frames_sent_;
  if (sent_.size() > kMaxSentSamples) {
    sent_bytes_ -= sent_.front().second;
    sent_.pop_front();
  }
  VideoHeader h;
  h.key = sending_->key;
  h.frame_id = sending_->id;
  h.capture_us = sending_->capture_wall_us;
  h.width = uint16_t(sending_->size.width);
  h.height = uint16_t(sending_->size.height);
  h.server_us = uint32_t(std::max<int64_t>(
      0, std::chrono::duration_cast<std::chrono::microseconds>(t - sending_->captured_at).count()));
  const auto from_capture = [this](Time at) {
    if (at == Time{}) return int32_t(0);  // not stamped (a frame made elsewhere, e.g. in tests)
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(at - sending_->captured_at).count();
    return int32_t(std::clamp<int64_t>(us, INT32_MIN, INT32_MAX));
  };
  const encode::StageStamps& st = sending_->stamps;
  VideoStamps stamps;
  stamps.ready_us = from_capture(st.ready);
  stamps.grab_us = from_capture(st.grab_start);
  stamps.converted_us = from_capture(st.converted);
  stamps.encoded_us = from_capture(st.encoded);
  stamps.published_us = from_capture(st.published);
  std::span<const uint8_t> header;
  if (sending_->stripes > 1) {
    VideoStripe stripe;
    stripe.stripe = uint8_t(sending_->stripe);
    stripe.stripes = uint8_t(sending_->stripes);
    stripe.band_y = uint16_t(sending_->band.y);
    stripe.band_height = uint16_t(sending_->band.height);
    stripe.last = sending_->last_part;
    write_video_header(h, stamps, stripe, header_);
    header = header_;
  } else {
    write_video_header(h, stamps, std::span<uint8_t, kVideoHeaderWithStampsBytes>(header_.data(), kVideoHeaderWithStampsBytes));
    header = std::span<const uint8_t>(header_.data(), kVideoHeaderWithStampsBytes);
  }
  queue_ms_ = double(h.server_us) / 1000.0;
  write_start_ = t;
  in_flight_ = InFlight::kVideo;
  transport_.write_binary(header, std::span<const uint8_t>(sending_->data.data(), sending_->data.size()));
}

void ViewerConnection::send_audio() {
  sending_audio_ = audio_queue_.pop();
  AudioHeader h;
  h.kind = kKindAudio;
  h.sequence = sending_audio_->sequence;
  h.capture_us = sending_audio_->capture_wall_us;
  write_audio_header(h, audio_header_);
  in_flight_ = InFlight::kAudio;
  transport_.write_binary(audio_header_,
                          std::span<const uint8_t>(sending_audio_->data.data(), sending_audio_->data.size()));
}

// Before its first ack a viewer gets the link window's start-up size (a
// few frames), not TCP's: loopback and LAN socket buffers hold seconds of
// a slow link. One that has acked nothing kNoAckGrace after its first
// frame is a client that does not ack; TCP alone paces it.
bool ViewerConnection::paced_by_link(Time t) const {
  return acks_seen_ || !first_frame_at_ || t - *first_frame_at_ < kNoAckGrace;
}

// What this viewer was sent over the last second, in kbit/s.
double ViewerConnection::sent_kbps(Time t) {
  while (!sent_.empty() && t - sent_.front().first > std::chrono::seconds(1)) {
    sent_bytes_ -= sent_.front().second;
    sent_.pop_front();
  }
  return double(sent_bytes_) * 8.0 / 1000.0;
}

void ViewerConnection::tick() {
  if (closed_ || !stats_on_) return;
  send_control(stats_text());
}

std::string ViewerConnection::stats_text() {
  json s = services_.stream_figures ? to_json(services_.stream_figures()) : json::object();
  s["type"] = "stats";
  s["viewer"] = {{"queued_frames", queue_.size()},
                 {"queued_bytes", queue_.bytes()},
                 {"dropped_frames", queue_.dropped()},
                 {"acked_frames", acked_},
                 {"in_flight", link_.frames_in_flight()},
                 {"in_flight_bytes", link_.bytes_in_flight()},
                 {"rtt_ms", link_.srtt_ms()},
                 {"min_rtt_ms", link_.min_rtt_ms()},
                 {"delivery_kbps", link_.delivery_kbps()},
                 {"target_kbps", rate_.target_kbps()},
                 {"encoder_kbps", services_.hub->target_kbps(services_.hub->rung_of(this))},
                 {"rung", services_.hub->rung_of(this)},
                 {"moving_to", services_.hub->moving_to(this)},
                 {"held_back", held_back_count_},
                 {"queue_ms", queue_ms_},
                 {"send_ms", send_ms_},
                 {"decode_ms", last_decode_ms_},
                 {"queued_audio", audio_queue_.size()},
                 {"dropped_audio", audio_queue_.dropped()},
                 {"queued_text_bytes", text_.bytes()},
                 {"ignored_messages", ignored_},
                 {"keyframes_put_off", keyframes_put_off_}};
  return json_text(s);
}

}  // namespace voxl::stream
