// voxl wire format, version 1: the client's half. src/stream/viewer/wire_format.h
// defines it and documents every message; tests/unit/wire_format_test.cpp
// checks that the constants below match the server's.

export const PROTOCOL_VERSION = 1;
export const KIND_VIDEO = 1;
export const FLAG_KEY_FRAME = 1;
export const VIDEO_HEADER_BYTES = 24;
// header_bytes with the stage stamps (offsets 24-43), and with the stripe
// part after them (offsets 44-51; only while the stream is striped).
export const VIDEO_STAMPS_HEADER_BYTES = 44;
export const VIDEO_STRIPE_HEADER_BYTES = 52;
// The most streams (horizontal bands) a picture is coded as (--stripes).
export const MAX_STRIPES = 16;

// Which of the picture's streams a video message belongs to, and the rows
// of the picture it shows: its band, as wide as the picture. An unstriped
// stream is stripe 0 of 1 and its band the whole picture.
export interface StripePart {
  stripe: number; // 0..stripes-1
  stripes: number; // 1..MAX_STRIPES
  bandY: number; // the band's first row in the picture
  bandHeight: number; // its height: what this stream's decoder shows
}

// Whether `s` is a band a picture `height` rows tall can have: stripe
// within stripes, the band inside the picture and even (the server cuts
// on whole macroblock rows, the last band any even height), one stream
// the whole picture.
export function validStripe(s: StripePart, height: number): boolean {
  const int = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;
  if (!int(height, 1, 65535) || !int(s.stripes, 1, MAX_STRIPES) || !int(s.stripe, 0, s.stripes - 1)) return false;
  if (!int(s.bandY, 0, height - 1) || !int(s.bandHeight, 1, height - s.bandY)) return false;
  if (s.stripes === 1) return s.bandY === 0 && s.bandHeight === height;
  return s.bandY % 2 === 0 && s.bandHeight % 2 === 0;
}

export interface VideoHeader extends StripePart {
  key: boolean;
  frameId: number;
  captureUs: number; // server wall clock at capture, µs
  // The whole picture's (display) size, not the coded, macroblock-aligned
  // one; a striped stream's band is as wide and bandHeight tall.
  width: number;
  height: number;
  serverUs: number; // capture -> handed to the socket, µs
  // Bytes 24-43 (header_bytes 44) hold the server's stage stamps; this
  // client does not read them. Bytes 44-51 (header_bytes 52) the stripe
  // part: without it the message is stripe 0 of 1, its band the picture.
  payloadOffset: number;
}

// Parses a binary message; null when it is not a video message this client
// understands (a stripe part that names no band of the picture included).
export function readVideoHeader(buf: ArrayBuffer): VideoHeader | null {
  if (buf.byteLength < VIDEO_HEADER_BYTES) return null;
  const v = new DataView(buf);
  if (v.getUint8(0) !== KIND_VIDEO) return null;
  const headerBytes = v.getUint16(2, true);
  if (headerBytes < VIDEO_HEADER_BYTES || headerBytes > buf.byteLength) return null;
  const h: VideoHeader = {
    key: (v.getUint8(1) & FLAG_KEY_FRAME) !== 0,
    frameId: v.getUint32(4, true),
    captureUs: Number(v.getBigUint64(8, true)),
    width: v.getUint16(16, true),
    height: v.getUint16(18, true),
    serverUs: v.getUint32(20, true),
    stripe: 0,
    stripes: 1,
    bandY: 0,
    bandHeight: 0,
    payloadOffset: headerBytes,
  };
  h.bandHeight = h.height;
  if (headerBytes < VIDEO_STRIPE_HEADER_BYTES) return h;
  const part: StripePart = {
    stripe: v.getUint8(44),
    stripes: v.getUint8(45),
    bandY: v.getUint16(46, true),
    bandHeight: v.getUint16(48, true),
  };
  if (!validStripe(part, h.height)) return null;
  return { ...h, ...part };
}

