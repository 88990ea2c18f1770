// The render worker: decodes the stream and draws it onto the page's canvas,
// transferred here as an OffscreenCanvas, so neither decoding nor drawing
// waits on (or slows) the page's main thread. Bundled on its own
// (cmake/WebClient.cmake) and served as /render-worker.js.
//
// Runs on the worker's thread; owns the renderer and every frame in it.

import type { FromWorker, ToWorker } from "./render_messages";
import { CanvasDrawer } from "./canvas_drawer";
import { animationFrameClock } from "./frame_presenter";
import { VideoRenderer, type FrameSink } from "./video_renderer";

interface WorkerScope {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(m: FromWorker, transfer?: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
let renderer: VideoRenderer | null = null;

function post(m: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(m, transfer);
}

// Hands every decoded frame to the page (which feeds its video element), at
// once: the page's compositor shows the newest and the page closes them.
class FramePoster implements FrameSink {
  frameId = 0;
  draw(frame: VideoFrame, done: () => void): void {
    post({ t: "frame", frame, frameId: this.frameId }, [frame]);
    done();
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
      const poster = m.canvas ? null : new FramePoster();
      const sink: FrameSink = m.canvas ? new CanvasDrawer(m.canvas) : poster!;
      const schedule = m.canvas ? animationFrameClock(globalThis) : null;
      renderer = new VideoRenderer(sink, schedule, m.canvas ? m.markerCell : 0, {
        decoded: (d) => {
          if (poster) poster.frameId = d.frameId;
          post({ t: "decoded", d });
        },
        // The page learns of a posted frame from the frame itself.
        drawn: (d) => {
          if (!poster) post({ t: "drawn", d });
        },
        skipped: () => post({ t: "skipped" }),
        dropped: () => post({ t: "dropped" }),
        needKeyFrame: (reason) => post({ t: "keyframe", reason }),
        error: (message, fatal) => post({ t: "error", message, fatal }),
        marker: (r) => post({ t: "marker", r }),
      });
      break;
    case "configure":
      renderer?.configure(m.codec, m.width, m.height);
      break;
    case "reset":
      renderer?.reset();
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
