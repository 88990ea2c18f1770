// A striped stream (the server's --stripes), without a browser: the stripe
// part of the video header and of the "video" message, where each band is
// drawn, which frames the layout bookkeeping keeps from the picture, what
// counts as a picture for the frame rate, and the renderer end to end
// (one decoder per stripe, a decoder error in one stripe) on a fake
// WebCodecs VideoDecoder.
// The TypeScript is bundled in memory (bundle.mjs).
//
//   node --test web/test/stripe_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";
import { stripeBands } from "./stripe_bands.mjs";

const protocol = await load("src/protocol/messages.ts");
const { readVideoHeader, parseServerMessage, videoConfig, validStripe, VIDEO_STRIPE_HEADER_BYTES, VIDEO_STAMPS_HEADER_BYTES, MAX_STRIPES } =
  protocol;
const { bandRect, pictureSize, LayoutGenerations, PictureCounter } = await load("src/video/stripes.ts");
const { CanvasDrawer } = await load("src/video/canvas_drawer.ts");
const { VideoRenderer } = await load("src/video/video_renderer.ts");

// A video message as the server writes it (src/stream/viewer/wire_format.cpp).
function message({ headerBytes = 52, key = true, frameId = 7, captureUs = 123456789, width = 640, height = 480, stripe, payload = [9, 9] } = {}) {
  const buf = new ArrayBuffer(headerBytes + payload.length);
  const v = new DataView(buf);
  v.setUint8(0, 1);
  v.setUint8(1, key ? 1 : 0);
  v.setUint16(2, headerBytes, true);
  v.setUint32(4, frameId, true);
  v.setBigUint64(8, BigInt(captureUs), true);
  v.setUint16(16, width, true);
  v.setUint16(18, height, true);
  v.setUint32(20, 1500, true);
  if (stripe) {
    v.setUint8(44, stripe.stripe);
    v.setUint8(45, stripe.stripes);
    v.setUint16(46, stripe.bandY, true);
    v.setUint16(48, stripe.bandHeight, true);
  }
  new Uint8Array(buf, headerBytes).set(payload);
  return buf;
}

const bands = stripeBands;

test("the header constants are the server's", () => {
  assert.equal(VIDEO_STAMPS_HEADER_BYTES, 44);
  assert.equal(VIDEO_STRIPE_HEADER_BYTES, 52);
  assert.equal(MAX_STRIPES, 16);
});

test("a header without the stripe part is stripe 0 of 1, its band the whole picture", () => {
  for (const headerBytes of [24, 44, 48]) {
    const h = readVideoHeader(message({ headerBytes }));
    assert.ok(h, `header_bytes ${headerBytes}`);
    assert.deepEqual(
      { stripe: h.stripe, stripes: h.stripes, bandY: h.bandY, bandHeight: h.bandHeight, width: h.width, height: h.height },
      { stripe: 0, stripes: 1, bandY: 0, bandHeight: 480, width: 640, height: 480 },
    );
    assert.equal(h.payloadOffset, headerBytes);
  }
});

test("the stripe part is read where the server writes it", () => {
  const h = readVideoHeader(message({ frameId: 0x01020304, stripe: { stripe: 2, stripes: 4, bandY: 240, bandHeight: 112 } }));
  assert.equal(h.stripe, 2);
  assert.equal(h.stripes, 4);
  assert.equal(h.bandY, 240);
  assert.equal(h.bandHeight, 112);
  assert.equal(h.width, 640, "the whole picture's width");
  assert.equal(h.height, 480, "the whole picture's height");
  assert.equal(h.frameId, 0x01020304);
  assert.equal(h.payloadOffset, 52);
  assert.deepEqual([...new Uint8Array(message({ stripe: { stripe: 0, stripes: 2, bandY: 0, bandHeight: 240 } }), h.payloadOffset)], [9, 9]);
  // A longer header (a newer server) keeps its stripe part at 44.
  const longer = readVideoHeader(message({ headerBytes: 60, stripe: { stripe: 1, stripes: 2, bandY: 240, bandHeight: 240 } }));
  assert.equal(longer.stripe, 1);
  assert.equal(longer.payloadOffset, 60);
});

