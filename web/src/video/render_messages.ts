// The messages between the page and its render worker (render_worker.ts,
// bundled on its own and served as render-worker.js beside the page). The page keeps the
// WebSocket and the figures; the worker decodes and draws.
//
// Pure types and constants; any thread.

import type { MarkerReport } from "./frame_marker";
import type { VideoConfig } from "../protocol/messages";
import type { DecodedInfo, DrawnInfo } from "./video_renderer";

// Relative to the page, so the client works under any path prefix (a
// reverse proxy at https://host/desktops/7/).
export const RENDER_WORKER_URL = "render-worker.js";

export type ToWorker =
  // Answered by "caps": whether the worker can decode and draw at all.
  | { t: "probe" }
  // Draw onto `canvas`, or with none send every decoded frame back ("frame").
  | { t: "init"; canvas: OffscreenCanvas | null; markerCell: number }
  | ({ t: "configure" } & VideoConfig)
  | { t: "reset" }
  // `data` is the whole message, transferred; the payload starts at `offset`.
  // The band fields as in the video header (an unstriped stream's: stripe 0
  // of 1, the whole picture).
  | {
      t: "chunk";
      key: boolean;
      frameId: number;
      captureUs: number;
      width: number;
      height: number;
      stripe: number;
      stripes: number;
      bandY: number;
      bandHeight: number;
      receivedAt: number;
      data: ArrayBuffer;
      offset: number;
    };

export type FromWorker =
  | { t: "caps"; ok: boolean; why: string }
  | { t: "decoded"; d: DecodedInfo }
  // Transferred: the page's to close. `composed`: the whole picture drawn
  // from a striped stream's bands (render_worker.ts), the newest of which
  // must reach the screen; otherwise a decoded frame of an unstriped one.
  | { t: "frame"; frame: VideoFrame; frameId: number; composed: boolean }
  | { t: "drawn"; d: DrawnInfo }
  | { t: "skipped" }
  | { t: "dropped" }
  | { t: "keyframe"; reason: string }
  | { t: "error"; message: string; fatal: boolean }
  | { t: "marker"; r: MarkerReport };
