// What the page offers touch users besides gestures, as one object the
// panel's buttons (and tests) call: Client.touch. The mode switch (trackpad
// or direct touch), the on-screen keyboard toggle and the picture's zoom.
// ?touch=trackpad or ?touch=direct in the address picks the first mode.
//
// Main thread.

import type { TouchMode } from "./touch_gestures";

export interface TouchState {
  mode: TouchMode;
  keyboardShown: boolean;
  // Whether a touch was seen on the picture (touch controls worth showing).
  touched: boolean;
  zoom: { scale: number; left: number; top: number; width: number; height: number };
}

export interface TouchControls {
  readonly mode: TouchMode;
  setMode(mode: TouchMode): void;
  readonly keyboardShown: boolean;
  // From a user gesture (a click), or the device keyboard does not show.
  toggleKeyboard(): void;
  resetZoom(): void;
  state(): TouchState;
  // `fn` runs when the mode changes, the keyboard shows or hides (also by
  // the system: the field lost the focus) or the first touch is seen.
  onChange(fn: () => void): void;
}

// Direct touch unless the address says otherwise: a tap clicks what it
// touches, as on any touch screen.
export const DEFAULT_TOUCH_MODE: TouchMode = "direct";

export function touchModeFromQuery(search: string): TouchMode {
  const m = new URLSearchParams(search).get("touch");
  return m === "trackpad" || m === "direct" ? m : DEFAULT_TOUCH_MODE;
}