test("a stripe part that names no band of the picture makes the message unreadable", () => {
  const bad = [
    { stripe: 0, stripes: 0, bandY: 0, bandHeight: 480 }, // no streams
    { stripe: 0, stripes: 17, bandY: 0, bandHeight: 32 }, // past MAX_STRIPES
    { stripe: 4, stripes: 4, bandY: 0, bandHeight: 112 }, // stripe past the count
    { stripe: 3, stripes: 4, bandY: 400, bandHeight: 112 }, // past the bottom
    { stripe: 3, stripes: 4, bandY: 480, bandHeight: 0 }, // empty, at the bottom
    { stripe: 1, stripes: 4, bandY: 112, bandHeight: 0 }, // empty
    { stripe: 1, stripes: 4, bandY: 113, bandHeight: 112 }, // odd row
    { stripe: 1, stripes: 4, bandY: 112, bandHeight: 111 }, // odd height
    { stripe: 0, stripes: 1, bandY: 0, bandHeight: 240 }, // one stream that is not the whole picture
  ];
  for (const stripe of bad) assert.equal(readVideoHeader(message({ stripe })), null, JSON.stringify(stripe));
  // A picture of no rows has no bands.
  assert.equal(readVideoHeader(message({ height: 0, stripe: { stripe: 0, stripes: 2, bandY: 0, bandHeight: 0 } })), null);
  // One stream, said in full, is fine.
  assert.ok(readVideoHeader(message({ stripe: { stripe: 0, stripes: 1, bandY: 0, bandHeight: 480 } })));
});

test("every band of the server's layouts passes", () => {
  for (const [height, n] of [[480, 4], [480, 2], [1080, 4], [1080, 16], [1082, 3], [720, 7], [64, 2]]) {
    const layout = bands(height, n);
    layout.forEach((b, i) => {
      const part = { stripe: i, stripes: layout.length, bandY: b.y, bandHeight: b.h };
      assert.ok(validStripe(part, height), `${height} rows, ${n} stripes: ${JSON.stringify(part)}`);
      assert.ok(readVideoHeader(message({ height, stripe: part })));
    });
  }
});

test("the video message: whole, or one stripe with all four fields", () => {
  const whole = { type: "video", codec: "avc1.42E01F", width: 640, height: 480 };
  assert.deepEqual(parseServerMessage(JSON.stringify(whole)), whole);
  assert.deepEqual(videoConfig(whole), { codec: "avc1.42E01F", width: 640, height: 480, stripe: 0, stripes: 1, bandY: 0, bandHeight: 480 });

  const band = { ...whole, stripe: 1, stripes: 4, band_y: 128, band_height: 112 };
  assert.deepEqual(parseServerMessage(JSON.stringify(band)), band);
  assert.deepEqual(videoConfig(band), { codec: "avc1.42E01F", width: 640, height: 480, stripe: 1, stripes: 4, bandY: 128, bandHeight: 112 });

  const bad = [
    { stripe: 1, stripes: 4, band_y: 128 }, // a field missing
    { stripe: 1 }, // a stripe of no count
    { stripes: 4 },
    { ...band, stripe: "1" },
    { ...band, stripes: 4.5 },
    { ...band, stripes: 0 },
    { ...band, stripes: 17 },
    { ...band, stripe: 4 },
    { ...band, stripe: -1 },
    { ...band, band_y: 400 }, // past the bottom
    { ...band, band_y: 127 }, // odd
    { ...band, band_height: 0 },
    { ...band, band_height: null },
    { ...band, height: 480.5 },
    { ...band, width: 0 },
  ];
  for (const b of bad) {
    assert.equal(parseServerMessage(JSON.stringify({ ...whole, ...b })), null, JSON.stringify(b));
  }
});

test("hello's stripes: optional, a count of streams", () => {
  const hello = { type: "hello", version: 1, server: "voxl", id: 1, files: false };
  assert.deepEqual(parseServerMessage(JSON.stringify(hello)), hello);
  assert.equal(parseServerMessage(JSON.stringify({ ...hello, stripes: 4 })).stripes, 4);
  assert.equal(parseServerMessage(JSON.stringify({ ...hello, stripes: 1 })).stripes, 1);
  for (const stripes of [0, 17, 2.5, "4", null]) {
    assert.equal(parseServerMessage(JSON.stringify({ ...hello, stripes })), null, `stripes ${JSON.stringify(stripes)}`);
  }
});

