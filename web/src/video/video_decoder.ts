// Wraps WebCodecs' VideoDecoder for a live stream: holds back delta frames
// until a key frame can start the picture, rebuilds itself after a decode
// error, and remembers when each frame went in so its decode time is known.
// One per stream: a striped picture has one per stripe (video_renderer.ts).

import { undecodableMessage } from "./decoder_hint";
import type { VideoHeader } from "../protocol/messages";

// What the decoder needs of a video message's header.
export type ChunkInfo = Pick<VideoHeader, "key" | "frameId" | "captureUs">;

export interface DecodedFrame<T extends ChunkInfo = ChunkInfo> {
  frame: VideoFrame; // the receiver must close it
  frameId: number;
  captureUs: number;
  decodeMs: number; // decode() call to output
  queued: number; // frames still waiting in the decoder
  receivedAt: number; // as given to decode()
  chunk: T; // what decode() was given with it
}

export interface DecoderEvents<T extends ChunkInfo = ChunkInfo> {
  frame(f: DecodedFrame<T>): void;
  dropped(): void;
  // Decoding cannot go on without a key frame from the server.
  needKeyFrame(reason: string): void;
  // A recoverable error was counted (fatal = false), or decoding is impossible
  // with this configuration (fatal = true) until the next one.
  error(message: string, fatal: boolean): void;
}

interface Pending<T> {
  timestamp: number;
  chunk: T;
  startedAt: number;
  receivedAt: number;
}

// A frame that never comes out (the decoder may skip one) must not pin the
// bookkeeping forever.
const MAX_PENDING = 120;
// While waiting for a key frame, ask again at most this often.
const KEY_REQUEST_INTERVAL_MS = 1000;

export class StreamDecoder<T extends ChunkInfo = ChunkInfo> {
  private decoder: VideoDecoder | null = null;
  private config: VideoDecoderConfig | null = null;
  private waitingForKey = true;
  private fatal = false;
  private pending: Pending<T>[] = [];
  private lastKeyRequest = -Infinity;

  constructor(private readonly events: DecoderEvents<T>) {}

  get queueSize(): number {
    return this.decoder?.decodeQueueSize ?? 0;
  }

  get codec(): string | null {
    return this.config?.codec ?? null;
  }

  configure(codec: string, width: number, height: number): void {
    this.config = {
      codec,
      codedWidth: width,
      codedHeight: height,
      optimizeForLatency: true,
      hardwareAcceleration: "no-preference",
      // The server encodes BT.601 limited range and says so in the stream;
      // stating it here too keeps decoders that ignore the VUI from
      // assuming BT.709.
      colorSpace: { primaries: "smpte170m", transfer: "smpte170m", matrix: "smpte170m", fullRange: false },
    };
    this.fatal = false;
    this.waitingForKey = true;
    // Reusing a working decoder keeps frames already queued; they still
    // deserve to be shown and acknowledged.
    if (this.decoder?.state === "configured") this.apply(this.decoder);
    else this.rebuild();
  }

  // Forgets everything, as for a new connection.
  reset(): void {
    this.closeDecoder();
    this.config = null;
    this.fatal = false;
    this.waitingForKey = true;
    this.lastKeyRequest = -Infinity;
  }

  // Returns false when the frame was not handed to the decoder.
  // `receivedAt`: when the message arrived, in any clock the caller likes;
  // handed back with the frame.
  decode(h: T, data: Uint8Array, receivedAt = 0): boolean {
    if (!this.decoder || this.fatal || (this.waitingForKey && !h.key)) {
      this.drop();
      return false;
    }
    this.waitingForKey = false;
    const startedAt = performance.now();
    try {
      this.decoder.decode(
        new EncodedVideoChunk({ type: h.key ? "key" : "delta", timestamp: h.captureUs, data }),
      );
    } catch (e) {
      this.failed(e);
      return false;
    }
    this.pending.push({ timestamp: h.captureUs, chunk: h, startedAt, receivedAt });
    if (this.pending.length > MAX_PENDING) this.pending.shift();
    return true;
  }

  private drop(): void {
    this.events.dropped();
    const now = performance.now();
    if (this.decoder && !this.fatal && now - this.lastKeyRequest >= KEY_REQUEST_INTERVAL_MS) {
      this.requestKey("waiting for key frame", now);
    }
  }

  private requestKey(reason: string, now: number = performance.now()): void {
    this.lastKeyRequest = now;
    this.events.needKeyFrame(reason);
  }

  private rebuild(): void {
    this.closeDecoder();
    if (!this.config) return;
    const dec: VideoDecoder = new VideoDecoder({
      output: (frame) => this.output(dec, frame),
      error: (e) => {
        if (this.decoder === dec) this.failed(e);
      },
    });
    this.decoder = dec;
    this.apply(dec);
  }

  private apply(dec: VideoDecoder): void {
    if (!this.config) return;
    try {
      dec.configure(this.config);
    } catch (e) {
      // configure() throws only for a config that can never be valid.
      this.fatal = true;
      this.events.error(`cannot configure ${this.config.codec}: ${describe(e)}`, true);
    }
  }

  private closeDecoder(): void {
    const dec = this.decoder;
    this.decoder = null;
    this.pending = [];
    if (dec && dec.state !== "closed") dec.close();
  }

  private failed(e: unknown): void {
    if (e instanceof DOMException && e.name === "NotSupportedError") {
      this.fatal = true;
      this.closeDecoder();
      this.events.error(undecodableMessage(this.config?.codec ?? null, navigator.userAgent), true);
      return;
    }
    this.events.error(`decoder error: ${describe(e)}`, false);
    this.rebuild();
    this.waitingForKey = true;
    this.requestKey("decoder error");
  }

  private output(dec: VideoDecoder, frame: VideoFrame): void {
    if (this.decoder !== dec) {
      frame.close();
      return;
    }
    // Output follows input order, so entries older than the match belong to
    // frames the decoder skipped. Should a browser alter timestamps, input
    // order alone still pairs them up.
    const i = this.pending.findIndex((q) => q.timestamp === frame.timestamp);
    const p = this.pending[Math.max(i, 0)];
    if (!p) {
      frame.close();
      return;
    }
    this.pending.splice(0, Math.max(i, 0) + 1);
    this.events.frame({
      frame,
      frameId: p.chunk.frameId,
      captureUs: p.chunk.captureUs,
      decodeMs: performance.now() - p.startedAt,
      queued: dec.decodeQueueSize,
      receivedAt: p.receivedAt,
      chunk: p.chunk,
    });
  }
}

function describe(e: unknown): string {
  if (e instanceof Error || e instanceof DOMException) return e.message || e.name;
  return String(e);
}
