// Decodes the stream and shows it: StreamDecoder -> FramePresenter (the
// newest frame per animation frame, or every frame at once where the sink
// paces itself) -> a FrameSink, every frame closed once drawn or replaced.
// A striped stream (stripes.ts) has a StreamDecoder per stripe, made as its
// first "video" message or frame comes; each band goes to the sink with its
// place in the picture when it decodes, so the sink draws it at its rows.
// Runs in the render worker (render_worker.ts: the frames go to the page's
// video element, or onto the transferred OffscreenCanvas), or on the page's
// own thread where the browser can do neither (main_thread_video.ts). What
// the page needs to know (acks, figures, sizes) leaves through
// RendererEvents.
//
// Owned by one thread, the one that made it.

import { MarkerReader, type MarkerReport } from "./frame_marker";
import { FramePresenter } from "./frame_presenter";
import type { VideoConfig } from "../protocol/messages";
import { LayoutGenerations, pictureSize, type Placement } from "./stripes";
import { StreamDecoder, type ChunkInfo, type DecodedFrame } from "./video_decoder";

export interface DecodedInfo {
  frameId: number;
  captureUs: number;
  decodeMs: number;
  queued: number;
  receivedAt: number; // as given to decode()
  stripes: number; // how many streams the picture was coded as (1: unstriped)
}

export interface DrawnInfo {
  frameId: number;
  // The whole picture's size (a band's frame is smaller).
  width: number;
  height: number;
}

export interface RendererEvents {
  decoded(d: DecodedInfo): void;
  drawn(d: DrawnInfo): void;
  // Decoded but replaced by a newer frame before it could be drawn.
  skipped(): void;
  // Not decoded: no decoder yet, or waiting for a key frame.
  dropped(): void;
  needKeyFrame(reason: string): void;
  error(message: string, fatal: boolean): void;
  marker(r: MarkerReport): void;
}

// Where decoded frames go: draws `frame` where `place` says (an unstriped
// frame is the whole picture) and calls `done` once it no longer needs it.
export interface FrameSink {
  draw(frame: VideoFrame, place: Placement, done: () => void): void;
}

// A video message as its stream's decoder holds it: where its picture goes,
// and the layout it arrived in.
export type Chunk = ChunkInfo & Placement;
interface Tagged extends ChunkInfo {
  place: Placement;
  generation: number;
}

export class VideoRenderer {
  // Index: the stripe; [0] is the unstriped stream's too, and always there.
  private decoders: StreamDecoder<Tagged>[] = [];
  private readonly presenter: FramePresenter<DecodedFrame<Tagged>>;
  private readonly marker: MarkerReader | null;
  private readonly layouts = new LayoutGenerations();

  // `schedule`: the animation-frame clock to draw on, or null to hand every
  // frame to the sink as soon as it is decoded.
  constructor(
    sink: FrameSink,
    schedule: ((cb: () => void) => void) | null,
    markerCell: number,
    private readonly events: RendererEvents,
  ) {
    this.marker = markerCell > 0 ? new MarkerReader(markerCell) : null;
    this.presenter = new FramePresenter<DecodedFrame<Tagged>>(
      {
        draw: (frame, f, done) => sink.draw(frame, f.chunk.place, done),
        after: (frame, f) => this.drawn(frame, f),
        skipped: () => events.skipped(),
        failed: (e) => events.error(`cannot draw a frame: ${String(e)}`, false),
      },
      schedule,
    );
    this.decoders.push(this.makeDecoder());
  }

  get codec(): string | null {
    return this.decoders[0]!.codec;
  }

  // One stream's "video" message. Streams past the count it gives belong to
  // a layout the picture has left: their decoders go.
  configure(c: VideoConfig): void {
    this.dropStreamsFrom(Math.max(1, c.stripes));
    this.decoderFor(c.stripe).configure(c.codec, c.width, c.bandHeight);
  }

  reset(): void {
    this.dropStreamsFrom(1);
    this.decoders[0]!.reset();
    this.presenter.reset();
    this.layouts.reset();
  }

  decode(h: Chunk, data: Uint8Array, receivedAt: number): void {
    const place: Placement = {
      stripe: h.stripe,
      stripes: h.stripes,
      width: h.width,
      height: h.height,
      bandY: h.bandY,
      bandHeight: h.bandHeight,
    };
    const tagged: Tagged = {
      key: h.key,
      frameId: h.frameId,
      captureUs: h.captureUs,
      place,
      generation: this.layouts.tag(place),
    };
    this.decoderFor(h.stripe).decode(tagged, data, receivedAt);
  }

  private makeDecoder(): StreamDecoder<Tagged> {
    const events = this.events;
    return new StreamDecoder<Tagged>({
      frame: (f) => this.output(f),
      dropped: () => events.dropped(),
      needKeyFrame: (reason) => events.needKeyFrame(reason),
      error: (message, fatal) => events.error(message, fatal),
    });
  }

  // A stream's decoder, made the first time the stream is heard of (one
  // not configured yet drops what it is given, as any before its "video").
  private decoderFor(stripe: number): StreamDecoder<Tagged> {
    while (this.decoders.length <= stripe) this.decoders.push(this.makeDecoder());
    return this.decoders[stripe]!;
  }

  private dropStreamsFrom(count: number): void {
    for (let i = count; i < this.decoders.length; i++) this.decoders[i]!.reset();
    if (this.decoders.length > count) this.decoders.length = count;
  }

  private output(f: DecodedFrame<Tagged>): void {
    const place = f.chunk.place;
    // Acknowledged whatever becomes of the picture: it got through.
    this.events.decoded({
      frameId: f.frameId,
      captureUs: f.captureUs,
      decodeMs: f.decodeMs,
      queued: f.queued,
      receivedAt: f.receivedAt,
      stripes: place.stripes,
    });
    switch (this.layouts.admit(f.chunk.generation)) {
      case "stale":
        f.frame.close();
        this.events.skipped();
        return;
      case "newer":
        this.presenter.discard();
        break;
      case "show":
        break;
    }
    this.presenter.offer(f.frame, f, place.stripe);
  }

  private drawn(frame: VideoFrame, f: DecodedFrame<Tagged>): void {
    const place = f.chunk.place;
    const size = pictureSize(place, frame.displayWidth, frame.displayHeight);
    this.events.drawn({ frameId: f.frameId, width: size.width, height: size.height });
    // The marker sits in the picture's top-left corner: in the top band.
    if (!this.marker || place.bandY !== 0) {
      frame.close();
      return;
    }
    const marker = this.marker;
    const drawnAtUs = (performance.timeOrigin + performance.now()) * 1000;
    marker
      .read(frame, drawnAtUs)
      .finally(() => frame.close())
      .then(() => this.events.marker(marker.take()))
      .catch(() => undefined);
  }
}