// Audio: kind 2 desktop sound (server -> client), kind 3 microphone
// (client -> server); a 16-byte header, then one Opus packet.
export const KIND_AUDIO = 2;
export const KIND_MICROPHONE = 3;
export const AUDIO_HEADER_BYTES = 16;

export interface AudioHeader {
  sequence: number; // counts packets from 1; a gap is a loss
  captureUs: number; // sender's wall clock at the first sample, µs
  payloadOffset: number;
}

// Parses a desktop-audio message; null when it is anything else.
export function readAudioHeader(buf: ArrayBuffer): AudioHeader | null {
  if (buf.byteLength < AUDIO_HEADER_BYTES) return null;
  const a = new DataView(buf);
  if (a.getUint8(0) !== KIND_AUDIO) return null;
  const headerBytes = a.getUint16(2, true);
  if (headerBytes < AUDIO_HEADER_BYTES || headerBytes > buf.byteLength) return null;
  return { sequence: a.getUint32(4, true), captureUs: Number(a.getBigUint64(8, true)), payloadOffset: headerBytes };
}

// One microphone message: the header, then `packet`.
export function microphoneMessage(sequence: number, captureUs: number, packet: Uint8Array): ArrayBuffer {
  const out = new Uint8Array(AUDIO_HEADER_BYTES + packet.byteLength);
  const a = new DataView(out.buffer);
  a.setUint8(0, KIND_MICROPHONE);
  a.setUint16(2, AUDIO_HEADER_BYTES, true);
  a.setUint32(4, sequence >>> 0, true);
  a.setBigUint64(8, BigInt(Math.max(0, Math.round(captureUs))), true);
  out.set(packet, AUDIO_HEADER_BYTES);
  return out.buffer;
}

// Server -> client control messages.
// id: this viewer's id (as in "viewers"); files: whether the server offers
// the Files panel. Both absent from servers before per-viewer settings.
// stripes: the server's --stripes, the most streams the picture is cut
// into (informational: each message says its own; absent from servers
// without stripes).
export interface HelloMessage {
  type: "hello";
  version: number;
  server: string;
  microphone?: boolean;
  id?: number;
  files?: boolean;
  stripes?: number;
}
// Before a key frame whose codec or size changed. A striped stream says it
// per stripe, before that stripe's key frame, with the fields of the video
// header's stripe part (all four or none); width/height stay the whole
// picture's.
export interface VideoConfigMessage {
  type: "video";
  codec: string;
  width: number;
  height: number;
  stripe?: number;
  stripes?: number;
  band_y?: number;
  band_height?: number;
}
// What a decoder is configured with: one stream's codec, the whole
// picture's size and the band it shows.
export interface VideoConfig extends StripePart {
  codec: string;
  width: number;
  height: number;
}

