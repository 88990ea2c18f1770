// The viewer's message dispatch (client.ts), without a browser: a fake
// connection plays the server (opens, sends text and binary messages,
// drops, refuses) and records what the client sends back; the assertions
// are on the client's state, the overlay, the panel's session events, the
// decoder and the replies. What node lacks is faked: the page's DOM (a few
// inert elements), the view, the status overlay, the video output (in the
// browser, WebCodecs in a worker) and, for the sound, WebCodecs'
// AudioDecoder. Everything else is the page's own code.
//
//   node --test web/test/client_dispatch.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { Client } = await load("src/client.ts");
const P = await load("src/protocol/messages.ts");

// An element that takes what the page does to it and remembers it.
class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.style = { setProperty: (k, v) => (this.style[k] = v), removeProperty: (k) => delete this.style[k] };
    this.attributes = {};
    this.children = [];
    this.listeners = {};
    this.parentElement = null;
    this.hidden = false;
    this.textContent = "";
    const classes = new Set();
    this.classList = {
      add: (...c) => c.forEach((x) => classes.add(x)),
      remove: (...c) => c.forEach((x) => classes.delete(x)),
      toggle: (c, on = !classes.has(c)) => (on ? classes.add(c) : classes.delete(c), on),
      contains: (c) => classes.has(c),
    };
  }
  setAttribute(k, v) {
    this.attributes[k] = String(v);
  }
  getAttribute(k) {
    return this.attributes[k] ?? null;
  }
  appendChild(c) {
    this.children.push(c);
    c.parentElement = this;
    return c;
  }
  append(...cs) {
    for (const c of cs) this.children.push(c);
  }
  replaceChildren(...cs) {
    this.children = [];
    this.append(...cs);
  }
  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }
  removeEventListener() {}
  focus() {
    document.activeElement = this;
  }
  blur() {
    if (document.activeElement === this) document.activeElement = null;
  }
  getBoundingClientRect() {
    return { left: 0, top: 0, x: 0, y: 0, width: 640, height: 480, right: 640, bottom: 480 };
  }
  // The first element below this one with `id`.
  find(id) {
    for (const c of this.children) {
      if (!(c instanceof FakeElement)) continue;
      if (c.id === id) return c;
      const deeper = c.find(id);
      if (deeper) return deeper;
    }
    return null;
  }
}

// The page around the client: window (timers run by hand), document,
// navigator (a clipboard that only writes), ResizeObserver.
function fakePage() {
  const timers = new Map();
  let next = 1;
  const timer = (fn, ms) => (timers.set(next, { fn, ms }), next++);
  const listeners = {};
  globalThis.window = {
    location: { search: "", href: "http://host:6901/" },
    devicePixelRatio: 1,
    addEventListener: (type, fn) => (listeners[type] ??= []).push(fn),
    removeEventListener: () => {},
    setTimeout: timer,
    setInterval: timer,
    clearTimeout: (id) => timers.delete(id),
    clearInterval: (id) => timers.delete(id),
  };
  const body = new FakeElement("body");
  globalThis.document = {
    body,
    activeElement: null,
    visibilityState: "visible",
    createElement: (tag) => new FakeElement(tag),
    createElementNS: (_ns, tag) => new FakeElement(tag),
    addEventListener: () => {},
  };
  const written = [];
  Object.defineProperty(globalThis, "navigator", {
    value: { clipboard: { writeText: async (t) => void written.push(t) } },
    configurable: true,
    writable: true,
  });
  globalThis.ResizeObserver = class {
    observe() {}
  };
  globalThis.HTMLVideoElement = class {};
  return { body, written };
}

// What node lacks of WebCodecs for the sound: an AudioDecoder that keeps
// the chunks it is given.
class FakeAudioDecoder {
  static made = [];
  constructor() {
    this.state = "unconfigured";
    this.chunks = [];
    FakeAudioDecoder.made.push(this);
  }
  configure(config) {
    this.config = config;
    this.state = "configured";
  }
  decode(chunk) {
    this.chunks.push(chunk);
  }
  close() {
    this.state = "closed";
  }
}
globalThis.AudioDecoder = FakeAudioDecoder;
globalThis.EncodedAudioChunk = class {
  constructor(init) {
    Object.assign(this, init);
  }
};

