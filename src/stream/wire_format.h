// The voxl wire format, version 1: one WebSocket per viewer. Keep
// web/src/protocol.ts in step; tests/unit/wire_format_test.cpp pins both.
//
// Binary messages, server -> client: a fixed little-endian header, then the
// payload.
//   offset size field
//        0    1 kind          1 = video (payload: one H.264 Annex B access unit)
//        1    1 flags         bit 0: key frame (IDR, SPS and PPS included)
//        2    2 header_bytes  24 in version 1; readers skip what they do not know
//        4    4 frame_id      counts encoded frames from 1 (wraps at 2^32)
//        8    8 capture_us    server wall clock (CLOCK_REALTIME) at capture, in µs
//       16    2 width         coded picture size in pixels
//       18    2 height
//       20    4 server_us     capture -> handed to the socket, in µs
//
// Audio, binary kind 2 server -> client (desktop sound) and kind 3
// client -> server (the viewer's microphone): a 16-byte little-endian
// header, then one Opus packet (48 kHz; 10 or 20 ms).
//   offset size field
//        0    1 kind          2 = desktop audio, 3 = microphone
//        1    1 flags         none yet (0); readers ignore unknown bits
//        2    2 header_bytes  16 in version 1; readers skip what they do not know
//        4    4 sequence      counts packets from 1 (wraps at 2^32); a gap is a loss
//        8    8 capture_us    sender's wall clock (CLOCK_REALTIME) at the packet's
//                             first sample, in µs
//
// Text messages: JSON objects with a "type".
//  server -> client
//   {"type":"hello","version":1,"server":"voxl 0.1.0","microphone":true|false}
//        "microphone": the server takes kind-3 packets from this viewer
//   {"type":"video","codec":"avc1.42E028","width":1920,"height":1080}
//        before the first frame and whenever the stream's size or codec
//        changes, always just before a key frame: reconfigure the decoder
//        then. A viewer that sent {"type":"decoder","avc444":true} may get
//        "avc1.F400LL" (High 4:4:4 Predictive, full-resolution chroma) for
//        a still screen and "avc1.42C0LL"/"avc1.42E0LL" again when motion
//        resumes; BT.601 limited range either way, said in the VUI
//   {"type":"pong","t":<client ms echoed>,"server_us":<wall clock µs>}
//   {"type":"stats", ...}   server-side figures, once a second while asked for
//   {"type":"audio","codec":"opus","rate":48000,"channels":2}
//        before the first desktop-audio packet of a connection
//   {"type":"interaction","input":true,"clipboard":"both"|"in"|"out"|"off",
//    "view_only":false,"scroll_px_per_notch":180}
//        after hello: what this viewer may do besides watching
//   {"type":"cursor","serial":N,"width":W,"height":H,"hot_x":X,"hot_y":Y,"rgba":"<base64>"}
//   {"type":"cursor","serial":N,"hidden":true}   {"type":"cursor","serial":N}
//        a new pointer shape (straight RGBA, row-major), a hidden pointer, or
//        a shape this viewer was sent before; the page draws it, the video never does
//   {"type":"clipboard","mime":"text/plain","text":"..."}
//   {"type":"clipboard","mime":"image/png","data":"<base64>"}
//        the desktop copied this (only to full viewers, when the clipboard flows out)
//   {"type":"clipboard_error","message":"..."}   e.g. over the size limit
//   {"type":"refused","what":"input"|"clipboard","reason":"..."}
//        the viewer's messages of that kind are dropped (view-only); sent once
//  client -> server
//   {"type":"ack","id":<frame_id>,"decode_ms":<decode time>,"hold_ms":<received -> acked>,
//    "queued":<frames waiting to decode>}   the server's RTT sample leaves hold_ms out
//   {"type":"keyframe","reason":"decoder error"}
//   {"type":"ping","t":<performance.now() ms>}
//   {"type":"stats","enabled":true|false}
//   {"type":"decoder","avc444":true|false}
//        what the viewer's decoder takes besides Constrained Baseline 4:2:0
//        (a page asks VideoDecoder.isConfigSupported for "avc1.F4002A");
//        send it once after hello. Until then, and for a viewer that never
//        sends it, false. The stream codes a still screen in 4:4:4 only
//        while every viewer said true and no recording runs; a change of
//        it costs at most one mode switch (two key frames) per 2 s
//        (stream::ChromaPolicy)
//   {"type":"key","code":"KeyA","key":"a","down":true,"mods":M}
//        KeyboardEvent.code and .key; M is a bit set of what the page says is
//        held or locked: 1 Shift, 2 Control, 4 Alt, 8 Meta, 16 Caps Lock,
//        32 Num Lock, 64 AltGraph (input::kMod*, pinned by the test)
//   {"type":"text","text":"..."}          input method text, typed as characters
//   {"type":"move","x":X,"y":Y}           stream pixels (the picture's own)
//   {"type":"button","button":B,"down":true,"x":X,"y":Y,"mods":M}
//        B in X11 numbering: 1 left, 2 middle, 3 right, 8 back, 9 forward
//   {"type":"scroll","dx":DX,"dy":DY,"unit":"px"|"notch","x":X,"y":Y}
//        right/down positive; "px" in stream pixels (--scroll-px-per-notch
//        make a notch, fractions carry over), "notch" may be fractional
//   {"type":"release"}                    let go of every key and button held
//   {"type":"clipboard",...}              as above, viewer -> desktop
//
// Limits on what a client sends (stream::ClientLimits; a message past one is
// ignored, the connection stays):
//   text message: 12 MiB for "clipboard" from a full viewer (an 8 MiB image
//     in base64), 16 KiB for every other type and for everything from a
//     view-only viewer (whose WebSocket reads at most 16 KiB a message: a
//     larger one closes it with 1009)
//   JSON nesting depth: 16 (checked before parsing)
//   fields: of the type shown above, finite, within sane ranges (ids 32-bit
//     unsigned, coordinates and scroll deltas within +-1e6, strings bounded:
//     "type" 32 bytes, key names 64, "text" 4 KiB, "reason" 256; "avc444"
//     a JSON boolean, unknown fields skipped); a message
//     with an unusable field is ignored as a whole
//   binary message (microphone): 4 KiB
//   "keyframe": per viewer, a burst of 3 then one per 2 s; a request beyond
//     that is made once a token is back. The server asks the encoder for IDRs
//     at most every 300 ms; requests in between are served together at the
//     end of that interval.
// What waits to be sent to a client: text up to 2 MiB / 256 messages (not
// counting the one pending clipboard message); only the latest cursor and
// the latest clipboard message wait (a newer one replaces an older one not
// yet being written). A client past that is closed with 1008. A view-only
// viewer's link estimate does not lower the shared encoder bitrate.
//
// Pure data; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace voxl::stream {

