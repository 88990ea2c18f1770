// The fallback VideoOutput: decodes and draws on the page's own thread, for
// browsers without WebCodecs in workers or OffscreenCanvas.
//
// Main thread.

import { CanvasDrawer } from "./canvas_drawer";
import { animationFrameClock } from "./frame_presenter";
import type { VideoConfig, VideoHeader } from "../protocol/messages";
import type { VideoOutput } from "./video_output";
import { VideoRenderer, type RendererEvents } from "./video_renderer";

export class MainThreadVideo implements VideoOutput {
  readonly drawer = "main thread";
  private readonly renderer: VideoRenderer;

  constructor(canvas: HTMLCanvasElement, markerCell: number, events: RendererEvents) {
    this.renderer = new VideoRenderer(new CanvasDrawer(canvas), animationFrameClock(window), markerCell, events);
  }

  get codec(): string | null {
    return this.renderer.codec;
  }

  configure(c: VideoConfig): void {
    this.renderer.configure(c);
  }

  reset(): void {
    this.renderer.reset();
  }

  decode(h: VideoHeader, buf: ArrayBuffer, receivedAt: number): void {
    this.renderer.decode(h, new Uint8Array(buf, h.payloadOffset), receivedAt);
  }
}