// The page's warnings, kept rather than printed.
const warnings = [];
console.warn = (...args) => void warnings.push(args.join(" "));

// The server's end of the connection: `events` is what the client gave its
// connection factory; what the client sends lands in `sent`, and nothing
// goes while the connection is closed.
class FakeConnection {
  constructor(events) {
    this.events = events;
    this.isOpen = false;
    this.starts = 0;
    this.sent = [];
    this.binary = [];
  }
  start() {
    this.starts++;
  }
  send(msg) {
    if (!this.isOpen) return false;
    this.sent.push(msg);
    return true;
  }
  sendBinary(data) {
    if (!this.isOpen) return false;
    this.binary.push(data);
    return true;
  }
  // The server's side.
  open() {
    this.isOpen = true;
    this.events.opened();
  }
  text(msg) {
    this.events.text(typeof msg === "string" ? msg : JSON.stringify(msg));
  }
  binaryMessage(buf) {
    this.events.binary(buf);
  }
  close(reason, retryAt, detail) {
    this.isOpen = false;
    this.events.closed(reason, retryAt, detail);
  }
  refuse(verdict) {
    this.isOpen = false;
    this.events.refused(verdict);
  }
  // What the client sent of `type`.
  of(type) {
    return this.sent.filter((m) => m.type === type);
  }
}

// Records every call made on it, as [name, ...args], and answers none.
function recorder(names) {
  const calls = [];
  const o = { calls };
  for (const n of names) o[n] = (...args) => void calls.push([n, ...args]);
  o.named = (n) => calls.filter((c) => c[0] === n);
  return o;
}

// A Client on a fake page, view, overlay, video output and connection, with
// a recording panel as its session listener.
function client({ wantStats = false, stage = { width: 1280, height: 720 } } = {}) {
  const page = fakePage();
  const view = {
    cleared: 0,
    shownSizes: [],
    resizeScales: [],
    zoom: { scale: 1, reset() {}, shownBox: () => ({ x: 0, y: 0, width: 1, height: 1 }) },
    onLayout() {},
    // Like the view's: the stage's size at once (device pixels, ratio 1).
    watchStage: (fn) => fn(stage, 1),
    setResizeScale(s) {
      this.resizeScales.push(s);
    },
    layoutState: () => ({ mode: "fit", scale: 1, stream: { width: 0, height: 0 }, stage, dpr: 1 }),
    clear() {
      this.cleared++;
    },
    shown(w, h) {
      this.shownSizes.push([w, h]);
    },
    stageOrigin: () => ({ x: 0, y: 0 }),
    scrollStage: (dx, dy) => ({ x: dx, y: dy }),
  };
  const status = recorder(["connecting", "connected", "reconnecting", "error", "blocked", "hide"]);
  const decoder = {
    drawer: "main thread",
    codec: null,
    configs: [],
    resets: 0,
    decodes: [],
    configure(c) {
      this.configs.push(c);
      this.codec = c.codec;
    },
    reset() {
      this.resets++;
    },
    decode(h, buf, receivedAt) {
      this.decodes.push({ h, buf, receivedAt });
    },
  };
  const canvas = new FakeElement("canvas");
  canvas.width = 640;
  canvas.height = 480;
  page.body.appendChild(canvas);
  let conn = null;
  const c = new Client(view, status, wantStats, canvas, decoder, (events) => (conn = new FakeConnection(events)));
  const session = recorder(["hello", "interaction", "settingsApplied", "viewersChanged", "refused", "disconnected"]);
  c.session = session;
  warnings.length = 0;
  const statusLine = () => page.body.find("status-line");
  // A key pressed in the picture: a keydown on the keyboard's sink.
  const press = (code, key) => {
    const sink = page.body.children.find((e) => e.getAttribute?.("aria-label") === "keyboard input for the remote desktop");
    const e = { code, key, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, repeat: false, isComposing: false, keyCode: 0 };
    e.getModifierState = () => false;
    e.preventDefault = () => {};
    for (const fn of sink.listeners.keydown ?? []) fn(e);
  };
  return { c, conn, view, status, decoder, session, page, statusLine, press };
}

