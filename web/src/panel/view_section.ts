// The panel's View section: fullscreen, keyboard lock, the scaling mode
// (fit or 1:1, the page's own, kept in localStorage) and the stats overlay.

import { Fullscreen } from "./fullscreen";
import { icon } from "./icons";
import type { ScalingMode } from "../view/view";
import { button, checkbox, el, section, storage } from "./dom";
import type { PanelHost } from "./panel_host";
import type { StatsSwitch } from "./stats_switch";

const SCALING_KEY = "voxl.scaling";

export class ViewSection {
  readonly element: HTMLElement;
  private readonly fullscreen = new Fullscreen(storage());
  private readonly fsButton: HTMLButtonElement;
  private readonly statsBox: HTMLInputElement;
  private scaling: ScalingMode;

  constructor(
    private readonly host: PanelHost,
    private readonly stats: StatsSwitch,
  ) {
    this.element = section("panel-view", "View");
    const row = this.element.appendChild(el("div", { className: "row" }));
    this.fsButton = row.appendChild(button("panel-fullscreen", "Fullscreen", () => this.fullscreen.toggle(), "fullscreen"));
    this.fsButton.hidden = !this.fullscreen.available;
    this.fullscreen.onChange(() => this.renderFullscreen());
    const lock = checkbox("panel-keyboard-lock", "Keyboard lock in fullscreen", (on) => this.fullscreen.setLock(on));
    lock.label.title = "In fullscreen, shortcuts like Ctrl+W and Alt+Tab go to the desktop; hold Esc to leave";
    lock.input.checked = this.fullscreen.lockEnabled;
    lock.label.hidden = !this.fullscreen.available || !this.fullscreen.lockAvailable;
    this.element.appendChild(lock.label);

    const fieldset = this.element.appendChild(el("fieldset", { className: "choice" }));
    fieldset.appendChild(el("legend", { text: "Scaling" }));
    this.scaling = storage()?.getItem(SCALING_KEY) === "1:1" ? "1:1" : "fit";
    for (const [mode, id, text] of [
      ["fit", "panel-scaling-fit", "Fit to window"],
      ["1:1", "panel-scaling-native", "1:1 (desktop pixels, scrolls)"],
    ] as const) {
      const l = fieldset.appendChild(el("label", { className: "check" }));
      const r = l.appendChild(el("input", { id }));
      r.type = "radio";
      r.name = "panel-scaling";
      r.checked = mode === this.scaling;
      r.addEventListener("change", () => r.checked && this.setScaling(mode));
      l.append(text);
    }
    host.setScaling(this.scaling);

    const statsCheck = checkbox("panel-stats", "Stats overlay", (on) => this.stats.set(on));
    this.statsBox = statsCheck.input;
    this.statsBox.checked = stats.on;
    this.element.appendChild(statsCheck.label);
    this.renderFullscreen();
  }

  get scalingMode(): ScalingMode {
    return this.scaling;
  }

  private setScaling(mode: ScalingMode): void {
    this.scaling = mode;
    try {
      storage()?.setItem(SCALING_KEY, mode);
    } catch {
      // Not kept: this page only.
    }
    this.host.setScaling(mode);
  }

  private renderFullscreen(): void {
    const on = this.fullscreen.active;
    this.fsButton.replaceChildren(icon(on ? "exitFullscreen" : "fullscreen"), on ? "Leave fullscreen" : "Fullscreen");
    this.fsButton.setAttribute("aria-pressed", String(on));
  }
}
