// The VideoOutput that decodes in the render worker and shows the frames in
// a video element: the worker sends each decoded frame back (transferred,
// not copied), and it goes into a MediaStreamTrackGenerator that the video
// element plays. The browser's compositor then turns the frame into pixels
// once, as it shows it, where a canvas costs a conversion, a copy into the
// canvas and another into the compositor's buffer. It also shows only the
// newest frame at each display refresh by itself. A striped stream's bands
// come as whole pictures, drawn in the worker (render_worker.ts).
//
// Main thread.

import { MarkerReader, type MarkerReport } from "./frame_marker";
import { PresentedFrames } from "./presented_frames";
import type { FromWorker } from "./render_messages";
import type { RendererEvents } from "./video_renderer";
import { RenderWorker } from "./render_worker_client";
import { WorkerOutput } from "./worker_output";

interface TrackGenerator extends MediaStreamTrack {
  readonly writable: WritableStream<VideoFrame>;
}
type TrackGeneratorConstructor = new (init: { kind: "video" }) => TrackGenerator;

function trackGenerator(): TrackGeneratorConstructor | null {
  const g = (window as unknown as { MediaStreamTrackGenerator?: TrackGeneratorConstructor }).MediaStreamTrackGenerator;
  return typeof g === "function" ? g : null;
}

export class VideoElementOutput extends WorkerOutput {
  readonly drawer = "worker, video element";
  private readonly writer: WritableStreamDefaultWriter<VideoFrame>;
  private readonly marker: MarkerReader | null;
  // The newest picture of a striped stream, waiting for the track to take
  // one (see message()), and whether something waits for that.
  private held: { frame: VideoFrame; frameId: number } | null = null;
  private waitingForTrack = false;
  private presented: PresentedFrames | null = null;

  private constructor(
    worker: RenderWorker,
    generator: TrackGenerator,
    markerCell: number,
    private readonly events: RendererEvents,
  ) {
    super(worker);
    this.writer = generator.writable.getWriter();
    this.marker = markerCell > 0 ? new MarkerReader(markerCell) : null;
  }

  // The output, or null (and why) where the browser lacks a piece of it.
  static async start(
    video: HTMLVideoElement,
    markerCell: number,
    events: RendererEvents,
  ): Promise<{ output: VideoElementOutput | null; why: string }> {
    const Generator = trackGenerator();
    if (!Generator) return { output: null, why: "no MediaStreamTrackGenerator" };
    let out: VideoElementOutput | null = null;
    const started = await RenderWorker.start((m) => out?.message(m));
    if (!started.worker) return { output: null, why: started.why };
    let generator: TrackGenerator;
    try {
      generator = new Generator({ kind: "video" });
    } catch (e) {
      started.worker.terminate();
      return { output: null, why: `cannot make a video track: ${String(e)}` };
    }
    out = new VideoElementOutput(started.worker, generator, markerCell, events);
    video.muted = true;
    video.autoplay = true;
    video.playsInline = true;
    video.srcObject = new MediaStream([generator]);
    out.presented = PresentedFrames.watch(video);
    started.worker.send({ t: "init", canvas: null, markerCell: 0 });
    return { output: out, why: "" };
  }

  presentedPerSecond(now: number): number | null {
    return this.presented?.perSecond(now) ?? null;
  }

  presentedTotal(): number | null {
    return this.presented?.total() ?? null;
  }

  override reset(): void {
    this.dropHeld(false);
    super.reset();
  }

  private message(m: FromWorker): void {
    if (m.t !== "frame") {
      this.worker.dispatch(m, this.events);
      return;
    }
    const frame = m.frame;
    if (!m.composed) this.dropHeld(true);
    // A track whose sink has not taken the last frame yet: this one would
    // only wait behind it, and a newer one is on its way. Not so for a
    // striped stream, where the next picture comes only when a band changes
    // again: its newest waits for the track instead.
    if (this.writer.desiredSize !== null && this.writer.desiredSize <= 0) {
      if (m.composed) {
        this.hold(frame, m.frameId);
        return;
      }
      frame.close();
      this.events.skipped();
      return;
    }
    this.show(frame, m.frameId);
  }

  private hold(frame: VideoFrame, frameId: number): void {
    this.dropHeld(true);
    this.held = { frame, frameId };
    if (this.waitingForTrack) return;
    this.waitingForTrack = true;
    const shown = () => {
      this.waitingForTrack = false;
      const h = this.held;
      this.held = null;
      if (h) this.show(h.frame, h.frameId);
    };
    this.writer.ready.then(shown, () => {
      this.waitingForTrack = false;
      this.dropHeld(false);
    });
  }

  private dropHeld(skipped: boolean): void {
    const h = this.held;
    this.held = null;
    if (!h) return;
    h.frame.close();
    if (skipped) this.events.skipped();
  }

  private show(frame: VideoFrame, frameId: number): void {
    const { displayWidth: width, displayHeight: height } = frame;
    // The marker is read off a second handle on the same pixels (no copy),
    // so the frame goes to the screen without waiting for it.
    const probe = this.marker ? frame.clone() : null;
    const drawnAtUs = (performance.timeOrigin + performance.now()) * 1000;
    this.writer.write(frame).catch(() => frame.close());
    this.events.drawn({ frameId, width, height });
    if (probe && this.marker) {
      const marker = this.marker;
      marker
        .read(probe, drawnAtUs)
        .finally(() => probe.close())
        .then(() => this.events.marker(marker.take() as MarkerReport))
        .catch(() => undefined);
    }
  }
}
