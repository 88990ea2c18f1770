// Entry point: checks that this browser can decode at all, then starts the
// viewer and its control panel (with ?stats in the address, the stats
// overlay on).

import { Client } from "./client";
import { Panel } from "./panel/panel";
import type { PanelHost } from "./panel/panel_host";
import { Connection, streamUrl } from "./protocol/connection";
import { StatusOverlay } from "./panel/status_overlay";
import { checkSupport } from "./video/support";
import { installTestHook, type VoxlStats } from "./test_hook";
import { View } from "./view/view";
import { markerCellFromQuery } from "./video/frame_marker";
import { MainThreadVideo } from "./video/main_thread_video";
import { EventRelay, type VideoOutput } from "./video/video_output";
import { WorkerVideo } from "./video/worker_video";
import { VideoElementOutput } from "./video/video_element_output";
import type { ScreenElement } from "./view/screen_element";

function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`index.html lacks #${id}`);
  return el;
}

// The first way this browser can do, unless the address rules some out:
// ?video=0 skips the video element, ?worker=0 the worker altogether. A video
// element takes the canvas's place as #screen. Without one (no
// MediaStreamTrackGenerator: Firefox) the page's own thread draws, unless
// the address asks for the worker's canvas (?video=0 or ?worker=1):
// measured in Firefox ESR at 1080p, the worker's canvas reached the screen
// 12 times a second of the 23 it decoded, the page's thread 19-20 of 20
// (docs/benchmarks.md).
async function videoOutput(
  canvas: HTMLCanvasElement,
  markerCell: number,
  relay: EventRelay,
): Promise<{ output: VideoOutput; screen: ScreenElement }> {
  const q = new URLSearchParams(window.location.search);
  const why: string[] = [];
  const workerCanvas = q.get("video") === "0" || q.get("worker") === "1";
  if (q.get("worker") !== "0") {
    if (q.get("video") !== "0") {
      const video = document.createElement("video");
      const started = await VideoElementOutput.start(video, markerCell, relay);
      if (started.output) {
        video.id = canvas.id;
        video.hidden = canvas.hidden;
        canvas.replaceWith(video);
        return { output: started.output, screen: video };
      }
      why.push(started.why);
    }
    if (workerCanvas) {
      const started = await WorkerVideo.start(canvas, markerCell, relay);
      if (started.output) return { output: started.output, screen: canvas };
      why.push(started.why);
    } else {
      why.push("a canvas shows more frames drawn on the page's thread than from a worker");
    }
    console.info(`voxl: decoding on the page's thread: ${why.join("; ")}`);
  }
  return { output: new MainThreadVideo(canvas, markerCell, relay), screen: canvas };
}

async function main(): Promise<void> {
  const stage = byId("stage", HTMLDivElement);
  const status = new StatusOverlay(byId("status", HTMLDivElement));

  const unsupported = checkSupport();
  if (unsupported) {
    status.blocked(unsupported.title, unsupported.detail);
    installTestHook(() => idleStats(unsupported.title));
    return;
  }

  const relay = new EventRelay();
  const { output, screen } = await videoOutput(
    byId("screen", HTMLCanvasElement),
    markerCellFromQuery(window.location.search),
    relay,
  );
  const view = new View(stage, screen);
  const wantStats = new URLSearchParams(window.location.search).has("stats");
  const client = new Client(view, status, wantStats, screen, output, (events) => new Connection(streamUrl(), events));
  relay.target = client.videoEvents;
  const panel = new Panel(document.body, panelHost(client, view, screen), wantStats);
  client.session = panel;
  installTestHook(
    () => client.testStats(),
    () => client.latencies(),
    () => client.audioStats(),
    () => client.interaction.state(),
    () => client.markerReport(),
    () => client.sizer.snapshot(),
    () => panel.state(),
    () => client.touch,
  );
  client.start();
}

function panelHost(client: Client, view: View, screen: ScreenElement): PanelHost {
  return {
    figures: () => client.figures(),
    state: () => client.connectionState,
    send: (m) => client.sendPanelMessage(m),
    setStatsWanted: (on) => client.setStatsWanted(on),
    focusPicture: () => client.interaction.focusPicture(),
    setScaling: (mode) => view.setScaling(mode),
    clipboard: client.interaction.clipboard,
    audioElement: client.audioControls.element,
    touch: client.touch,
    // Laid out before it first shows: the box its style gives it.
    pictureBox: () => {
      if (!screen.hidden) return screen.getBoundingClientRect();
      const px = (v: string) => parseFloat(v) || 0;
      return new DOMRect(px(screen.style.left), px(screen.style.top), px(screen.style.width), px(screen.style.height));
    },
    onLayout: (fn) => view.onLayout(fn),
  };
}

function idleStats(reason: string): VoxlStats {
  return {
    state: "unsupported",
    connected: false,
    connections: 0,
    framesDecoded: 0,
    framesDrawn: 0,
    framesSkipped: 0,
    framesPresented: null,
    drawer: null,
    stripes: 1,
    lastFrameId: 0,
    width: 0,
    height: 0,
    codec: null,
    fps: 0,
    latencyMs: null,
    latencyP50Ms: null,
    decodeMs: null,
    rttMs: null,
    clockOffsetMs: null,
    droppedFrames: 0,
    errors: 0,
    keyframeRequests: 0,
    lastError: reason,
  };
}

main().catch((e) => console.error(`voxl: ${String(e)}`));
