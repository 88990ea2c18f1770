// The page's side of the render worker: starts it, checks that it can
// decode at all, and speaks render_messages.ts to it. Video messages are
// handed over without a copy (their buffers are transferred).
//
// Main thread.

import type { VideoConfig, VideoHeader } from "../protocol/messages";
import { RENDER_WORKER_URL, type FromWorker, type ToWorker } from "./render_messages";
import type { RendererEvents } from "./video_renderer";

// A worker that neither loads nor answers in this long is given up on.
const PROBE_TIMEOUT_MS = 5000;

export class RenderWorker {
  private configured: string | null = null;

  private constructor(private readonly worker: Worker) {}

  // A worker that said it can decode, with `onMessage` taking what it sends
  // from now on; or null and why not.
  static async start(onMessage: (m: FromWorker) => void): Promise<{ worker: RenderWorker | null; why: string }> {
    if (typeof Worker === "undefined") return { worker: null, why: "no Worker" };
    let worker: Worker;
    try {
      worker = new Worker(RENDER_WORKER_URL, { type: "module", name: "voxl render" });
    } catch (e) {
      return { worker: null, why: `cannot start the render worker: ${String(e)}` };
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
      worker.postMessage({ t: "probe" } satisfies ToWorker);
    });
    if (!caps.ok) {
      worker.terminate();
      return { worker: null, why: caps.why };
    }
    worker.onmessage = (e: MessageEvent<FromWorker>) => onMessage(e.data);
    worker.onerror = (e) => onMessage({ t: "error", message: `render worker: ${e.message}`, fatal: false });
    return { worker: new RenderWorker(worker), why: "" };
  }

  get codec(): string | null {
    return this.configured;
  }

  send(m: ToWorker, transfer: Transferable[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  terminate(): void {
    this.worker.terminate();
  }

  configure(c: VideoConfig): void {
    this.configured = c.codec;
    this.send({ t: "configure", ...c });
  }

  reset(): void {
    this.configured = null;
    this.send({ t: "reset" });
  }

  decode(h: VideoHeader, buf: ArrayBuffer, receivedAt: number): void {
    this.send(
      {
        t: "chunk",
        key: h.key,
        frameId: h.frameId,
        captureUs: h.captureUs,
        width: h.width,
        height: h.height,
        stripe: h.stripe,
        stripes: h.stripes,
        bandY: h.bandY,
        bandHeight: h.bandHeight,
        receivedAt,
        data: buf,
        offset: h.payloadOffset,
      },
      [buf],
    );
  }

  // Passes on what the worker reported; a "frame" is closed here, as
  // nothing is there to show it.
  dispatch(m: FromWorker, events: RendererEvents): void {
    switch (m.t) {
      case "decoded":
        events.decoded(m.d);
        break;
      case "drawn":
        events.drawn(m.d);
        break;
      case "frame":
        m.frame.close();
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
}
