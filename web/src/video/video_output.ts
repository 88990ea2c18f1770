// Where the page sends the stream's video to be decoded and shown, the
// first of these the browser can do: decoded in the render worker and shown
// by a video element (video_element_output.ts), decoded and drawn in the
// worker on the transferred canvas (worker_video.ts), or both on the page's
// own thread (main_thread_video.ts). All report through RendererEvents, and
// all show a striped stream's bands as one picture (stripes.ts).
//
// Main thread.

import type { VideoConfig, VideoHeader } from "../protocol/messages";
import type { RendererEvents } from "./video_renderer";

export type Drawer = "worker, video element" | "worker, canvas" | "main thread";

export interface VideoOutput {
  readonly drawer: Drawer;
  readonly codec: string | null;
  // One stream's "video" message (a striped picture has one per stripe).
  configure(c: VideoConfig): void;
  reset(): void;
  // `buf` is the whole message (the output may take it over); `receivedAt`
  // is performance.timeOrigin + performance.now() at its arrival.
  decode(h: VideoHeader, buf: ArrayBuffer, receivedAt: number): void;
  // Frames the compositor presented over the last second, where the page
  // can know it (a video element); absent or null elsewhere.
  presentedPerSecond?(now: number): number | null;
  // The same since the page began; absent or null elsewhere.
  presentedTotal?(): number | null;
}

// Calls the events a VideoOutput was made with once the client is there to
// take them.
export class EventRelay implements RendererEvents {
  target: RendererEvents | null = null;
  decoded: RendererEvents["decoded"] = (d) => this.target?.decoded(d);
  drawn: RendererEvents["drawn"] = (d) => this.target?.drawn(d);
  skipped: RendererEvents["skipped"] = () => this.target?.skipped();
  dropped: RendererEvents["dropped"] = () => this.target?.dropped();
  needKeyFrame: RendererEvents["needKeyFrame"] = (r) => this.target?.needKeyFrame(r);
  error: RendererEvents["error"] = (m, f) => this.target?.error(m, f);
  marker: RendererEvents["marker"] = (r) => this.target?.marker(r);
}