const settle = () => new Promise((r) => setImmediate(r));

// A video message as the server writes it (src/stream/viewer/wire_format.cpp).
function videoMessage({ key = true, frameId = 7, captureUs = 1_700_000_000_000_000, width = 640, height = 480, payload = [9, 9, 9] } = {}) {
  const headerBytes = P.VIDEO_STAMPS_HEADER_BYTES;
  const buf = new ArrayBuffer(headerBytes + payload.length);
  const v = new DataView(buf);
  v.setUint8(0, P.KIND_VIDEO);
  v.setUint8(1, key ? P.FLAG_KEY_FRAME : 0);
  v.setUint16(2, headerBytes, true);
  v.setUint32(4, frameId, true);
  v.setBigUint64(8, BigInt(captureUs), true);
  v.setUint16(16, width, true);
  v.setUint16(18, height, true);
  v.setUint32(20, 1500, true);
  new Uint8Array(buf, headerBytes).set(payload);
  return buf;
}

// A desktop-sound message: the 16-byte header, then one Opus packet.
function audioMessage(sequence, captureUs, payload) {
  const buf = new ArrayBuffer(P.AUDIO_HEADER_BYTES + payload.length);
  const v = new DataView(buf);
  v.setUint8(0, P.KIND_AUDIO);
  v.setUint16(2, P.AUDIO_HEADER_BYTES, true);
  v.setUint32(4, sequence, true);
  v.setBigUint64(8, BigInt(captureUs), true);
  new Uint8Array(buf, P.AUDIO_HEADER_BYTES).set(payload);
  return buf;
}

const hello = { type: "hello", version: P.PROTOCOL_VERSION, server: "voxl test", id: 3, files: true };
const interaction = { type: "interaction", input: true, clipboard: "both", view_only: false, scroll_px_per_notch: 53 };

test("the client makes its connection through the factory and starts it; the overlay says it connects", () => {
  const { c, conn, status } = client();
  assert.ok(conn, "the factory was called while the client was made");
  assert.equal(conn.starts, 0, "nothing opens before start()");
  assert.equal(c.connectionState, "connecting");
  c.start();
  assert.equal(conn.starts, 1);
  assert.deepEqual(status.calls, [["connecting"]]);
  assert.equal(c.testStats().connected, false);
  assert.equal(c.testStats().connections, 0);
});

test("once open: a ping at once, the stats request when wanted, then what the decoder takes", async () => {
  const { c, conn, status, decoder } = client({ wantStats: true });
  c.start();
  conn.open();
  assert.equal(c.connectionState, "connected");
  assert.deepEqual(status.calls.at(-1), ["connected"]);
  assert.equal(decoder.resets, 1, "a new connection starts the decoder afresh");
  assert.equal(conn.sent[0].type, "ping");
  assert.equal(typeof conn.sent[0].t, "number");
  assert.deepEqual(conn.sent[1], { type: "stats", enabled: true });
  await settle();
  // No WebCodecs here: the decoder takes 4:2:0 only.
  assert.deepEqual(conn.of("decoder"), [{ type: "decoder", avc444: false }]);
  const s = c.testStats();
  assert.equal(s.state, "connected");
  assert.equal(s.connected, true);
  assert.equal(s.connections, 1);
});

test("without ?stats nothing asks for the server's figures until the overlay does", () => {
  const { c, conn } = client();
  c.start();
  conn.open();
  assert.deepEqual(conn.of("stats"), []);
  c.setStatsWanted(true);
  assert.deepEqual(conn.of("stats"), [{ type: "stats", enabled: true }]);
  conn.text({ type: "stats", encodes: 2, kbps: 1234 });
  assert.deepEqual(c.figures().server, { type: "stats", encodes: 2, kbps: 1234 });
  c.setStatsWanted(true);
  assert.equal(conn.of("stats").length, 1, "the same wish is not sent again");
  c.setStatsWanted(false);
  assert.deepEqual(conn.of("stats").at(-1), { type: "stats", enabled: false });
  assert.equal(c.figures().server, null, "the server's figures go with the overlay");
});

