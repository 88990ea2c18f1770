// Decodes the stream and shows it: StreamDecoder -> FramePresenter (the
// newest frame per animation frame, or every frame at once where the sink
// paces itself) -> a FrameSink, every frame closed once drawn or replaced.
// Runs in the render worker (render_worker.ts: the frames go to the page's
// video element, or onto the transferred OffscreenCanvas), or on the page's
// own thread where the browser can do neither (main_thread_video.ts). What
// the page needs to know (acks, figures, sizes) leaves through
// RendererEvents.
//
// Owned by one thread, the one that made it.

import { MarkerReader, type MarkerReport } from "./frame_marker";
import { FramePresenter } from "./frame_presenter";
import { StreamDecoder, type ChunkInfo, type DecodedFrame } from "./video_decoder";

export interface DecodedInfo {
  frameId: number;
  captureUs: number;
  decodeMs: number;
  queued: number;
  receivedAt: number; // as given to decode()
}

export interface DrawnInfo {
  frameId: number;
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

// Where decoded frames go: draws `frame` and calls `done` once it no longer
// needs it.
export interface FrameSink {
  draw(frame: VideoFrame, done: () => void): void;
}

export class VideoRenderer {
  private readonly decoder: StreamDecoder;
  private readonly presenter: FramePresenter<DecodedFrame>;
  private readonly marker: MarkerReader | null;

  // `schedule`: the animation-frame clock to draw on, or null to hand every
  // frame to the sink as soon as it is decoded.
  constructor(
    sink: FrameSink,
    schedule: ((cb: () => void) => void) | null,
    markerCell: number,
    private readonly events: RendererEvents,
  ) {
    this.marker = markerCell > 0 ? new MarkerReader(markerCell) : null;
    this.presenter = new FramePresenter<DecodedFrame>(
      {
        draw: (frame, _info, done) => sink.draw(frame, done),
        after: (frame, f) => this.drawn(frame, f),
        skipped: () => events.skipped(),
        failed: (e) => events.error(`cannot draw a frame: ${String(e)}`, false),
      },
      schedule,
    );
    this.decoder = new StreamDecoder({
      frame: (f) => this.output(f),
      dropped: () => events.dropped(),
      needKeyFrame: (reason) => events.needKeyFrame(reason),
      error: (message, fatal) => events.error(message, fatal),
    });
  }

  get codec(): string | null {
    return this.decoder.codec;
  }

  configure(codec: string, width: number, height: number): void {
    this.decoder.configure(codec, width, height);
  }

  reset(): void {
    this.decoder.reset();
    this.presenter.reset();
  }

  decode(h: ChunkInfo, data: Uint8Array, receivedAt: number): void {
    this.decoder.decode(h, data, receivedAt);
  }

  private output(f: DecodedFrame): void {
    this.events.decoded({
      frameId: f.frameId,
      captureUs: f.captureUs,
      decodeMs: f.decodeMs,
      queued: f.queued,
      receivedAt: f.receivedAt,
    });
    this.presenter.offer(f.frame, f);
  }

  private drawn(frame: VideoFrame, f: DecodedFrame): void {
    this.events.drawn({ frameId: f.frameId, width: frame.displayWidth, height: frame.displayHeight });
    if (!this.marker) {
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
