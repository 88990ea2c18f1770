// What the panel needs from the rest of the page: the client's figures and
// state, a way to send the panel's own messages, the stats overlay switch,
// the picture's keyboard focus, the clipboard, the view's scaling and the
// touch controls, the picture's box.
// main.ts builds it.

import type { ClipboardBridge } from "../input/clipboard";
import type { TouchControls } from "../input/touch_controls";
import type { ControlRequest, SettingsRequest } from "../protocol/messages";
import type { OverlayFigures } from "./stats_overlay";
import type { ClientState } from "../client_state";
import type { ScalingMode } from "../view/view";

export interface PanelHost {
  figures(): OverlayFigures;
  state(): ClientState;
  send(msg: SettingsRequest | ControlRequest): boolean;
  setStatsWanted(on: boolean): void;
  focusPicture(): void;
  setScaling(mode: ScalingMode): void;
  readonly clipboard: ClipboardBridge;
  // The Sound section's controls (audio/audio_controls.ts).
  readonly audioElement: HTMLElement;
  readonly touch: TouchControls;
  // The picture's box in the window, null while none is shown, and a hook
  // run after every layout of it.
  pictureBox(): DOMRect | null;
  onLayout(fn: () => void): void;
}
