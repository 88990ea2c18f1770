// The panel's Touch section, on touch devices only (a coarse pointer, or a
// touch seen): the trackpad/direct switch, the on-screen keyboard and the
// zoom reset, through the touch input's controls (client.touch), kept in
// step with them (the keyboard also hides when its field loses the focus).

import { icon } from "./icons";
import { button, el, section } from "./dom";
import type { TouchControls } from "../input/touch_controls";

export class TouchSection {
  readonly element: HTMLElement;
  private readonly modes: HTMLInputElement[] = [];
  private readonly keyboard: HTMLButtonElement;

  constructor(private readonly touch: TouchControls) {
    this.element = section("panel-touch", "Touch", "touch");
    const fieldset = this.element.appendChild(el("fieldset", { className: "choice" }));
    fieldset.appendChild(el("legend", { text: "One finger" }));
    for (const [mode, text] of [["trackpad", "Trackpad (moves the pointer)"], ["direct", "Direct (touches where it points)"]] as const) {
      const l = fieldset.appendChild(el("label", { className: "check" }));
      const r = l.appendChild(el("input", { id: `panel-touch-${mode}` }));
      r.type = "radio";
      r.name = "panel-touch-mode";
      r.value = mode;
      r.addEventListener("change", () => r.checked && this.touch.setMode(mode));
      this.modes.push(r);
      l.append(text);
    }
    const row = this.element.appendChild(el("div", { className: "row" }));
    this.keyboard = row.appendChild(button("panel-touch-keyboard", "Keyboard", () => {
      this.touch.toggleKeyboard();
    }, "keyboard"));
    row.appendChild(button("panel-touch-zoom", "Reset zoom", () => this.touch.resetZoom()));
    this.element.hidden = !window.matchMedia("(pointer: coarse)").matches;
    touch.onChange(() => {
      if (touch.state().touched) this.element.hidden = false;
      this.render();
    });
    this.render();
  }

  // Shows the touch input's current state (the panel opened, or it changed).
  render(): void {
    const t = this.touch;
    for (const r of this.modes) r.checked = r.value === t.mode;
    this.keyboard.replaceChildren(icon("keyboard"), t.keyboardShown ? "Hide keyboard" : "Keyboard");
    this.keyboard.setAttribute("aria-pressed", String(t.keyboardShown));
  }
}
