// What a viewer sends: its text and binary messages, checked and
// dispatched (acks, key frame requests, pings, stats, settings, decoder
// capabilities, resize requests, and input handed to the viewer's input).
// ViewerConnection's other half (viewer_connection.cpp) sends.
//
// Threads: the loop thread, as the rest of ViewerConnection.
#include "stream/viewer/viewer_connection.h"

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "audio/microphone.h"
#include "base/json_depth.h"
#include "base/json_text.h"
#include "input/viewer_input.h"
#include "stream/viewer/resize_controller.h"

namespace voxl::stream {

namespace {

using json = nlohmann::json;

// Client times and durations (ms) beyond these are nonsense.
constexpr double kMaxClientMs = 1e7;
constexpr double kMaxClientClockMs = 1e15;
constexpr size_t kMaxReasonBytes = 256;
// A desktop size a page may ask for, each way (the controller clamps it).
constexpr int64_t kMaxAskedPixels = 16384;

// The messages that count as using input, for the resize policy: deliberate
// ones. A pointer merely passing over a page does not take the desktop's
// size from the viewer working in another.
bool is_input_use(std::string_view type) {
  return type == "key" || type == "text" || type == "button" || type == "scroll";
}

}  // namespace

void ViewerConnection::receive_text(std::string_view text) {
  guarded("a text message", [&] { dispatch_text(text); });
}

void ViewerConnection::receive_binary(std::span<const uint8_t> message) {
  guarded("a binary message", [&] { dispatch_binary(message); });
}

void ViewerConnection::ignore(std::string_view what, std::string_view type, const char* field) {
  ++ignored_;
  const Time t = now();
  if (!ignored_log_.take(t)) return;
  if (field)
    services_.log->debug("viewer {} sent {} ({} message, field \"{}\"); ignored", id_, what, type, field);
  else if (!type.empty())
    services_.log->debug("viewer {} sent {} ({} message); ignored", id_, what, type);
  else
    services_.log->debug("viewer {} sent {}; ignored", id_, what);
  if (!ignored_log_.available(t))
    services_.log->debug("viewer {}: further ignored messages are logged at most every {} s", id_,
                         kIgnoredLogRefill.count());
}

void ViewerConnection::dispatch_text(std::string_view text) {
  if (closed_) return;
  if (text.size() > ClientLimits::read_limit(view_only_)) return ignore("an oversized message");
  if (!json_depth_within(text, ClientLimits::kMaxJsonDepth)) return ignore("a message nested too deep");
  const json m = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!m.is_object()) return ignore("a malformed message");
  JsonFields f(m);
  const auto type_field = f.string("type", ClientLimits::kMaxTypeBytes);
  if (!type_field) return ignore("a message without a usable type");
  const std::string_view type = *type_field;
  if (text.size() > ClientLimits::max_text_bytes(type, view_only_)) return ignore("an oversized message", type);
  if (type == "ack") {
    on_ack(f);
  } else if (type == "keyframe") {
    on_keyframe_request(f);
  } else if (type == "ping") {
    on_ping(f);
  } else if (type == "stats") {
    on_stats(f);
  } else if (type == "decoder") {
    on_decoder(f);
  } else if (type == "resize") {
    on_resize(f);
  } else if (type == "settings") {
    on_settings(f);
  } else if (input_ && input_->handle(type, m)) {
    if (const char* bad = input_->bad_field()) ignore("a bad field", type, bad);
    else if (input_->over_limit()) ignore("too many control actions", type);
    else if (services_.resize && input_->used_input() && is_input_use(type)) services_.resize->on_input(id_);
  } else {
    ignore("a message of a type voxl does not take", type);
  }
}

void ViewerConnection::dispatch_binary(std::span<const uint8_t> message) {
  if (closed_) return;
  if (message.size() > ClientLimits::kMaxBinaryMessageBytes) return ignore("an oversized binary message");
  size_t offset = 0;
  const auto h = read_audio_header(message, kKindMicrophone, offset);
  if (!h) return ignore("a binary message voxl does not take");
  if (takes_microphone()) services_.microphone->on_packet(this, h->sequence, message.subspan(offset));
}

void ViewerConnection::on_ack(JsonFields& f) {
  const auto id = f.integer("id", 0, UINT32_MAX);
  const auto decode_ms = f.number("decode_ms", -kMaxClientMs, kMaxClientMs);
  const auto hold_ms = f.number("hold_ms", -kMaxClientMs, kMaxClientMs);
  if (!f.ok()) return ignore("a bad field", "ack", f.bad_field());
  ++acked_;
  // A browser's clock may step a little backwards: below zero is zero.
  if (decode_ms) last_decode_ms_ = std::max(0.0, *decode_ms);
  // Receive -> ack at the client; older clients only say decode time.
  if (id) acked(uint32_t(*id), hold_ms ? std::max(0.0, *hold_ms) : last_decode_ms_);
}

// Clients that acknowledge frames are held to what their link carries
// without a queue (LinkEstimator), and their estimate sets the encoder's
// bitrate through the hub; clients that never ack are paced by TCP alone.
void ViewerConnection::acked(uint32_t id, double hold_ms) {
  acks_seen_ = true;
  const Time t = now();
  link_.on_ack(id, hold_ms, t);
  rate_.on_feedback(link_, sent_kbps(t), t, [this] { return transport_.tcp_path(); });
  if (services_.on_link_sample)
    services_.on_link_sample({link_.recent_queue_delay_ms(), link_.min_rtt_ms(), link_.delivery_kbps(),
                              double(target_kbps())},
                             t);
  pump();
  services_.hub->refresh_pause();
  services_.hub->refresh_rate();
}