// The config a parsed "video" message gives: the old whole-picture message
// is stripe 0 of 1.
export function videoConfig(m: VideoConfigMessage): VideoConfig {
  const { codec, width, height } = m;
  if (m.stripes === undefined) return { codec, width, height, stripe: 0, stripes: 1, bandY: 0, bandHeight: height };
  return { codec, width, height, stripe: m.stripe!, stripes: m.stripes, bandY: m.band_y!, bandHeight: m.band_height! };
}
export interface PongMessage { type: "pong"; t: number; server_us: number }
export interface StatsMessage { type: "stats"; [key: string]: unknown }
export interface AudioConfigMessage { type: "audio"; codec: string; rate: number; channels: number }
// What this viewer may do besides watching; sent once after hello.
export type ClipboardMode = "both" | "in" | "out" | "off";
export interface InteractionMessage {
  type: "interaction";
  input: boolean;
  clipboard: ClipboardMode;
  view_only: boolean;
  scroll_px_per_notch: number;
}
// A new pointer shape: straight RGBA pixels in base64, or hidden, or only
// the serial of a shape this viewer was sent before.
export interface CursorMessage {
  type: "cursor";
  serial: number;
  hidden?: boolean;
  width?: number;
  height?: number;
  hot_x?: number;
  hot_y?: number;
  rgba?: string;
}
// Clipboard content, either way: UTF-8 text, or PNG bytes in base64.
export interface ClipboardMessage { type: "clipboard"; mime: string; text?: string; data?: string }
export interface ClipboardErrorMessage { type: "clipboard_error"; message: string }
// The server dropped this viewer's input, clipboard or resize messages.
export interface RefusedMessage { type: "refused"; what: string; reason: string }
// The reason of an input refusal while another full viewer holds control.
export const REFUSED_CONTROL_REASON = "another viewer has control";
// Dynamic resolution (--enable-resize): sent after "interaction", and again
// whenever a field changes for this viewer. holder: this viewer's window
// decides the desktop's size now; policy "last-input": the full viewer that
// asked for a size and last used input holds it, until anyone has the first
// that asked, never a view-only one. scale: --resize-scale, the most desktop
// pixels a page asks for per CSS pixel. enabled=false with a reason (the
// other fields may be left out): the desktop cannot follow, the page says so
// once and keeps scaling. The desktop's actual size still comes in "video".
export interface ResizeEnabledMessage {
  type: "resize";
  enabled: true;
  reason?: string;
  holder: boolean;
  policy?: string;
  scale: number;
  min_width: number;
  min_height: number;
  max_width: number;
  max_height: number;
}
export interface ResizeDisabledMessage { type: "resize"; enabled: false; reason?: string }
export type ResizeStateMessage = ResizeEnabledMessage | ResizeDisabledMessage;
// What the server applied of this viewer's settings (0 = no cap), sent after
// "interaction" and after each settings message; server_max_* are the
// global --framerate and --max-kbps, which no viewer changes;
// server_min_kbps (absent from older servers) the lowest bitrate cap it
// takes (a lower one is raised to it). A view-only viewer's max_kbps is 0:
// its bitrate cap is not applied.
export interface SettingsAppliedMessage {
  type: "settings";
  max_fps: number;
  max_kbps: number;
  name: string;
  server_max_fps: number;
  server_max_kbps: number;
  server_min_kbps?: number;
  // This viewer's motion choice (null: none, the server's holds) and the
  // server's --motion; both absent from older servers.
  motion?: Motion | null;
  server_motion?: Motion;
}
// Who is watching: at most 32 entries (this viewer always among them), the
// rest counted in `more`. holder: the id of the full viewer that has the
// keyboard and mouse, 0 for nobody; timeout_s: --control-timeout.
export type ViewerRole = "full" | "view-only";
// user: who signed in by name (a users file's user), "" or absent when no one did.
export interface ViewerEntry { id: number; role: ViewerRole; name: string; user?: string; requesting: boolean }
export interface ViewersMessage {
  type: "viewers";
  you: number;
  holder: number;
  timeout_s: number;
  viewers: ViewerEntry[];
  more: number;
}
export type ServerMessage =
  | HelloMessage
  | VideoConfigMessage
  | PongMessage
  | StatsMessage
  | InteractionMessage
  | CursorMessage
  | ClipboardMessage
  | ClipboardErrorMessage
  | RefusedMessage
  | ResizeStateMessage
  | SettingsAppliedMessage
  | ViewersMessage
  | AudioConfigMessage;