test("a pong sets the clock: round trip and offset in the stats", () => {
  const { c, conn } = client();
  c.start();
  conn.open();
  assert.equal(c.testStats().rttMs, null);
  assert.equal(c.testStats().clockOffsetMs, null);
  const ping = conn.of("ping")[0];
  // The server's clock is 5 s ahead of the page's.
  const serverUs = (performance.timeOrigin + performance.now() + 5000) * 1000;
  conn.text({ type: "pong", t: ping.t, server_us: serverUs });
  const s = c.testStats();
  assert.ok(s.rttMs !== null && s.rttMs >= 0 && s.rttMs < 1000, `rtt ${s.rttMs}`);
  assert.ok(Math.abs(s.clockOffsetMs - 5000) < 1000, `offset ${s.clockOffsetMs}`);
  assert.equal(c.figures().rttMs, s.rttMs);
});

test("hello and the session's messages reach the panel; a newer protocol only warns", () => {
  const { c, conn, session } = client();
  c.start();
  conn.open();
  conn.text({ ...hello, microphone: true });
  assert.deepEqual(session.named("hello"), [["hello", { ...hello, microphone: true }]]);
  assert.equal(c.audioControls.element.hidden, false, "the microphone switch shows");
  assert.equal(c.audioControls.element.find("audio-microphone").hidden, false);
  assert.deepEqual(warnings, []);

  conn.text({ ...hello, version: P.PROTOCOL_VERSION + 1 });
  assert.equal(session.named("hello").length, 2, "still read");
  assert.match(warnings.join("\n"), /server speaks protocol 2, this page 1/);
  assert.equal(c.audioControls.element.find("audio-microphone").hidden, true, "no microphone offered this time");

  const settings = { type: "settings", max_fps: 30, max_kbps: 0, name: "Ann", server_max_fps: 60, server_max_kbps: 0 };
  conn.text(settings);
  assert.deepEqual(session.named("settingsApplied"), [["settingsApplied", settings]]);

  const viewers = { type: "viewers", you: 3, holder: 3, timeout_s: 30, more: 0, viewers: [{ id: 3, role: "full", name: "Ann", requesting: false }] };
  conn.text(viewers);
  assert.deepEqual(session.named("viewersChanged"), [["viewersChanged", viewers]]);
});

test("interaction turns input on: keyboard, clipboard, the panel and the resize rule hear it", () => {
  const { c, conn, session, press } = client();
  c.start();
  conn.open();
  assert.equal(c.interaction.state().input, false);
  press("KeyA", "a");
  assert.deepEqual(conn.of("key"), [], "no input before the server allows it");
  conn.text(interaction);
  press("KeyA", "a");
  assert.deepEqual(conn.of("key"), [{ type: "key", code: "KeyA", key: "a", down: true, mods: 0 }]);
  const s = c.interaction.state();
  assert.equal(s.input, true);
  assert.equal(s.viewOnly, false);
  assert.equal(s.clipboard.mode, "both");
  assert.deepEqual(session.named("interaction"), [["interaction", interaction]]);
  assert.equal(document.activeElement?.tagName, "TEXTAREA", "the keyboard's sink takes the focus");
  assert.equal(c.sizer.snapshot().viewOnly, false);

  // View-only: no input, no clipboard, and the desktop's size is not ours.
  conn.text({ ...interaction, view_only: true });
  assert.equal(c.interaction.state().input, false);
  assert.equal(c.interaction.state().viewOnly, true);
  assert.equal(c.interaction.state().clipboard.mode, "off");
  assert.equal(c.sizer.snapshot().viewOnly, true);
});

