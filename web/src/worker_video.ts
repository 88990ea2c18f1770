// The VideoOutput that decodes and draws in a render worker: the page's
// canvas is transferred to it once it has said it can decode and draw; each
// video message is handed over without a copy (its buffer is transferred).
//
// Main thread.

import type { VideoHeader } from "./protocol";
import { RENDER_WORKER_URL, type FromWorker, type ToWorker } from "./render_messages";
import type { VideoOutput } from "./video_output";
import type { RendererEvents } from "./video_renderer";

// A worker that neither loads nor answers in this long is given up on.
const PROBE_TIMEOUT_MS = 5000;

export class WorkerVideo implements VideoOutput {
  readonly drawer = "worker";
  private configured: string | null = null;

  private constructor(private readonly worker: Worker) {}

  // The worker output, or null (and a reason) when this browser cannot run it.
  static async start(
    canvas: HTMLCanvasElement,
    markerCell: number,
    events: RendererEvents,
  ): Promise<{ output: WorkerVideo | null; why: string }> {
    if (typeof Worker === "undefined" || typeof canvas.transferControlToOffscreen !== "function")
      return { output: null, why: "no Worker or OffscreenCanvas" };
    let worker: Worker;
    try {
      worker = new Worker(RENDER_WORKER_URL, { type: "module", name: "voxl render" });
    } catch (e) {
      return { output: null, why: `cannot start the render worker: ${String(e)}` };
    }
    const caps = await new Promise<{ ok: boolean; why: string }>((resolve) => {
      const timer = setTimeout(() => resolve({ ok: false, why: "the render worker did not answer" }), PROBE_TIMEOUT_MS);
      worker.onmessage = (e: MessageEvent<FromWorker>) => {
        if (e.data.t !== "caps") return;
        clearTimeout(timer);
        resolve(e.data);
      };
      worker.onerror = (e) => {
        clearTimeout(timer);
        resolve({ ok: false, why: `render worker: ${e.message || "failed to load"}` });
      };
      send(worker, { t: "probe" });
    });
    if (!caps.ok) {
      worker.terminate();
      return { output: null, why: caps.why };
    }
    const out = new WorkerVideo(worker);
    worker.onmessage = (e: MessageEvent<FromWorker>) => dispatch(e.data, events);
    worker.onerror = (e) => events.error(`render worker: ${e.message}`, false);
    const offscreen = canvas.transferControlToOffscreen();
    send(worker, { t: "init", canvas: offscreen, markerCell }, [offscreen]);
    return { output: out, why: "" };
  }

  get codec(): string | null {
    return this.configured;
  }

  configure(codec: string, width: number, height: number): void {
    this.configured = codec;
    send(this.worker, { t: "configure", codec, width, height });
  }

  reset(): void {
    this.configured = null;
    send(this.worker, { t: "reset" });
  }

  decode(h: VideoHeader, buf: ArrayBuffer, receivedAt: number): void {
    send(
      this.worker,
      { t: "chunk", key: h.key, frameId: h.frameId, captureUs: h.captureUs, receivedAt, data: buf, offset: h.payloadOffset },
      [buf],
    );
  }
}

function send(worker: Worker, m: ToWorker, transfer: Transferable[] = []): void {
  worker.postMessage(m, transfer);
}

function dispatch(m: FromWorker, events: RendererEvents): void {
  switch (m.t) {
    case "decoded":
      events.decoded(m.d);
      break;
    case "drawn":
      events.drawn(m.d);
      break;
    case "skipped":
      events.skipped();
      break;
    case "dropped":
      events.dropped();
      break;
    case "keyframe":
      events.needKeyFrame(m.reason);
      break;
    case "error":
      events.error(m.message, m.fatal);
      break;
    case "marker":
      events.marker(m.r);
      break;
    case "caps":
      break;
  }
}