// Client -> server control messages.
// Acks: one per decoded frame (cumulative; a frame that failed to decode is
// not acked, a "keyframe" request is sent instead); wire_format.h says
// what the server's rate control makes of them.
export interface AckMessage {
  type: "ack";
  id: number;
  decode_ms: number; // decode() call -> decoded
  hold_ms: number; // received -> this ack: the server takes it out of its RTT sample
  queued: number; // decodeQueueSize after this frame; informational (0 for a synchronous decoder)
}
export interface KeyframeRequest { type: "keyframe"; reason: string }
export interface PingMessage { type: "ping"; t: number }
export interface StatsRequest { type: "stats"; enabled: boolean }
// What the page's decoder takes besides 4:2:0 Constrained Baseline: with
// avc444 the server may send a still screen as High 4:4:4 Predictive.
export interface DecoderMessage { type: "decoder"; avc444: boolean }
// Input. `mods` is a bit set of what the page says is held or locked:
export const MOD_SHIFT = 1;
export const MOD_CONTROL = 2;
export const MOD_ALT = 4;
export const MOD_META = 8;
export const MOD_CAPS_LOCK = 16;
export const MOD_NUM_LOCK = 32;
export const MOD_ALT_GRAPH = 64;
// Largest clipboard content either way, before base64 (the server's limit).
export const MAX_CLIPBOARD_BYTES = 8388608;
// KeyboardEvent.code and .key as the browser gave them.
export interface KeyMessage { type: "key"; code: string; key: string; down: boolean; mods: number }
// Text committed by an input method, typed as its characters.
export interface TextMessage { type: "text"; text: string }
// Positions are stream pixels (the picture's own, whatever its scaling).
export interface MoveMessage { type: "move"; x: number; y: number }
// X11 numbering: 1 left, 2 middle, 3 right, 8 back, 9 forward.
export interface ButtonMessage { type: "button"; button: number; down: boolean; x: number; y: number; mods: number }
// Right and down are positive; "px" are stream pixels, "notch" wheel notches.
export interface ScrollMessage { type: "scroll"; dx: number; dy: number; unit: "px" | "notch"; x: number; y: number }
// Release every key and button this viewer holds (the page lost focus).
export interface ReleaseMessage { type: "release" }
// The desktop size (desktop pixels, integers 1..16384) this page would like:
// its stage's CSS size times min(devicePixelRatio, scale). The server rounds
// it (width down to a multiple of 8, height down to even), clamps it to
// [min, max], applies its policy and resizes at most every 250 ms (latest
// request wins); a view-only viewer's requests are refused once and ignored.
export interface ResizeRequest { type: "resize"; width: number; height: number }
// This viewer's own settings; every field optional. max_fps 0 (no cap) or
// 1..240, max_kbps 0 (no cap) or 100..1000000, name 0..40 characters.
// (pinned against the server's by tests/unit/wire_format_test.cpp)
export const SETTINGS_MAX_FPS = 240;
export const SETTINGS_MIN_KBPS = 100;
export const SETTINGS_MAX_KBPS = 1000000;
export const SETTINGS_MAX_NAME_CHARS = 40;
// How the frame rate is traded against sharpness on a slow link: "smooth"
// keeps the full rate, "sharp" sends fewer, sharper frames, "auto" judges
// the content. One stream serves everyone: viewers that choose and agree
// decide, otherwise the server's --motion holds.
export const MOTIONS = ["auto", "smooth", "sharp"] as const;
export type Motion = (typeof MOTIONS)[number];
export function isMotion(v: unknown): v is Motion {
  return typeof v === "string" && (MOTIONS as readonly string[]).includes(v);
}
export interface SettingsRequest { type: "settings"; max_fps?: number; max_kbps?: number; name?: string; motion?: Motion }
// Control handover: "to" only for grant and deny.
export type ControlAction = "request" | "release" | "grant" | "deny";
export interface ControlRequest { type: "control"; action: ControlAction; to?: number }
export type ClientMessage =
  | AckMessage
  | KeyframeRequest
  | PingMessage
  | StatsRequest
  | DecoderMessage
  | KeyMessage
  | TextMessage
  | MoveMessage
  | ButtonMessage
  | ScrollMessage
  | ReleaseMessage
  | ResizeRequest
  | SettingsRequest
  | ControlRequest
  | ClipboardMessage;