test("cursor, clipboard and clipboard errors go to the interaction", async () => {
  const { c, conn, page } = client();
  c.start();
  conn.open();
  conn.text(interaction);
  conn.text({ type: "cursor", serial: 4, hidden: true });
  assert.deepEqual(c.interaction.state().cursor, { serial: 4, hidden: true, hotX: 0, hotY: 0, width: 0, height: 0, css: "none" });

  conn.text({ type: "clipboard", mime: "text/plain", text: "from the desktop" });
  await settle();
  assert.equal(c.interaction.state().clipboard.desktopText, "from the desktop");
  assert.deepEqual(page.written, ["from the desktop"], "written to the browser's clipboard");

  conn.text({ type: "clipboard_error", message: "too large" });
  assert.equal(c.interaction.state().clipboard.error, "too large");
});

test("a refused input says who has control in the status line; the panel hears it", () => {
  const { c, conn, session, statusLine } = client();
  c.start();
  conn.open();
  conn.text(interaction);
  const refused = { type: "refused", what: "input", reason: P.REFUSED_CONTROL_REASON };
  conn.text(refused);
  assert.match(statusLine().textContent, /^Another viewer has control: request it in the panel/);
  assert.deepEqual(session.named("refused"), [["refused", refused]]);
  assert.equal(c.interaction.state().refused, `input: ${P.REFUSED_CONTROL_REASON}`);

  conn.text({ type: "refused", what: "input", reason: "view-only" });
  assert.equal(statusLine().textContent, "Input refused: view-only");
  // Refusals of other things only reach the panel and the interaction.
  conn.text({ type: "refused", what: "resize", reason: "not the holder" });
  assert.equal(statusLine().textContent, "Input refused: view-only");
  assert.equal(session.named("refused").length, 3);

  // Control comes back to this viewer: the refusal is over.
  conn.text({ type: "viewers", you: 3, holder: 3, timeout_s: 30, more: 0, viewers: [{ id: 3, role: "full", name: "", requesting: false }] });
  assert.equal(c.interaction.state().refused, null);
});

test("resize: the view takes the scale and the stage's size is asked for at once", () => {
  const { c, conn, view, statusLine } = client({ stage: { width: 1280, height: 720 } });
  c.start();
  conn.open();
  conn.text(interaction);
  conn.text({ type: "resize", enabled: true, holder: true, policy: "last-input", scale: 1.5, min_width: 320, min_height: 240, max_width: 3840, max_height: 2160 });
  assert.deepEqual(view.resizeScales, [1.5]);
  assert.deepEqual(conn.of("resize"), [{ type: "resize", width: 1280, height: 720 }]);
  assert.equal(statusLine().textContent, "desktop follows this window");
  const r = c.sizer.snapshot();
  assert.equal(r.enabled, true);
  assert.equal(r.holder, true);
  assert.deepEqual(r.lastSent, { width: 1280, height: 720 });

  conn.text({ type: "resize", enabled: false, reason: "no RandR" });
  assert.deepEqual(view.resizeScales, [1.5, null]);
  assert.match(statusLine().textContent, /desktop cannot follow: no RandR/);
});

