// The VideoOutput that decodes and draws in the render worker, on the
// page's canvas transferred to it as an OffscreenCanvas: for browsers
// without MediaStreamTrackGenerator (video_element_output.ts).
//
// Main thread.

import { RenderWorker } from "./render_worker_client";
import type { RendererEvents } from "./video_renderer";
import { WorkerOutput } from "./worker_output";

export class WorkerVideo extends WorkerOutput {
  readonly drawer = "worker, canvas";

  private constructor(worker: RenderWorker) {
    super(worker);
  }

  // The output, or null (and why) when this browser cannot run it; the
  // canvas is transferred only once the worker said it can decode.
  static async start(
    canvas: HTMLCanvasElement,
    markerCell: number,
    events: RendererEvents,
  ): Promise<{ output: WorkerVideo | null; why: string }> {
    if (typeof canvas.transferControlToOffscreen !== "function") return { output: null, why: "no OffscreenCanvas" };
    let worker: RenderWorker | null = null;
    const started = await RenderWorker.start((m) => worker?.dispatch(m, events));
    worker = started.worker;
    if (!worker) return { output: null, why: started.why };
    const offscreen = canvas.transferControlToOffscreen();
    worker.send({ t: "init", canvas: offscreen, markerCell }, [offscreen]);
    return { output: new WorkerVideo(worker), why: "" };
  }
}