inline constexpr int kProtocolVersion = 1;

inline constexpr uint8_t kKindVideo = 1;
inline constexpr uint8_t kFlagKeyFrame = 1;
inline constexpr size_t kVideoHeaderBytes = 24;

struct VideoHeader {
  bool key = false;
  uint32_t frame_id = 0;
  uint64_t capture_us = 0;
  uint16_t width = 0;
  uint16_t height = 0;
  uint32_t server_us = 0;
};

// Writes the header into the first kVideoHeaderBytes of `out`.
void write_video_header(const VideoHeader& h, std::span<uint8_t, kVideoHeaderBytes> out);

// Parses a binary message's header; nullopt when it is not a version-1-or-
// later video message (too short, other kind, header_bytes < 24 or past the end).
// `payload_offset` is set to where the access unit starts.
std::optional<VideoHeader> read_video_header(std::span<const uint8_t> message,
                                             size_t& payload_offset);

inline constexpr uint8_t kKindAudio = 2;
inline constexpr uint8_t kKindMicrophone = 3;
inline constexpr size_t kAudioHeaderBytes = 16;

struct AudioHeader {
  uint8_t kind = kKindAudio;  // kKindAudio or kKindMicrophone
  uint32_t sequence = 0;
  uint64_t capture_us = 0;
};

void write_audio_header(const AudioHeader& h, std::span<uint8_t, kAudioHeaderBytes> out);

// Parses the header of an audio message of `kind`; nullopt when the message
// is shorter than the header, of another kind, or header_bytes is below 16
// or past the end. `payload_offset` is set to where the Opus packet starts.
std::optional<AudioHeader> read_audio_header(std::span<const uint8_t> message, uint8_t kind,
                                             size_t& payload_offset);

}  // namespace voxl::stream