void ViewerConnection::on_keyframe_request(JsonFields& f) {
  const auto reason = f.string("reason", kMaxReasonBytes);
  if (!f.ok()) return ignore("a bad field", "keyframe", f.bad_field());
  services_.log->debug("viewer {} asked for a key frame: {}", id_, reason.value_or("?"));
  link_.forget_in_flight();  // a reset decoder will not acknowledge what it had
  // Nor decode any delta before the next key frame: sending them would only
  // fill its link window with frames it never acks.
  queue_.drop_until_key();
  ask_keyframe(now());
  services_.hub->refresh_pause();
}

// Through the viewer's bucket; a request it puts off is made with the
// first frame after a token comes back (unless that frame is a key frame).
void ViewerConnection::ask_keyframe(Time t) {
  if (key_bucket_.take(t)) {
    key_owed_ = false;
    services_.hub->request_keyframe(this);
    return;
  }
  if (!key_owed_) ++keyframes_put_off_;
  key_owed_ = true;
}

void ViewerConnection::on_ping(JsonFields& f) {
  const auto t = f.number("t", -kMaxClientClockMs, kMaxClientClockMs);
  if (!f.ok()) return ignore("a bad field", "ping", f.bad_field());
  send_control(json_text(json{{"type", "pong"}, {"t", t.value_or(0.0)}, {"server_us", wall_us()}}));
}

void ViewerConnection::on_stats(JsonFields& f) {
  const auto enabled = f.boolean("enabled");
  if (!f.ok()) return ignore("a bad field", "stats", f.bad_field());
  const bool on = enabled.value_or(false);
  if (on == stats_on_) return;
  stats_on_ = on;
  transport_.set_ticking(on);
}

// The viewer's own caps and name. A message with an unusable field changes
// nothing; either way the viewer is told what holds now. Its frame rate cap
// only counts towards the stream's ceiling (Hub::refresh_fps); nothing is
// thinned per viewer. A view-only viewer's bitrate cap is dropped: its link
// never lowers the shared encode (it skips frames instead).
void ViewerConnection::on_settings(JsonFields& f) {
  const char* bad = nullptr;
  ViewerSettings next = settings_;
  if (!read_settings(f, next, bad)) {
    ignore("a bad field", "settings", bad);
    send_settings();
    return;
  }
  if (view_only_) next.max_kbps = 0;
  // A full viewer's cap below --min-kbps: the encoder never goes lower, so
  // the cap that applies (and is answered) is the floor.
  else if (next.max_kbps > 0) next.max_kbps = std::max(next.max_kbps, services_.bitrate.min_kbps);
  const bool fps_changed = next.max_fps != settings_.max_fps;
  const bool kbps_changed = next.max_kbps != settings_.max_kbps;
  const bool motion_changed = next.motion != settings_.motion;
  settings_ = std::move(next);
  services_.log->debug("viewer {} settings: max_fps {}, max_kbps {}", id_, settings_.max_fps, settings_.max_kbps);
  if (joined_ && fps_changed) services_.hub->refresh_fps();
  if (joined_ && kbps_changed) services_.hub->refresh_rate();
  if (joined_ && motion_changed) services_.hub->refresh_motion();
  // Renames go through the viewer's action bucket: one over it keeps the
  // name (the answer says which).
  if (input_ && !input_->rename(settings_.name)) {
    settings_.name = input_->name();
    ignore("too many renames", "settings");
  }
  send_settings();
  pump();
}

void ViewerConnection::send_settings() {
  send_control(json_text(json{{"type", "settings"},
                              {"max_fps", settings_.max_fps},
                              {"max_kbps", settings_.max_kbps},
                              {"name", settings_.name},
                              {"motion", settings_.motion ? json(motion_name(*settings_.motion)) : json(nullptr)},
                              {"server_motion", motion_name(services_.motion)},
                              {"server_max_fps", services_.max_fps},
                              {"server_max_kbps", services_.bitrate.max_kbps},
                              {"server_min_kbps", services_.bitrate.min_kbps}}));
}

// This viewer got control (or lost it): while it holds control only its
// window decides the desktop's size, asked for or not.
void ViewerConnection::on_control(bool held) {
  if (services_.resize && !view_only_ && joined_) services_.resize->on_control(id_, held);
}

// What the viewer's decoder takes. Changing it costs nothing here; the
// encoder's ChromaPolicy bounds how often the stream switches (and so the
// key frames a viewer flipping it could cause).
void ViewerConnection::on_decoder(JsonFields& f) {
  const auto avc444 = f.boolean("avc444");
  if (!f.ok()) return ignore("a bad field", "decoder", f.bad_field());
  const bool full = avc444.value_or(false);
  if (full == full_chroma_) return;
  full_chroma_ = full;
  services_.log->debug("viewer {} {} High 4:4:4", id_, full ? "decodes" : "does not decode");
  if (joined_) services_.hub->refresh_chroma();
}

// The desktop size the viewer's window would show 1:1. Refused once to a
// view-only viewer, like its input; ignored when resizing is off.
void ViewerConnection::on_resize(JsonFields& f) {
  const auto width = f.integer("width", 1, kMaxAskedPixels);
  const auto height = f.integer("height", 1, kMaxAskedPixels);
  if (!f.ok()) return ignore("a bad field", "resize", f.bad_field());
  if (!width || !height) return ignore("a message without a size", "resize");
  if (!services_.resize || !services_.resize->enabled()) return ignore("a resize the server does not do", "resize");
  if (view_only_) {
    if (!refused_resize_) {
      refused_resize_ = true;
      send_control(json_text(json{{"type", "refused"}, {"what", "resize"}, {"reason", "view-only viewers cannot resize the desktop"}}));
    }
    return;
  }
  services_.resize->on_request(id_, Size{int(*width), int(*height)});
}

}  // namespace voxl::stream