// Parses a text message from the server; null for anything malformed or of a
// type this client does not know, so a newer server cannot break an older page.
export function parseServerMessage(text: string): ServerMessage | null {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof m !== "object" || m === null) return null;
  const o = m as Record<string, unknown>;
  const num = (k: string): boolean => typeof o[k] === "number" && Number.isFinite(o[k]);
  switch (o.type) {
    case "hello":
      return num("version") &&
        (o.id === undefined || isId(o.id)) &&
        (o.files === undefined || typeof o.files === "boolean") &&
        (o.stripes === undefined || (Number.isInteger(o.stripes) && (o.stripes as number) >= 1 && (o.stripes as number) <= MAX_STRIPES))
        ? (o as unknown as HelloMessage)
        : null;
    case "video":
      if (typeof o.codec !== "string" || o.codec === "" || !num("width") || !num("height")) return null;
      return isWholeOrBand(o) ? (o as unknown as VideoConfigMessage) : null;
    case "pong":
      return num("t") && num("server_us") ? (o as unknown as PongMessage) : null;
    case "stats":
      return o as StatsMessage;
    case "settings":
      return num("max_fps") &&
        num("max_kbps") &&
        typeof o.name === "string" &&
        num("server_max_fps") &&
        num("server_max_kbps") &&
        (o.server_min_kbps === undefined || num("server_min_kbps")) &&
        (o.motion === undefined || o.motion === null || isMotion(o.motion)) &&
        (o.server_motion === undefined || isMotion(o.server_motion))
        ? (o as unknown as SettingsAppliedMessage)
        : null;
    case "viewers":
      return isId(o.you) &&
        num("holder") &&
        num("timeout_s") &&
        num("more") &&
        Array.isArray(o.viewers) &&
        o.viewers.every(isViewerEntry)
        ? (o as unknown as ViewersMessage)
        : null;
    case "audio":
      return o.codec === "opus" && num("rate") && num("channels") ? (o as unknown as AudioConfigMessage) : null;
    case "interaction":
      return typeof o.input === "boolean" && typeof o.clipboard === "string" && num("scroll_px_per_notch")
        ? (o as unknown as InteractionMessage)
        : null;
    case "cursor":
      if (!num("serial")) return null;
      if (o.rgba === undefined) return o as unknown as CursorMessage;
      return typeof o.rgba === "string" && num("width") && num("height") && num("hot_x") && num("hot_y")
        ? (o as unknown as CursorMessage)
        : null;
    case "clipboard":
      return typeof o.mime === "string" && (typeof o.text === "string" || typeof o.data === "string")
        ? (o as unknown as ClipboardMessage)
        : null;
    case "clipboard_error":
      return typeof o.message === "string" ? (o as unknown as ClipboardErrorMessage) : null;
    case "refused":
      return typeof o.what === "string" && typeof o.reason === "string" ? (o as unknown as RefusedMessage) : null;
    case "resize":
      if (o.reason !== undefined && typeof o.reason !== "string") return null;
      if (o.enabled === false) return o as unknown as ResizeDisabledMessage;
      return o.enabled === true &&
        typeof o.holder === "boolean" &&
        (o.policy === undefined || typeof o.policy === "string") &&
        num("scale") &&
        (o.scale as number) > 0 &&
        num("min_width") &&
        num("min_height") &&
        num("max_width") &&
        num("max_height")
        ? (o as unknown as ResizeEnabledMessage)
        : null;
    default:
      return null;
  }
}

// A "video" message's stripe fields: none (the whole picture), or all four
// naming a band of the picture (numbers only, checked as the header's).
function isWholeOrBand(o: Record<string, unknown>): boolean {
  const keys = ["stripe", "stripes", "band_y", "band_height"] as const;
  const present = keys.filter((k) => o[k] !== undefined).length;
  if (present === 0) return true;
  if (present !== keys.length || !keys.every((k) => typeof o[k] === "number")) return false;
  const part: StripePart = {
    stripe: o.stripe as number,
    stripes: o.stripes as number,
    bandY: o.band_y as number,
    bandHeight: o.band_height as number,
  };
  return Number.isInteger(o.width) && (o.width as number) > 0 && validStripe(part, o.height as number);
}

function isId(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

function isViewerEntry(v: unknown): v is ViewerEntry {
  if (typeof v !== "object" || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    isId(e.id) &&
    (e.role === "full" || e.role === "view-only") &&
    typeof e.name === "string" &&
    (e.user === undefined || typeof e.user === "string") &&
    typeof e.requesting === "boolean"
  );
}
