// The panel's Touch section, on touch devices only (a coarse pointer, or a
// touch seen): the trackpad/direct switch, the on-screen keyboard and the
// zoom reset, through the touch input's controls (client.touch) when the
// page has them.

import { icon } from "../icons";
import { button, el, section } from "./dom";
import type { TouchControls } from "./panel_host";

export class TouchSection {
  readonly element: HTMLElement;
  private readonly modes: HTMLInputElement[] = [];
  private readonly keyboard: HTMLButtonElement;

  constructor(private readonly touch: () => TouchControls | undefined) {
    this.element = section("panel-touch", "Touch", "touch");
    const fieldset = this.element.appendChild(el("fieldset", { className: "choice" }));
    fieldset.appendChild(el("legend", { text: "One finger" }));
    for (const [mode, text] of [["trackpad", "Trackpad (moves the pointer)"], ["direct", "Direct (touches where it points)"]] as const) {
      const l = fieldset.appendChild(el("label", { className: "check" }));
      const r = l.appendChild(el("input", { id: `panel-touch-${mode}` }));
      r.type = "radio";
      r.name = "panel-touch-mode";
      r.value = mode;
      r.addEventListener("change", () => r.checked && this.touch()?.setMode(mode));
      this.modes.push(r);
      l.append(text);
    }
    const row = this.element.appendChild(el("div", { className: "row" }));
    this.keyboard = row.appendChild(button("panel-touch-keyboard", "Keyboard", () => {
      this.touch()?.toggleKeyboard();
      this.render();
    }, "keyboard"));
    row.appendChild(button("panel-touch-zoom", "Reset zoom", () => this.touch()?.resetZoom()));
    this.element.hidden = true;
    if (window.matchMedia("(pointer: coarse)").matches) this.element.hidden = false;
    else window.addEventListener("touchstart", () => (this.element.hidden = false), { once: true, passive: true });
  }

  // The panel opened: show the touch input's current state.
  render(): void {
    const t = this.touch();
    for (const c of Array.from(this.element.querySelectorAll("input, button"))) (c as HTMLInputElement).disabled = !t;
    if (!t) return;
    for (const r of this.modes) r.checked = r.value === t.mode;
    this.keyboard.replaceChildren(icon("keyboard"), t.keyboardShown ? "Hide keyboard" : "Keyboard");
    this.keyboard.setAttribute("aria-pressed", String(t.keyboardShown));
  }
}