test("video: the decoder is configured, binary frames decoded and counted, decoded frames acked", () => {
  const { c, conn, decoder, status, view } = client();
  c.start();
  conn.open();
  conn.text({ type: "video", codec: "avc1.42E01F", width: 640, height: 480 });
  assert.deepEqual(decoder.configs, [{ codec: "avc1.42E01F", width: 640, height: 480, stripe: 0, stripes: 1, bandY: 0, bandHeight: 480 }]);

  const before = performance.timeOrigin + performance.now();
  const buf = videoMessage({ frameId: 7, payload: [1, 2, 3, 4, 5] });
  conn.binaryMessage(buf);
  assert.equal(decoder.decodes.length, 1);
  const d = decoder.decodes[0];
  assert.equal(d.buf, buf, "the whole message, not a copy");
  assert.equal(d.h.frameId, 7);
  assert.equal(d.h.key, true);
  assert.equal(d.h.payloadOffset, P.VIDEO_STAMPS_HEADER_BYTES);
  assert.ok(d.receivedAt >= before && d.receivedAt <= performance.timeOrigin + performance.now());
  assert.equal(c.figures().kbps, (5 * 8) / 1000, "the payload's bytes, not the header's");
  assert.equal(c.connectionState, "connected", "received is not shown");

  // The decoder reports the frame: acked, and the overlay makes way.
  c.videoEvents.decoded({ frameId: 7, captureUs: d.h.captureUs, decodeMs: 1.23456, queued: 2, receivedAt: d.receivedAt - 10, stripes: 1 });
  const [ack] = conn.of("ack");
  assert.equal(ack.id, 7);
  assert.equal(ack.decode_ms, 1.235);
  assert.equal(ack.queued, 2);
  assert.ok(ack.hold_ms >= 10, `held since it arrived: ${ack.hold_ms}`);
  assert.equal(Math.round(ack.hold_ms * 1000), ack.hold_ms * 1000, "rounded to µs");
  assert.equal(c.connectionState, "streaming");
  assert.equal(status.named("hide").length, 1);

  c.videoEvents.drawn({ frameId: 7, width: 640, height: 480 });
  assert.deepEqual(view.shownSizes, [[640, 480]]);
  c.videoEvents.decoded({ frameId: 8, captureUs: d.h.captureUs, decodeMs: 1, queued: 0, receivedAt: d.receivedAt, stripes: 1 });
  assert.equal(status.named("hide").length, 1, "hidden once");
  c.videoEvents.skipped();
  c.videoEvents.dropped();
  const s = c.testStats();
  assert.deepEqual(
    [s.framesDecoded, s.framesDrawn, s.framesSkipped, s.droppedFrames, s.lastFrameId, s.width, s.height, s.codec, s.drawer],
    [2, 1, 1, 1, 8, 640, 480, "avc1.42E01F", "main thread"],
  );
  assert.equal(s.latencyMs, null, "no latency before the clocks are related");
});

test("binary: desktop sound goes to the audio player, anything unreadable nowhere", () => {
  const { c, conn, decoder } = client();
  c.start();
  conn.open();
  conn.text({ type: "audio", codec: "opus", rate: 48000, channels: 2 });
  assert.equal(c.audioControls.element.hidden, false, "the sound controls show");
  const player = FakeAudioDecoder.made.at(-1);
  assert.equal(player.config.sampleRate, 48000);
  assert.equal(player.config.numberOfChannels, 2);

  conn.binaryMessage(audioMessage(1, 1_700_000_000_000_000, [0xf8, 0xff, 0xfe]));
  assert.equal(player.chunks.length, 1);
  assert.deepEqual([...player.chunks[0].data], [0xf8, 0xff, 0xfe], "the Opus packet after the header");
  assert.equal(player.chunks[0].timestamp, 1_700_000_000_000_000);
  assert.equal(c.audioStats().packets, 1);
  assert.equal(decoder.decodes.length, 0, "not video");

  // Too short, an unknown kind, a header longer than the message.
  const unknown = new Uint8Array(64);
  unknown[0] = 9;
  const overlong = new Uint8Array(videoMessage());
  new DataView(overlong.buffer).setUint16(2, 4096, true);
  for (const buf of [new ArrayBuffer(3), unknown.buffer, overlong.buffer]) conn.binaryMessage(buf);
  assert.equal(decoder.decodes.length, 0);
  assert.equal(c.audioStats().packets, 1);
  assert.equal(c.figures().kbps, 0);
});

test("malformed and unknown text messages change nothing and send nothing", () => {
  const { c, conn, session, status, decoder } = client();
  c.start();
  conn.open();
  const sent = conn.sent.length;
  const statusCalls = status.calls.length;
  for (const m of ["not json", "42", "null", JSON.stringify({ type: "teleport" }), JSON.stringify({ type: "video", codec: "" }), JSON.stringify({ type: "pong", t: "soon" })]) {
    conn.text(m);
  }
  assert.equal(conn.sent.length, sent);
  assert.equal(status.calls.length, statusCalls);
  assert.deepEqual(session.calls, []);
  assert.deepEqual(decoder.configs, []);
  assert.equal(c.connectionState, "connected");
});

