// The panel's Settings section: this viewer's frame rate cap, bitrate cap
// and name, sent as a "settings" message and kept in localStorage; below
// them what the server applied (its "settings" answer). Servers without
// per-viewer settings (no "id" in hello) get nothing sent, and the section
// says so. Global settings (--framerate, --max-kbps) are the server's flags.

import { MAX_NAME_CHARS, type SettingsAppliedMessage, type SettingsRequest } from "../protocol";
import { el, section, select, storage } from "./dom";

const FPS_KEY = "voxl.maxFps";
const KBPS_KEY = "voxl.maxKbps";
const NAME_KEY = "voxl.name";

const FPS_CHOICES: [string, string][] = [["0", "No cap"], ...[60, 30, 24, 15, 10, 5].map((v): [string, string] => [String(v), `${v} fps`])];
const KBPS_CHOICES: [string, string][] = [
  ["0", "No cap"],
  ...[50000, 20000, 10000, 5000, 2000, 1000, 500].map((v): [string, string] => [String(v), kbpsText(v)]),
];

export class SettingsSection {
  readonly element: HTMLElement;
  private readonly fps: HTMLSelectElement;
  private readonly kbps: HTMLSelectElement;
  private readonly name: HTMLInputElement;
  private readonly applied: HTMLParagraphElement;
  private supported = false;

  constructor(private readonly send: (m: SettingsRequest) => boolean) {
    this.element = section("panel-settings", "Settings for this viewer");
    const store = storage();
    const f = select("panel-max-fps", "Frame rate cap", FPS_CHOICES, (v) => this.changed({ max_fps: Number(v) }, FPS_KEY, v));
    const k = select("panel-max-kbps", "Bitrate cap", KBPS_CHOICES, (v) => this.changed({ max_kbps: Number(v) }, KBPS_KEY, v));
    this.fps = f.select;
    this.kbps = k.select;
    pick(this.fps, store?.getItem(FPS_KEY));
    pick(this.kbps, store?.getItem(KBPS_KEY));
    const n = el("label", { className: "field" });
    n.append("Your name");
    this.name = n.appendChild(el("input", { id: "panel-name" }));
    this.name.type = "text";
    this.name.maxLength = MAX_NAME_CHARS;
    this.name.value = cleanName(store?.getItem(NAME_KEY) ?? "");
    this.name.addEventListener("change", () => {
      const v = cleanName(this.name.value);
      this.name.value = v;
      this.changed({ name: v }, NAME_KEY, v);
    });
    this.element.append(f.label, k.label, n);
    this.applied = this.element.appendChild(el("p", { id: "panel-settings-applied", className: "note" }));
    this.applied.setAttribute("role", "status");
    this.setSupported(false);
  }

  // hello said whether the server takes per-viewer settings; if so, this
  // viewer's stored ones go at once.
  setSupported(on: boolean): void {
    this.supported = on;
    for (const c of [this.fps, this.kbps, this.name]) c.disabled = !on;
    if (!on) {
      this.applied.textContent = "This server takes no per-viewer settings.";
      return;
    }
    this.applied.textContent = "Waiting for the server…";
    this.send({ type: "settings", max_fps: Number(this.fps.value), max_kbps: Number(this.kbps.value), name: this.name.value });
  }

  onApplied(m: SettingsAppliedMessage): void {
    const fps = m.max_fps > 0 ? `${m.max_fps} fps` : "no frame rate cap";
    const kbps = m.max_kbps > 0 ? kbpsText(m.max_kbps) : "no bitrate cap";
    const server = `server: up to ${m.server_max_fps} fps${m.server_max_kbps > 0 ? `, ${kbpsText(m.server_max_kbps)}` : ""}`;
    this.applied.textContent = `Applied: ${fps}, ${kbps}${m.name ? `, name “${m.name}”` : ""} (${server}).`;
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

function kbpsText(v: number): string {
  return v >= 1000 ? `${v / 1000} Mbit/s` : `${v} kbit/s`;
}

// At most 40 characters, no control characters (the server refuses them).
export function cleanName(s: string): string {
  // eslint-disable-next-line no-control-regex
  return [...s.replace(/[\u0000-\u001f\u007f-\u009f]/g, "")].slice(0, MAX_NAME_CHARS).join("").trim();
}
