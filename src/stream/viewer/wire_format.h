// The voxl wire format, version 1: one WebSocket per viewer. Keep
// web/src/protocol/messages.ts in step; tests/unit/wire_format_test.cpp pins both.
//
// Binary messages, server -> client: a fixed little-endian header, then the
// payload.
//   offset size field
//        0    1 kind          1 = video (payload: one H.264 Annex B access unit)
//        1    1 flags         bit 0: key frame (IDR, SPS and PPS included)
//        2    2 header_bytes  24 in version 1; readers skip what they do not know
//        4    4 frame_id      counts encoded frames from 1 (wraps at 2^32)
//        8    8 capture_us    server wall clock (CLOCK_REALTIME) at capture, in µs
//       16    2 width         the picture's size in pixels: what the decoder
//       18    2 height          shows after the SPS's cropping (1920x1080), not
//                             the coded, macroblock-aligned size (1920x1088);
//                             the captured area with an odd last column or
//                             row left out
//       20    4 server_us     capture -> handed to the socket, in µs
//   Stage stamps (header_bytes 44; voxl always sends them): signed 32-bit
//   µs from capture_us, which is the end of the grab. A viewer can split its
//   latency by stage with them; it needs none of them to play the stream.
//       24    4 ready_us      the video thread was free to capture and began
//                             waiting for damage (<= 0; far below zero when the
//                             screen was still)
//       28    4 grab_us       reading the changed pixels began (<= 0)
//       32    4 converted_us  colour conversion done
//       36    4 encoded_us    the encoder returned this access unit
//       40    4 published_us  the frame reached the network thread (then it
//                             waits for the viewer's link window, server_us)
//   Stripe (header_bytes 52; only while the stream is striped, --stripes >
//   1: the picture is coded as `stripes` horizontal bands, each its own
//   H.264 stream with its own SPS, key frames and decoder). Without it the
//   message is stripe 0 of 1 and its band is the whole picture.
//       44    1 stripe        which stream this access unit belongs to, 0..stripes-1
//       45    1 stripes       how many streams the picture is coded as (2..16)
//       46    2 band_y        the band's first row in the picture
//       48    2 band_height   its height: what its decoder shows (the band
//                             is as wide as the picture; width/height above
//                             stay the whole picture's size)
//       50    1 stripe_flags  bit 0: the last band coded from this capture
//                             (once it decodes, the picture is whole again);
//                             readers ignore unknown bits
//       51    1 reserved      0
//   Every stream starts on a key frame and they start together: a key frame
//   request, a resize or a new viewer makes a key frame of every stripe,
//   sent one after the other. A delta comes only for a band that changed;
//   a viewer draws each band when its frame decodes.
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
//   {"type":"hello","version":1,"server":"voxl 0.1.0","view_only":true|false,"microphone":true|false,
//    "id":N,"files":false,"stripes":N}
//        "microphone": the server takes kind-3 packets from this viewer;
//        "id": this viewer's id (as in "viewers"); "files": whether the
//        server offers the Files panel; "stripes": --stripes (the most
//        the picture is cut into; a short picture gets fewer, said per frame)
//   {"type":"video","codec":"avc1.42E028","width":1920,"height":1080}
//   {"type":"video","codec":"avc1.42E01F","width":1920,"height":1080,
//    "stripe":1,"stripes":4,"band_y":272,"band_height":272}
//        before the first frame and whenever the stream's size or codec
//        changes, always just before a key frame: reconfigure the decoder
//        then. A striped stream says it per stripe, before that stripe's key
//        frame (the fields as in the video header's stripe part). A viewer that sent {"type":"decoder","avc444":true} may get
//        "avc1.F400LL" (High 4:4:4 Predictive, full-resolution chroma) for
//        a still screen and "avc1.42C0LL"/"avc1.42E0LL" again when motion
//        resumes; BT.601 limited range either way, said in the VUI;
//        width/height as in the video header (the picture's size, not the coded one)
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
//   {"type":"resize","enabled":true,"holder":true|false,"policy":"last-input",
//    "scale":1.5,"min_width":320,"min_height":240,"max_width":W,"max_height":H}
//   {"type":"resize","enabled":false,"reason":"..."}
//        only with --enable-resize: after "interaction" and whenever a field
//        changes for this viewer. "holder": this viewer's window decides the
//        desktop's size now (stream::ResizeController: the full viewer that
//        asked for a size and last pressed a key or button, typed or
//        scrolled; before anyone has, the first that asked). "scale":
//        desktop pixels per CSS pixel at most (the page asks for its stage
//        x min(devicePixelRatio, scale)). Disabled with a
//        reason: the desktop cannot follow; the page keeps scaling. The size
//        the desktop took comes in the next "video" message, as always
//   {"type":"refused","what":"input"|"clipboard"|"resize"|"control","reason":"..."}
//        the viewer's messages of that kind are dropped (view-only); sent
//        once. A full viewer without control is sent {"type":"refused",
//        "what":"input","reason":"another viewer has control"} once per
//        loss of control (and once before it first holds it)
//   {"type":"settings","max_fps":F,"max_kbps":K,"name":"...","motion":M|null,"server_motion":M,
//    "server_max_fps":N,"server_max_kbps":N,"server_min_kbps":N}
//        what the server applied for this viewer (its own caps, 0 = none,
//        name and motion choice, null = none: a full viewer's max_kbps
//        below --min-kbps is raised to it, a view-only viewer's is 0) and
//        the server's --motion, --framerate maximum, --max-kbps and
//        --min-kbps (a page offers no bitrate cap below server_min_kbps):
//        after "interaction" and after each "settings" message (also one
//        it ignored for a bad field: then nothing changed)
//   {"type":"viewers","you":ID,"holder":ID|0,"timeout_s":T,
//    "viewers":[{"id":N,"role":"full"|"view-only","name":"...","requesting":true|false},...],"more":M}
//        who is watching, in the order they came, and who holds the
//        keyboard and mouse (0: nobody); sent to every viewer when it joins
//        and whenever anyone joins, leaves, renames, or control moves or is
//        asked for. At most 32 entries (the recipient, the holder and the
//        requesters always among them); "more" counts the rest. Sent once
//        per server loop turn however many changes it made; a viewer's
//        renames and control actions go through its own bucket (a burst of
//        5, then one a second; the rest are ignored). "timeout_s":
//        --control-timeout (0: control never passes on for idling)
//   {"type":"stats", ...}: the stream's figures over the last second
//        "fps", "kbps", "key_frames", "frames_total" (pictures: a striped
//        picture's frames count once), "width", "height", "stripes" (the
//        streams the last picture was coded as), "encoder_threads",
//        "codec", "frame_rate" (the rate the pacer allows now: --framerate's
//        MAX unless the link made it trade frames for quality), "motion"
//        ("smooth": the full rate is held; "sharp": it may be traded), "rate_factor"
//        (x264's median effective rate factor: the CRF while the bitrate cap
//        does not bind, higher as it coarsens the quantiser),
//        "stage_ms": {"capture","convert","encode","to_loop"}
//        (medians, ms; to_loop is capture -> on the network thread), all
//        of rung 0 of the encoding ladder; "ladder": {"max_encodes",
//        "affordable" (rungs the machine affords now), "work_pct" (the
//        video thread's work per picture, % of the frame interval),
//        "moves" (consumers switched rungs so far), "rule" (when it
//        shrinks and grows, in words), "rungs": [{"rung", "consumers",
//        "target_kbps" (its ceiling), "fps", "kbps", "frame_rate",
//        "rate_factor", "width", "height", "encode_ms"}] (rungs coded or
//        taken)}; and "viewer", this connection's own: "queued_frames"/"queued_bytes"
//        (encoded, not yet handed to the socket), "dropped_frames" (deltas
//        dropped to resync on a key frame), "acked_frames", "in_flight"/
//        "in_flight_bytes" (sent, not yet acked), "rtt_ms" (smoothed) and
//        "min_rtt_ms" (10 s minimum), both without the viewer's hold_ms,
//        "delivery_kbps" (2 s maximum of the per-frame delivery rate),
//        "target_kbps" (this viewer's rate controller), "encoder_kbps" (the
//        cap of its rung's encoder: the slowest full viewer's target there,
//        not below --min-kbps), "rung" (the rung it takes frames of),
//        "moving_to" (the rung whose key frame it waits for; -1: none),
//        "held_back" (frames that waited for the link window),
//        "queue_ms" (capture -> handed to the socket) and "send_ms" (the
//        socket write) of the last frame, "decode_ms" (the last ack's),
//        "queued_audio", "dropped_audio", "queued_text_bytes",
//        "ignored_messages", "keyframes_put_off"
//  client -> server
//   {"type":"ack","id":<frame_id>,"decode_ms":D,"hold_ms":H,"queued":Q}
//        See "Acknowledgements" below.
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
//   {"type":"resize","width":W,"height":H}
//        the desktop size (desktop pixels, 1..16384 each way) this page would
//        show 1:1; the server clamps it to the limits, rounds the width down
//        to a multiple of 8 and the height down to even, and applies the
//        holder's latest at most every 250 ms. Ignored without
//        --enable-resize; refused once to a view-only viewer
//   {"type":"clipboard",...}              as above, viewer -> desktop
//   {"type":"settings","max_fps":F,"max_kbps":K,"name":"...","motion":"auto"|"smooth"|"sharp"}
//        this viewer's own caps, name and motion choice
//        (stream/viewer/viewer_settings.h), each field optional: max_fps 0
//        (no cap) or 1..240, max_kbps 0 (no cap) or 100..1000000, name at
//        most 40 UTF-8 characters, no control characters; a message with
//        one unusable field changes nothing. The motion choices the
//        viewers made hold for the stream where they agree (a recording
//        has no say), the server's --motion otherwise.
//        One encode serves everyone: the stream's frame rate is the highest
//        any viewer allows (no cap counts as --framerate's maximum), so a
//        cap never slows another viewer's picture; a full viewer's max_kbps
//        is its own link limit (its target is min(estimate, cap); the
//        encoder follows the slowest full viewer, never below --min-kbps);
//        a view-only viewer's max_kbps is not applied (its link never
//        lowers the shared encode; it skips frames and resyncs on key
//        frames) and is answered as 0; nothing is thinned per viewer, a
//        frame rate cap of any viewer only counts towards the stream's
//        ceiling (a running recording allows --framerate's maximum, like
//        a viewer without a cap). Everything else (--framerate,
//        --max-kbps, --crf, ...) is the server's flags', for every viewer
//   {"type":"control","action":"request"|"release"|"grant"|"deny","to":ID}
//        control handover (input/control_handover.h; "to" only for grant
//        and deny). One full viewer holds keyboard and mouse at a time.
//        With nobody holding, the first full viewer to send input
//        (key, text, move, button, scroll, clipboard) or "request" takes it
//        at once. Another's "request" marks it requesting; the holder may
//        "grant" control to a requester or "deny" it; "release" hands it to
//        the oldest requester or frees it (from a requester: withdraws its
//        request). A holder that sent no input for --control-timeout
//        seconds while someone requests loses it to the oldest requester;
//        a holder that leaves, too. Input and clipboard from a full viewer
//        without control are dropped (and refused, see above); its
//        "resize" is kept but not applied while another holds control; the
//        holder's keys and buttons are released when control leaves it,
//        and its window's size is the desktop's once it gets control
//        (--enable-resize). View-only viewers can neither request nor hold
//        it (refused "control"). Agents' /input is not subject to it
//
// Acknowledgements: what the server's rate control (LinkEstimator,
// BitrateController) reads from a viewer, and so what a viewer must send.
// - Ack a frame once it is decoded (shown or ready to show), with its
//   frame_id. Frames that failed to decode, and deltas dropped while waiting
//   for a key frame, are not acked: ask for a key frame instead ("keyframe"),
//   after which the server counts nothing it sent before as in flight and
//   sends this viewer no more deltas until the next key frame.
// - Acks are cumulative: acking frame N also acknowledges every earlier
//   frame still in flight (ids compared modulo 2^32), so a viewer may ack
//   only the newest of several frames decoded together. Only the exact id
//   acked gives an RTT and delivery-rate sample; an id not in flight (a
//   duplicate, or one from before a "keyframe") is ignored.
// - A frame neither acked nor covered by a later ack within 1 s counts as
//   lost and leaves the window. A viewer that acks nothing within 3 s of its
//   first frame is paced by TCP alone and has no say in the bitrate.
// - hold_ms: the time from the message's arrival (the WebSocket message
//   received, before any decoding) to sending this ack. The server takes it
//   out of the round trip, so RTT = ack arrival - send - hold_ms measures the
//   network and queues only. Missing, decode_ms is used in its place.
// - decode_ms: from handing the frame to the decoder to having the picture
//   (a synchronous decoder: the decode call). Reported in "stats" only.
// - queued: frames handed to the decoder and not yet output after this one
//   (WebCodecs' decodeQueueSize); a synchronous decoder sends 0. Optional and
//   informational: the server does not read it, because a frame waiting in
//   the viewer's decoder is not acked yet and so already counts in flight.
// - How many frames may be in flight: about one round trip's worth at the
//   frame rate plus 2, and in bytes the delivery rate times the minimum RTT
//   plus two average frames; 3 frames before the first ack. A viewer that
//   acks late (after drawing, or on a timer) shrinks its own frame rate.
//
// The upgrade: GET /ws with a WebSocket handshake, on the same port as the
// page. It needs the same credential as the page (HTTP Basic with the full
// or the view-only password, or the access token as "Authorization: Bearer
// <token>", the voxl_token cookie or ?token=<token>; 401 without it) and a
// Host header the server answers to (an IP literal, localhost, the
// machine's names or --allowed-hosts; 403 otherwise, 400 without one). A browser's Origin
// header must name the page's own origin, "http://" (or "https://" with
// TLS) followed by the Host header exactly, compared without case and a
// trailing slash, or an origin listed in --allowed-origins ("*" allows any);
// otherwise 403. A request without an Origin header (a native viewer) passes
// this check. The view-only password gives a view-only viewer (its hello says
// so; its input and clipboard are refused).
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
//     "type" 32 bytes, key names 64, "text" 4 KiB, "reason" 256, "action"
//     16, "name" 160 bytes and 40 characters; "to" 0..2^53-1; "avc444"
//     a JSON boolean, unknown fields skipped); a message
//     with an unusable field is ignored as a whole
//   binary message (microphone): 4 KiB
//   "keyframe": per viewer, a burst of 3 then one per 2 s; a request beyond
//     that is made once a token is back. The server asks the encoder for IDRs
//     at most every 300 ms; requests in between are served together at the
//     end of that interval.
// What waits to be sent to a client: text up to 2 MiB / 256 messages (not
// counting the one pending clipboard message); only the latest cursor,
// the latest clipboard message and the latest "viewers" list wait (a newer
// one replaces an older one not yet being written). A client past that is
// closed with 1008. A view-only viewer's link estimate does not lower the
// shared encoder bitrate.
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

