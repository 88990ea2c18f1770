// The panel's Settings section: this viewer's frame rate cap, bitrate cap,
// name and motion choice (smooth / sharp / automatic), sent as "settings" messages (the name in one of its own, so a
// name the server refuses never holds up the caps) and kept in
// localStorage; below them what the server applied (its "settings" answer).
// Bitrate choices below the server's minimum are hidden; a view-only
// viewer's bitrate cap is not applied, and the section says so. Servers
// without per-viewer settings (no "id" in hello) get nothing sent, and the
// section says so. The motion choice is sent only once the person has made
// one (until then the select shows the server's --motion). Global settings (--framerate, --max-kbps) are the
// server's flags. The rules themselves are in settings_rules.ts.

import { isMotion, SETTINGS_MAX_NAME_CHARS, type SettingsAppliedMessage, type SettingsRequest } from "../protocol/messages";
import { el, section, select, storage } from "./dom";
import { appliedText, cleanName, kbpsChoices, kbpsText, KBPS_VALUES, MOTION_CHOICES } from "./settings_rules";

const FPS_KEY = "voxl.maxFps";
const KBPS_KEY = "voxl.maxKbps";
const NAME_KEY = "voxl.name";
const MOTION_KEY = "voxl.motion";

const FPS_CHOICES: [string, string][] = [["0", "No cap"], ...[60, 30, 24, 15, 10, 5].map((v): [string, string] => [String(v), `${v} fps`])];
const KBPS_CHOICES: [string, string][] = [
  ["0", "No cap"],
  ...KBPS_VALUES.map((v): [string, string] => [String(v), kbpsText(v)]),
];

export class SettingsSection {
  readonly element: HTMLElement;
  private readonly fps: HTMLSelectElement;
  private readonly kbps: HTMLSelectElement;
  private readonly name: HTMLInputElement;
  private readonly motion: HTMLSelectElement;
  private motionChosen = false;
  private readonly applied: HTMLParagraphElement;
  private supported = false;
  private viewOnly = false;
  private last: SettingsAppliedMessage | null = null;

  constructor(private readonly send: (m: SettingsRequest) => boolean) {
    this.element = section("panel-settings", "Settings for this viewer");
    const store = storage();
    const f = select("panel-max-fps", "Frame rate cap", FPS_CHOICES, (v) => this.changed({ max_fps: Number(v) }, FPS_KEY, v));
    const k = select("panel-max-kbps", "Bitrate cap", KBPS_CHOICES, (v) => this.changed({ max_kbps: Number(v) }, KBPS_KEY, v));
    const m = select("panel-motion", "Motion on a slow link", MOTION_CHOICES, (v) => {
      this.motionChosen = isMotion(v);
      if (isMotion(v)) this.changed({ motion: v }, MOTION_KEY, v);
    });
    this.fps = f.select;
    this.kbps = k.select;
    this.motion = m.select;
    pick(this.fps, store?.getItem(FPS_KEY));
    pick(this.kbps, store?.getItem(KBPS_KEY));
    const storedMotion = store?.getItem(MOTION_KEY);
    this.motionChosen = isMotion(storedMotion);
    pick(this.motion, storedMotion);
    const n = el("label", { className: "field" });
    n.append("Your name");
    this.name = n.appendChild(el("input", { id: "panel-name" }));
    this.name.type = "text";
    this.name.maxLength = SETTINGS_MAX_NAME_CHARS;
    this.name.value = cleanName(store?.getItem(NAME_KEY) ?? "");
    this.name.addEventListener("change", () => {
      const v = cleanName(this.name.value);
      this.name.value = v;
      this.changed({ name: v }, NAME_KEY, v);
    });
    this.element.append(f.label, k.label, m.label, n);
    this.applied = this.element.appendChild(el("p", { id: "panel-settings-applied", className: "note" }));
    this.applied.setAttribute("role", "status");
    this.setSupported(false);
  }

  // hello said whether the server takes per-viewer settings; if so, this
  // viewer's stored ones go at once.
  setSupported(on: boolean): void {
    this.supported = on;
    for (const c of [this.fps, this.kbps, this.motion, this.name]) c.disabled = !on;
    if (!on) {
      this.applied.textContent = "This server takes no per-viewer settings.";
      return;
    }
    this.kbps.disabled = this.viewOnly;
    this.applied.textContent = "Waiting for the server…";
    this.send({ type: "settings", max_fps: Number(this.fps.value), max_kbps: Number(this.kbps.value) });
    if (this.name.value !== "") this.send({ type: "settings", name: this.name.value });
    if (this.motionChosen && isMotion(this.motion.value)) this.send({ type: "settings", motion: this.motion.value });
  }

  // A view-only viewer's bitrate cap is not applied (it is sent fewer
  // frames instead): its choice is off.
  setViewOnly(viewOnly: boolean): void {
    this.viewOnly = viewOnly;
    this.kbps.disabled = !this.supported || viewOnly;
    this.kbps.title = viewOnly ? "Not applied to a view-only viewer" : "";
    if (this.last) this.onApplied(this.last);
  }

  onApplied(m: SettingsAppliedMessage): void {
    this.last = m;
    this.offerKbps(m.server_min_kbps);
    // Until the person chooses, the select shows what holds: the server's.
    if (!this.motionChosen && isMotion(m.server_motion)) this.motion.value = m.server_motion;
    this.motion.disabled = !this.supported || m.server_motion === undefined;
    this.applied.textContent = appliedText(m, this.viewOnly);
  }

  // Hides the caps the server would raise to its minimum; a stored one
  // among them moves up to the lowest offered.
  private offerKbps(min: number | undefined): void {
    const offered = new Set(kbpsChoices(min).map(String));
    for (const o of Array.from(this.kbps.options)) o.hidden = o.disabled = o.value !== "0" && !offered.has(o.value);
    const chosen = this.kbps.selectedOptions[0];
    if (chosen?.hidden) {
      const lowest = Array.from(this.kbps.options).filter((o) => !o.hidden && o.value !== "0").pop();
      if (lowest) {
        this.kbps.value = lowest.value;
        this.changed({ max_kbps: Number(lowest.value) }, KBPS_KEY, lowest.value);
      }
    }
  }

  private changed(fields: Omit<SettingsRequest, "type">, key: string, value: string): void {
    try {
      storage()?.setItem(key, value);
    } catch {
      // Not kept: this page only.
    }
    if (this.supported && this.send({ type: "settings", ...fields })) this.applied.textContent = "Waiting for the server…";
  }
}

function pick(s: HTMLSelectElement, v: string | null | undefined): void {
  if (v && Array.from(s.options).some((o) => o.value === v)) s.value = v;
}
