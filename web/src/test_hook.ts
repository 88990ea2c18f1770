// window.voxl: a read-only window onto the client's state, for automated
// browser tests and tooling (e.g. `await page.evaluate(() => voxl.stats())`).
// Nothing in the page reads it; changing what it returns breaks only those.
// touch() is the one way in: the touch controls the panel's buttons call
// (mode, on-screen keyboard, zoom reset), so tests can press them.

import type { ClientState } from "./client_state";
import type { ResizeState } from "./view/desktop_sizer";
import type { MarkerReport } from "./video/frame_marker";
import type { InteractionState } from "./input/interaction";
import type { PanelState } from "./panel/panel";
import type { TouchControls } from "./input/touch_controls";

export interface VoxlStats {
  state: ClientState;
  connected: boolean; // the WebSocket is open
  connections: number; // successful opens since the page loaded
  framesDecoded: number; // since the page loaded, across reconnects
  framesDrawn: number; // of those, drawn (the rest were replaced by a newer frame first)
  framesSkipped: number;
  // Presented by the compositor since the page loaded, where the page can
  // know (a video element's requestVideoFrameCallback); null on a canvas.
  framesPresented: number | null;
  drawer: "worker, video element" | "worker, canvas" | "main thread" | null; // where decoding and drawing run
  stripes: number; // how many streams (bands) the last decoded frame's picture was coded as; 1 unstriped
  lastFrameId: number;
  width: number; // size of the last drawn picture (a striped stream's whole picture)
  height: number;
  codec: string | null;
  fps: number; // pictures per second (a striped stream's bands of one capture count once)
  latencyMs: number | null; // capture -> decoded, last frame; null before clock sync
  latencyP50Ms: number | null;
  decodeMs: number | null;
  rttMs: number | null;
  clockOffsetMs: number | null; // server wall clock - page wall clock
  droppedFrames: number;
  errors: number; // decoder errors
  keyframeRequests: number;
  lastError: string | null;
}

export interface VoxlHook {
  // Desktop sound and microphone figures (see audio/audio_player.ts).
  audio(): unknown;
  stats(): VoxlStats;
  // Capture -> decoded latency of each frame since the page loaded (the
  // most recent 20000), in ms: for measuring p50/p99 over a run.
  latencies(): number[];
  // Input, cursor and clipboard as the page sees them (null before start).
  interaction(): InteractionState | null;
  // The benchmarks' frame marker read off every drawn frame, with
  // ?marker=CELL in the address (frame_marker.ts); empty without it.
  marker(): MarkerReport;
  // Dynamic resolution as the page sees it: what the server said, what this
  // stage asks for and sent, and how the picture is laid out.
  resize(): ResizeState | null;
  // The control panel: open or not, what hello said (id, files), the
  // settings the server applied and the viewers it listed.
  panel(): PanelState | null;
  // Touch mode, on-screen keyboard and pinch zoom (null before start).
  touch(): TouchControls | null;
}

declare global {
  interface Window {
    readonly voxl?: VoxlHook;
  }
}

export function installTestHook(
  stats: () => VoxlStats,
  latencies: () => number[] = () => [],
  audio: () => unknown = () => null,
  interaction: () => InteractionState | null = () => null,
  marker: () => MarkerReport = () => ({ seen: [], pictures: 0, unreadable: 0 }),
  resize: () => ResizeState | null = () => null,
  panel: () => PanelState | null = () => null,
  touch: () => TouchControls | null = () => null,
): void {
  const hook: VoxlHook = Object.freeze({
    stats: () => ({ ...stats() }),
    latencies,
    audio,
    interaction,
    marker,
    resize,
    panel,
    touch,
  });
  Object.defineProperty(window, "voxl", { value: hook, enumerable: false, writable: false, configurable: false });
}