const place = (stripe, stripes, bandY, bandHeight, width = 640, height = 480) => ({ stripe, stripes, bandY, bandHeight, width, height });

test("a band goes at its rows of a canvas of the whole picture; a whole frame sizes the canvas itself", () => {
  assert.deepEqual(bandRect(place(2, 4, 256, 112), 640, 112), { canvasWidth: 640, canvasHeight: 480, x: 0, y: 256, width: 640, height: 112 });
  // Unstriped: the frame's own size, as it always was (even should the header differ).
  assert.deepEqual(bandRect(place(0, 1, 0, 480), 800, 600), { canvasWidth: 800, canvasHeight: 600, x: 0, y: 0, width: 800, height: 600 });
  assert.deepEqual(pictureSize(place(3, 4, 368, 112), 640, 112), { width: 640, height: 480 });
  assert.deepEqual(pictureSize(place(0, 1, 0, 480), 800, 600), { width: 800, height: 600 });
});

test("layouts: a frame of a layout already replaced is stale, the first of a newer one says so", () => {
  const l = new LayoutGenerations();
  const a = [0, 1, 2, 3].map((i) => l.tag(place(i, 4, i * 128, 112)));
  assert.deepEqual(a, [0, 0, 0, 0], "one layout");
  // A resize: stripe 0 of the new size comes first.
  const b0 = l.tag(place(0, 4, 0, 144, 800, 600));
  const b1 = l.tag(place(1, 4, 144, 144, 800, 600));
  assert.equal(b0, 1);
  assert.equal(b1, 1);
  // The decoders' output: old stripe 0, new stripe 0, then an old stripe 1
  // that its decoder still held.
  assert.equal(l.admit(a[0]), "show");
  assert.equal(l.admit(b0), "newer");
  assert.equal(l.admit(a[1]), "stale");
  assert.equal(l.admit(b1), "show");
  // Fewer stripes at the same size is a new layout too; a new codec is not.
  assert.equal(l.tag(place(0, 2, 0, 304, 800, 600)), 2);
  assert.equal(l.tag(place(1, 2, 304, 296, 800, 600)), 2);
  // A new connection starts afresh, even at the same layout.
  l.reset();
  assert.equal(l.tag(place(0, 2, 0, 304, 800, 600)), 3);
  assert.equal(l.admit(3), "newer");
});

test("an unstriped stream's layout changes only with its size", () => {
  const l = new LayoutGenerations();
  const g = [l.tag(place(0, 1, 0, 480)), l.tag(place(0, 1, 0, 480)), l.tag(place(0, 1, 0, 600, 800, 600))];
  assert.deepEqual(g, [0, 0, 1]);
  assert.deepEqual(g.map((x) => l.admit(x)), ["show", "show", "newer"]);
});

test("the frame rate counts pictures: a capture's bands once, every unstriped frame", () => {
  const c = new PictureCounter();
  // Key frames of 4 stripes from one capture, then a capture that changed bands 1 and 2.
  const counted = [
    c.count(4, 1000), c.count(4, 1000), c.count(4, 1000), c.count(4, 1000),
    c.count(4, 2000), c.count(4, 2000),
    c.count(4, 3000),
  ];
  assert.deepEqual(counted, [true, false, false, false, true, false, true]);
  // Unstriped: every frame, whatever its time stamp.
  assert.deepEqual([c.count(1, 5000), c.count(1, 5000)], [true, true]);
  c.reset();
  assert.equal(c.count(4, 3000), true);
});

function fakeFrame(id, w = 640, h = 112, timestamp = 0) {
  return { id, displayWidth: w, displayHeight: h, timestamp, closed: 0, close() { this.closed++; } };
}

function fakeCanvas() {
  const calls = [];
  const canvas = {
    width: 300,
    height: 150,
    resized: 0,
    getContext: () => ({ drawImage: (frame, x, y, w, h) => calls.push({ id: frame.id, x, y, w, h, canvas: [canvas.width, canvas.height] }) }),
  };
  return { canvas, calls };
}

