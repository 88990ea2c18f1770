// Entry point: checks that this browser can decode at all, then starts the
// viewer and, with ?stats in the address, the figures panel.

import { Client } from "./client";
import { StatsOverlay } from "./stats_overlay";
import { StatusOverlay } from "./status_overlay";
import { checkSupport } from "./support";
import { installTestHook, type VoxlStats } from "./test_hook";
import { View } from "./view";
import { markerCellFromQuery } from "./frame_marker";
import { MainThreadVideo } from "./main_thread_video";
import { EventRelay, type VideoOutput } from "./video_output";
import { WorkerVideo } from "./worker_video";

const STATS_INTERVAL_MS = 250;

function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`index.html lacks #${id}`);
  return el;
}

// The worker path unless the address says ?worker=0 or the browser cannot.
async function videoOutput(canvas: HTMLCanvasElement, markerCell: number, relay: EventRelay): Promise<VideoOutput> {
  if (new URLSearchParams(window.location.search).get("worker") !== "0") {
    const { output, why } = await WorkerVideo.start(canvas, markerCell, relay);
    if (output) return output;
    console.info(`voxl: decoding on the page's thread: ${why}`);
  }
  return new MainThreadVideo(canvas, markerCell, relay);
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

  const canvas = byId("screen", HTMLCanvasElement);
  const view = new View(stage, canvas);
  const wantStats = new URLSearchParams(window.location.search).has("stats");
  const relay = new EventRelay();
  const output = await videoOutput(canvas, markerCellFromQuery(window.location.search), relay);
  const client = new Client(view, status, wantStats, canvas, output);
  relay.target = client.videoEvents;
  installTestHook(
    () => client.testStats(),
    () => client.latencies(),
    () => client.audioStats(),
    () => client.interaction.state(),
    () => client.markerReport(),
  );
  if (wantStats) {
    const overlay = new StatsOverlay(document.body);
    window.setInterval(() => overlay.update(client.figures()), STATS_INTERVAL_MS);
  }
  client.start();
}

function idleStats(reason: string): VoxlStats {
  return {
    state: "unsupported",
    connected: false,
    connections: 0,
    framesDecoded: 0,
    framesDrawn: 0,
    framesSkipped: 0,
    drawer: null,
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
