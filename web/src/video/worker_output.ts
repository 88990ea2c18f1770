// What the two outputs that decode in the render worker have in common
// (video_element_output.ts shows the frames in a video element,
// worker_video.ts draws them on a transferred canvas): configuring,
// resetting and feeding the decoder is passing the call on to the worker.
//
// Main thread. Owns the worker it was given.

import type { VideoConfig, VideoHeader } from "../protocol/messages";
import type { RenderWorker } from "./render_worker_client";
import type { Drawer, VideoOutput } from "./video_output";

export abstract class WorkerOutput implements VideoOutput {
  abstract readonly drawer: Drawer;

  protected constructor(protected readonly worker: RenderWorker) {}

  get codec(): string | null {
    return this.worker.codec;
  }

  configure(c: VideoConfig): void {
    this.worker.configure(c);
  }

  reset(): void {
    this.worker.reset();
  }

  decode(h: VideoHeader, buf: ArrayBuffer, receivedAt: number): void {
    this.worker.decode(h, buf, receivedAt);
  }
}