test("the canvas drawer composes bands at their rows on a canvas of the picture's size", () => {
  const { canvas, calls } = fakeCanvas();
  const d = new CanvasDrawer(canvas);
  let done = 0;
  const layout = bands(480, 4);
  // 30 macroblock rows: 8, 8, 7 and the last 7.
  assert.deepEqual(layout, [{ y: 0, h: 128 }, { y: 128, h: 128 }, { y: 256, h: 112 }, { y: 368, h: 112 }]);
  layout.forEach((b, i) => d.draw(fakeFrame(`b${i}`, 640, b.h), place(i, 4, b.y, b.h), () => done++));
  assert.equal(done, 4);
  assert.deepEqual(calls, layout.map((b, i) => ({ id: `b${i}`, x: 0, y: b.y, w: 640, h: b.h, canvas: [640, 480] })));
  // An unstriped frame draws at its own size over the whole canvas, as before.
  calls.length = 0;
  d.draw(fakeFrame("whole", 800, 600), place(0, 1, 0, 600, 800, 600), () => done++);
  assert.deepEqual(calls, [{ id: "whole", x: 0, y: 0, w: 800, h: 600, canvas: [800, 600] }]);
});

// --- The renderer on a fake WebCodecs ---

class FakeDecoder {
  static made = [];
  constructor({ output, error }) {
    this.outputCb = output;
    this.errorCb = error;
    this.state = "unconfigured";
    this.decodeQueueSize = 0;
    this.chunks = [];
    FakeDecoder.made.push(this);
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
  // Outputs the oldest chunk not yet output, as a frame of the configured size.
  emit() {
    const c = this.chunks.shift();
    const f = fakeFrame(`${this.config.codedHeight}@${c.timestamp}`, this.config.codedWidth, this.config.codedHeight, c.timestamp);
    this.outputCb(f);
    return f;
  }
}

function withFakeWebCodecs(fn) {
  const saved = { VideoDecoder: globalThis.VideoDecoder, EncodedVideoChunk: globalThis.EncodedVideoChunk };
  globalThis.VideoDecoder = FakeDecoder;
  globalThis.EncodedVideoChunk = class {
    constructor(init) {
      Object.assign(this, init);
    }
  };
  FakeDecoder.made = [];
  try {
    fn();
  } finally {
    Object.assign(globalThis, saved);
  }
}

function renderer() {
  const ticks = [];
  const draws = [];
  const ev = { decoded: [], drawn: [], skipped: 0, dropped: 0, keyframes: [], errors: [] };
  const sink = {
    draw: (frame, p, done) => {
      draws.push({ frame: frame.id, stripe: p.stripe, y: p.bandY, h: p.bandHeight });
      done();
    },
  };
  const r = new VideoRenderer(sink, (cb) => ticks.push(cb), 0, {
    decoded: (d) => ev.decoded.push(d),
    drawn: (d) => ev.drawn.push(d),
    skipped: () => ev.skipped++,
    dropped: () => ev.dropped++,
    needKeyFrame: (reason) => ev.keyframes.push(reason),
    error: (message, fatal) => ev.errors.push({ message, fatal }),
    marker: () => {},
  });
  const tick = () => ticks.splice(0).forEach((cb) => cb());
  return { r, draws, ev, tick };
}

// What the server sends for a capture: a "video" message per stripe whose
// config changed, then the stripes' frames in order.
function chunk(i, layout, { key = true, frameId, captureUs, width = 640, height = 480 }) {
  const b = layout[i];
  return { key, frameId, captureUs, width, height, stripe: i, stripes: layout.length, bandY: b.y, bandHeight: b.h };
}

test("renderer: one decoder per stripe, each band drawn at its rows, every frame acked", () => {
  withFakeWebCodecs(() => {
    const { r, draws, ev, tick } = renderer();
    const layout = bands(480, 4);
    let id = 0;
    layout.forEach((b, i) => {
      r.configure({ codec: "avc1.42E01F", width: 640, height: 480, stripe: i, stripes: 4, bandY: b.y, bandHeight: b.h });
      r.decode(chunk(i, layout, { frameId: ++id, captureUs: 1000 }), new Uint8Array(1), 0);
    });
    assert.equal(FakeDecoder.made.length, 4, "a decoder per stripe");
    assert.deepEqual(FakeDecoder.made.map((d) => [d.config.codedWidth, d.config.codedHeight]), layout.map((b) => [640, b.h]));
    FakeDecoder.made.forEach((d) => d.emit());
    tick();
    assert.deepEqual(draws.map((d) => [d.stripe, d.y, d.h]), layout.map((b, i) => [i, b.y, b.h]));
    assert.deepEqual(ev.decoded.map((d) => [d.frameId, d.stripes]), [[1, 4], [2, 4], [3, 4], [4, 4]]);
    assert.ok(ev.drawn.every((d) => d.width === 640 && d.height === 480), "the picture's size, not the band's");
    assert.equal(r.codec, "avc1.42E01F");

    // A delta of one band only: that band alone is drawn again.
    draws.length = 0;
    r.decode(chunk(2, layout, { key: false, frameId: ++id, captureUs: 2000 }), new Uint8Array(1), 0);
    FakeDecoder.made[2].emit();
    tick();
    assert.deepEqual(draws.map((d) => d.stripe), [2]);
    assert.equal(ev.skipped, 0);
    assert.deepEqual(ev.errors, []);
  });
});

test("renderer: a decoder error in one stripe asks for a key frame and drops that stripe's deltas only", () => {
  withFakeWebCodecs(() => {
    const { r, draws, ev, tick } = renderer();
    const layout = bands(480, 2);
    let id = 0;
    const keys = (captureUs) =>
      layout.forEach((b, i) => r.decode(chunk(i, layout, { frameId: ++id, captureUs }), new Uint8Array(1), 0));
    layout.forEach((b, i) => r.configure({ codec: "avc1.42E01F", width: 640, height: 480, stripe: i, stripes: 2, bandY: b.y, bandHeight: b.h }));
    keys(1000);
    FakeDecoder.made.forEach((d) => d.emit());
    tick();
    assert.equal(draws.length, 2);

    // Stripe 1's decoder fails: rebuilt, and a key frame is asked for.
    const broken = FakeDecoder.made[1];
    broken.errorCb(new Error("corrupt"));
    assert.deepEqual(ev.keyframes, ["decoder error"]);
    assert.equal(ev.errors.length, 1);
    assert.equal(ev.errors[0].fatal, false);
    const rebuilt = FakeDecoder.made[2];
    assert.ok(rebuilt && rebuilt.state === "configured", "stripe 1 has a new decoder");

    // Deltas: stripe 1's is dropped until its key frame, stripe 0's decodes.
    r.decode(chunk(0, layout, { key: false, frameId: ++id, captureUs: 2000 }), new Uint8Array(1), 0);
    r.decode(chunk(1, layout, { key: false, frameId: ++id, captureUs: 2000 }), new Uint8Array(1), 0);
    assert.equal(ev.dropped, 1);
    assert.equal(rebuilt.chunks.length, 0);
    assert.equal(FakeDecoder.made[0].chunks.length, 1);
    FakeDecoder.made[0].emit();
    tick();
    assert.deepEqual(draws.slice(2).map((d) => d.stripe), [0]);

    // The key frames of every stripe start stripe 1 again.
    keys(3000);
    assert.equal(rebuilt.chunks.length, 1);
    FakeDecoder.made[0].emit();
    rebuilt.emit();
    tick();
    assert.deepEqual(draws.slice(3).map((d) => d.stripe), [0, 1]);
  });
});

test("renderer: a new layout drops the old one's bands, waiting or late, and its decoders past the new count", () => {
  withFakeWebCodecs(() => {
    const { r, draws, ev, tick } = renderer();
    const four = bands(480, 4);
    let id = 0;
    four.forEach((b, i) => r.configure({ codec: "avc1.42E01F", width: 640, height: 480, stripe: i, stripes: 4, bandY: b.y, bandHeight: b.h }));
    four.forEach((b, i) => r.decode(chunk(i, four, { frameId: ++id, captureUs: 1000 }), new Uint8Array(1), 0));
    const old = FakeDecoder.made.slice();
    old[0].emit();
    old[1].emit();
    tick();
    assert.equal(draws.length, 2);
    // A delta of stripe 1 that its decoder still holds when the picture changes.
    r.decode(chunk(1, four, { key: false, frameId: 99, captureUs: 1500 }), new Uint8Array(1), 0);

    // A resize to 800x600 in 2 stripes: stripes 2 and 3 go; their frames never show.
    const two = bands(600, 2);
    r.configure({ codec: "avc1.42E01F", width: 800, height: 600, stripe: 0, stripes: 2, bandY: two[0].y, bandHeight: two[0].h });
    assert.equal(old[2].state, "closed");
    assert.equal(old[3].state, "closed");
    r.decode(chunk(0, two, { frameId: ++id, captureUs: 2000, width: 800, height: 600 }), new Uint8Array(1), 0);
    r.configure({ codec: "avc1.42E01F", width: 800, height: 600, stripe: 1, stripes: 2, bandY: two[1].y, bandHeight: two[1].h });
    r.decode(chunk(1, two, { frameId: ++id, captureUs: 2000, width: 800, height: 600 }), new Uint8Array(1), 0);
    old[0].emit(); // the new stripe 0 (the decoder is reused, reconfigured)
    const late = old[1].emit(); // the old layout's delta, after it
    old[1].emit(); // the new stripe 1
    tick();
    assert.equal(late.closed, 1);
    assert.deepEqual(draws.slice(2).map((d) => [d.stripe, d.y, d.h]), [[0, 0, two[0].h], [1, two[1].y, two[1].h]]);
    assert.ok(ev.drawn.slice(2).every((d) => d.width === 800 && d.height === 600));
    assert.equal(ev.skipped, 1, "the late band counts as skipped");
    assert.ok(ev.decoded.some((d) => d.frameId === 99), "and is acked all the same");

    // Back to one stream: the whole frame draws at its own size.
    r.configure({ codec: "avc1.42E01F", width: 800, height: 600, stripe: 0, stripes: 1, bandY: 0, bandHeight: 600 });
    assert.equal(old[1].state, "closed");
    r.decode({ key: true, frameId: ++id, captureUs: 3000, width: 800, height: 600, stripe: 0, stripes: 1, bandY: 0, bandHeight: 600 }, new Uint8Array(1), 0);
    old[0].emit();
    tick();
    assert.deepEqual(draws.at(-1), { frame: "600@3000", stripe: 0, y: 0, h: 600 });
    assert.deepEqual(ev.errors, []);
  });
});

test("renderer: an unstriped stream behaves as before (one decoder, one frame per animation frame, none lost)", () => {
  withFakeWebCodecs(() => {
    const { r, draws, ev, tick } = renderer();
    r.configure({ codec: "avc1.42E01F", width: 640, height: 480, stripe: 0, stripes: 1, bandY: 0, bandHeight: 480 });
    const whole = (frameId, key) => ({ key, frameId, captureUs: frameId * 1000, width: 640, height: 480, stripe: 0, stripes: 1, bandY: 0, bandHeight: 480 });
    r.decode(whole(1, false), new Uint8Array(1), 0); // a delta before any key frame
    assert.equal(ev.dropped, 1);
    assert.deepEqual(ev.keyframes, ["waiting for key frame"]);
    r.decode(whole(2, true), new Uint8Array(1), 0);
    r.decode(whole(3, false), new Uint8Array(1), 0);
    const d = FakeDecoder.made[0];
    d.emit();
    d.emit();
    tick();
    assert.equal(FakeDecoder.made.length, 1);
    assert.deepEqual(draws.map((x) => x.frame), ["480@2000"]);
    tick();
    assert.deepEqual(draws.map((x) => x.frame), ["480@2000", "480@3000"]);
    assert.equal(ev.skipped, 0);
    assert.deepEqual(ev.decoded.map((x) => [x.frameId, x.stripes]), [[2, 1], [3, 1]]);
    assert.deepEqual(ev.drawn, [{ frameId: 2, width: 640, height: 480 }, { frameId: 3, width: 640, height: 480 }]);
  });
});
