// The device's own on-screen keyboard, for phones and tablets: a text field
// nobody sees (but that takes the focus) is focused to bring the keyboard
// up and blurred to put it away. What it gets is forwarded by a Keyboard
// (input/keyboard.ts) of its own, as a hardware keyboard's would be: keys
// with a meaning (Backspace, Enter, Tab, arrows) as "key" messages, text as
// "text" once committed (compositionend, insertText; never the input
// method's intermediate keys). Virtual keyboards often report an edit
// rather than a key (a keydown of "Unidentified"/229, then beforeinput
// deleteContentBackward or insertLineBreak): those edits are typed as the
// key they stand for.
//
// Main thread.

import { Keyboard, type KeyboardHooks } from "./keyboard";
import type { ClientMessage } from "../protocol/messages";

// beforeinput edits -> the key a desktop application expects for them.
const EDIT_KEYS: Record<string, { code: string; key: string }> = {
  deleteContentBackward: { code: "Backspace", key: "Backspace" },
  deleteContentForward: { code: "Delete", key: "Delete" },
  insertLineBreak: { code: "Enter", key: "Enter" },
  insertParagraph: { code: "Enter", key: "Enter" },
};

// A toggle this soon (ms) after the field lost the focus is taken for a
// hide: the tap on a toggle button that takes the focus blurs the field
// before the button's click arrives.
const TOGGLE_AFTER_BLUR_MS = 500;

export class OnScreenKeyboard {
  private readonly field: HTMLTextAreaElement;
  private readonly keys: Keyboard;
  private enabled = false;
  private shown = false;
  private blurredAt = -Infinity;

  constructor(
    parent: HTMLElement,
    private readonly hooks: KeyboardHooks,
    private readonly changed: () => void = () => undefined,
  ) {
    const f = document.createElement("textarea");
    f.className = "on-screen-keyboard";
    f.setAttribute("aria-label", "on-screen keyboard for the remote desktop");
    f.setAttribute("autocomplete", "off");
    f.setAttribute("autocorrect", "off");
    f.autocapitalize = "off";
    f.spellcheck = false;
    f.inputMode = "text";
    f.tabIndex = -1;
    // Out of sight, not out of focus: at the top, where a browser that
    // scrolls a focused field into view above the keyboard finds it in view
    // already; 16 px text so that iOS does not zoom the page in on it.
    Object.assign(f.style, {
      position: "fixed",
      left: "0",
      top: "0",
      width: "1px",
      height: "1px",
      opacity: "0",
      border: "0",
      padding: "0",
      resize: "none",
      fontSize: "16px",
      pointerEvents: "none",
    });
    parent.appendChild(f);
    this.field = f;
    this.keys = new Keyboard(f, hooks);
    f.addEventListener("beforeinput", (e) => this.edit(e));
    f.addEventListener("blur", () => {
      if (this.shown) this.blurredAt = performance.now();
      this.setShown(false);
    });
    f.addEventListener("focus", () => this.setShown(this.enabled));
  }

  get isShown(): boolean {
    return this.shown;
  }

  // Only while the viewer may type; hides the keyboard when it may not.
  setEnabled(on: boolean): void {
    this.enabled = on;
    if (!on) this.hide();
  }

  // Call from a user gesture (a button's click): browsers show the device
  // keyboard only for a focus the user asked for.
  toggle(): void {
    if (this.shown || performance.now() - this.blurredAt < TOGGLE_AFTER_BLUR_MS) this.hide();
    else this.show();
    this.blurredAt = -Infinity;
  }

  show(): void {
    if (!this.enabled) return;
    this.keys.setEnabled(true); // focuses the field
    this.field.focus({ preventScroll: true });
  }

  hide(): void {
    this.keys.setEnabled(false);
    if (document.activeElement === this.field) this.field.blur();
    this.setShown(false);
  }

  private setShown(on: boolean): void {
    if (!on) this.keys.setEnabled(false);
    if (on === this.shown) return;
    this.shown = on;
    this.changed();
  }

  private edit(e: InputEvent): void {
    if (!this.enabled || e.isComposing) return;
    const k = EDIT_KEYS[e.inputType];
    if (!k) return;
    e.preventDefault();
    this.tap(k.code, k.key);
  }

  private tap(code: string, key: string): void {
    const down: ClientMessage = { type: "key", code, key, down: true, mods: 0 };
    this.hooks.send(down);
    this.hooks.send({ ...down, down: false });
  }
}