// The stage stamps after the base header (offsets 24-43): when each stage
// of the server's pipeline ended, in µs from capture_us (the grab's end).
inline constexpr size_t kVideoStampBytes = 20;
inline constexpr size_t kVideoHeaderWithStampsBytes = kVideoHeaderBytes + kVideoStampBytes;

struct VideoStamps {
  int32_t ready_us = 0;      // the pipeline was free to capture (waits for damage from then on)
  int32_t grab_us = 0;       // the grab of the damaged pixels started
  int32_t converted_us = 0;  // colour conversion done
  int32_t encoded_us = 0;    // the encoder returned the access unit
  int32_t published_us = 0;  // the frame reached the network thread
};

// Writes the header into the first kVideoHeaderBytes of `out`.
void write_video_header(const VideoHeader& h, std::span<uint8_t, kVideoHeaderBytes> out);
// The header with stage stamps (header_bytes 44).
void write_video_header(const VideoHeader& h, const VideoStamps& s,
                        std::span<uint8_t, kVideoHeaderWithStampsBytes> out);
// The stripe part after the stamps (offsets 44-51).
inline constexpr size_t kVideoStripeBytes = 8;
inline constexpr size_t kVideoHeaderWithStripeBytes = kVideoHeaderWithStampsBytes + kVideoStripeBytes;

inline constexpr uint8_t kStripeFlagLast = 1;

struct VideoStripe {
  uint8_t stripe = 0;
  uint8_t stripes = 1;
  uint16_t band_y = 0;
  uint16_t band_height = 0;
  bool last = true;  // the last band coded from its capture
};

// The header with stamps and the stripe part (header_bytes 52).
void write_video_header(const VideoHeader& h, const VideoStamps& s, const VideoStripe& stripe,
                        std::span<uint8_t, kVideoHeaderWithStripeBytes> out);
// The stripe part of a video message parsed by read_video_header; nullopt
// when its header is shorter than kVideoHeaderWithStripeBytes (one stream).
std::optional<VideoStripe> read_video_stripe(std::span<const uint8_t> message);

// The stamps of a video message parsed by read_video_header; nullopt when
// its header is shorter than kVideoHeaderWithStampsBytes.
std::optional<VideoStamps> read_video_stamps(std::span<const uint8_t> message);

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