test("a lost connection resets the session; the next one starts afresh", () => {
  const { c, conn, view, status, session, decoder, press } = client();
  c.start();
  conn.open();
  conn.text(interaction);
  conn.text({ type: "cursor", serial: 1, hidden: true });
  c.videoEvents.decoded({ frameId: 1, captureUs: 0, decodeMs: 1, queued: 0, receivedAt: 0, stripes: 1 });
  assert.equal(c.connectionState, "streaming");

  conn.close("connection lost", 12345, ["the server restarted"]);
  assert.equal(c.connectionState, "reconnecting");
  assert.deepEqual(status.calls.at(-1), ["reconnecting", "connection lost", 12345, ["the server restarted"]]);
  assert.equal(view.cleared, 1, "no stale picture");
  assert.deepEqual(session.named("disconnected"), [["disconnected"]]);
  assert.equal(decoder.resets, 2);
  const s = c.testStats();
  assert.equal(s.connected, false);
  assert.equal(s.lastError, "connection lost: the server restarted");
  assert.equal(c.interaction.state().cursor, null, "the cursor shape is the next connection's");

  // Nothing goes out while closed: a key frame request is not counted.
  c.videoEvents.needKeyFrame("decode error");
  assert.equal(c.testStats().keyframeRequests, 0);

  const pings = conn.of("ping").length;
  conn.open();
  assert.equal(c.connectionState, "connected");
  assert.equal(c.testStats().connections, 2);
  assert.equal(conn.of("ping").length, pings + 1, "the clock starts again");
  assert.equal(decoder.resets, 3);
  press("KeyB", "b");
  assert.deepEqual(conn.of("key"), [], "input off until the server allows it again");
  c.videoEvents.needKeyFrame("decode error");
  assert.deepEqual(conn.of("keyframe"), [{ type: "keyframe", reason: "decode error" }]);
  assert.equal(c.testStats().keyframeRequests, 1);
});

test("a refused stream says why and how to fix it, and stays", () => {
  const { c, conn, view, status, session } = client();
  c.start();
  conn.refuse({ final: true, title: "voxl refused this page's address", lines: ["this page's origin is not voxl's", "pass the Host header"] });
  assert.equal(c.connectionState, "error");
  assert.deepEqual(status.calls.at(-1), [
    "blocked",
    "voxl refused this page's address",
    ["this page's origin is not voxl's", "pass the Host header", "Reload the page once it is fixed."],
  ]);
  assert.equal(c.testStats().lastError, "voxl refused this page's address: this page's origin is not voxl's pass the Host header");
  assert.equal(view.cleared, 1);
  assert.deepEqual(session.named("disconnected"), [["disconnected"]]);
  assert.equal(conn.starts, 1, "no retry from the client");
});

test("a fatal decoder error holds the picture until the next video message", () => {
  const { c, conn, view, status } = client();
  c.start();
  conn.open();
  c.videoEvents.error("a passing hiccup", false);
  assert.equal(c.connectionState, "connected");
  assert.equal(c.testStats().errors, 1);
  assert.equal(c.testStats().lastError, "a passing hiccup");

  c.videoEvents.error("cannot decode avc1.F4002A", true);
  assert.equal(c.connectionState, "error");
  assert.deepEqual(status.calls.at(-1), ["error", "Cannot show the stream", "cannot decode avc1.F4002A"]);
  assert.equal(view.cleared, 1);
  assert.equal(c.testStats().errors, 2);
  assert.match(warnings.join("\n"), /cannot decode avc1\.F4002A/);

  conn.text({ type: "video", codec: "avc1.42E01F", width: 640, height: 480 });
  assert.equal(c.connectionState, "connected");
  assert.deepEqual(status.calls.at(-1), ["connected"]);
});

test("the panel's own messages go out as they are", () => {
  const { c, conn } = client();
  c.start();
  assert.equal(c.sendPanelMessage({ type: "control", action: "request" }), false, "not while closed");
  conn.open();
  assert.equal(c.sendPanelMessage({ type: "control", action: "request" }), true);
  assert.equal(c.sendPanelMessage({ type: "settings", max_fps: 30 }), true);
  assert.deepEqual(conn.sent.slice(-2), [
    { type: "control", action: "request" },
    { type: "settings", max_fps: 30 },
  ]);
});
