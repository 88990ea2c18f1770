// The render worker: decodes the stream and draws it onto the page's canvas,
// transferred here as an OffscreenCanvas, so neither decoding nor drawing
// waits on (or slows) the page's main thread. Bundled on its own
// (cmake/WebClient.cmake) and served as /render-worker.js.
//
// Runs on the worker's thread; owns the renderer and every frame in it.

import type { FromWorker, ToWorker } from "./render_messages";
import { CanvasDrawer } from "./canvas_drawer";
import { animationFrameClock } from "./frame_presenter";
import { isStriped, type Placement } from "./stripes";
import { VideoRenderer, type FrameSink } from "./video_renderer";

interface WorkerScope {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(m: FromWorker, transfer?: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
let renderer: VideoRenderer | null = null;
let poster: FramePoster | null = null;

function post(m: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(m, transfer);
}

// Hands every decoded frame to the page (which feeds its video element), at
// once: the page's compositor shows the newest and the page closes them.
// A video element shows whole pictures, so a striped stream's bands are
// drawn here, each at its rows of a canvas of the whole picture's size as
// it decodes, and the page gets that canvas as a frame of its own once the
// bands decoded in the same turn are on it (a zero-delay timer): a burst of
// every stripe's key frames makes fewer pictures than it has bands.
class FramePoster implements FrameSink {
  frameId = 0;
  private composer: CanvasDrawer | null = null;
  private timestamp = 0;
  private postScheduled = false;
  // Bumped by a whole frame and by reset(), so that a composed picture
  // scheduled before either is not posted after it.
  private generation = 0;

  draw(frame: VideoFrame, place: Placement, done: () => void): void {
    if (!isStriped(place)) {
      this.cancelComposed();
      post({ t: "frame", frame, frameId: this.frameId, composed: false }, [frame]);
      done();
      return;
    }
    this.composer ??= new CanvasDrawer(new OffscreenCanvas(place.width, place.height), false);
    this.composer.draw(frame, place, () => undefined);
    this.timestamp = frame.timestamp;
    done();
    this.schedulePost();
  }

  reset(): void {
    this.cancelComposed();
  }

  private cancelComposed(): void {
    this.generation++;
    this.postScheduled = false;
  }

  private schedulePost(): void {
    if (this.postScheduled) return;
    this.postScheduled = true;
    const gen = this.generation;
    setTimeout(() => {
      if (gen !== this.generation) return;
      this.postScheduled = false;
      this.postPicture();
    }, 0);
  }

  private postPicture(): void {
    if (!this.composer) return;
    let frame: VideoFrame;
    try {
      frame = new VideoFrame(this.composer.canvas, { timestamp: this.timestamp });
    } catch (e) {
      post({ t: "error", message: `cannot make a picture of the stripes: ${String(e)}`, fatal: false });
      return;
    }
    post({ t: "frame", frame, frameId: this.frameId, composed: true }, [frame]);
  }
}

function capabilities(): FromWorker {
  if (typeof VideoDecoder === "undefined" || typeof EncodedVideoChunk === "undefined")
    return { t: "caps", ok: false, why: "no WebCodecs in workers" };
  if (typeof OffscreenCanvas === "undefined") return { t: "caps", ok: false, why: "no OffscreenCanvas" };
  try {
    if (!new OffscreenCanvas(1, 1).getContext("2d")) return { t: "caps", ok: false, why: "no 2D OffscreenCanvas" };
  } catch (e) {
    return { t: "caps", ok: false, why: String(e) };
  }
  return { t: "caps", ok: true, why: "" };
}

function handle(m: ToWorker): void {
  switch (m.t) {
    case "probe":
      post(capabilities());
      break;
    case "init":
      renderer?.reset();
      poster?.reset();
      const framePoster = m.canvas ? null : new FramePoster();
      poster = framePoster;
      const sink: FrameSink = m.canvas ? new CanvasDrawer(m.canvas) : framePoster!;
      const schedule = m.canvas ? animationFrameClock(globalThis) : null;
      renderer = new VideoRenderer(sink, schedule, m.canvas ? m.markerCell : 0, {
        decoded: (d) => {
          if (framePoster) framePoster.frameId = d.frameId;
          post({ t: "decoded", d });
        },
        // The page learns of a posted frame from the frame itself.
        drawn: (d) => {
          if (!framePoster) post({ t: "drawn", d });
        },
        skipped: () => post({ t: "skipped" }),
        dropped: () => post({ t: "dropped" }),
        needKeyFrame: (reason) => post({ t: "keyframe", reason }),
        error: (message, fatal) => post({ t: "error", message, fatal }),
        marker: (r) => post({ t: "marker", r }),
      });
      break;
    case "configure":
      renderer?.configure(m);
      break;
    case "reset":
      renderer?.reset();
      poster?.reset();
      break;
    case "chunk":
      renderer?.decode(m, new Uint8Array(m.data, m.offset), m.receivedAt);
      break;
  }
}

scope.onmessage = (e) => {
  try {
    handle(e.data);
  } catch (err) {
    post({ t: "error", message: `render worker: ${String(err)}`, fatal: false });
  }
};
