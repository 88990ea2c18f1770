// The keyboard, forwarded as the browser reports it (code and key), so the
// desktop types what the viewer's own layout types. Held keys are counted
// here only to release them when the page loses focus or hides; the server
// keeps its own count and releases them when the connection goes.
//
// Input method (IME) text arrives through a hidden text area and is sent as
// characters. Browser auto-repeat is dropped: the desktop repeats held keys
// itself. In fullscreen, the Keyboard Lock API (fullscreen.ts) keeps
// shortcuts such as Ctrl+W and Ctrl+T for the desktop where the browser
// allows it.

import {
  MOD_ALT,
  MOD_ALT_GRAPH,
  MOD_CAPS_LOCK,
  MOD_CONTROL,
  MOD_META,
  MOD_NUM_LOCK,
  MOD_SHIFT,
  type ClientMessage,
} from "../protocol/messages";

export interface KeyboardHooks {
  send(msg: ClientMessage): void;
  // Called before a paste shortcut is forwarded; the keys wait for it so the
  // desktop's clipboard is up to date when the application pastes.
  beforePaste(): Promise<void>;
}

export function modifiers(e: KeyboardEvent | MouseEvent): number {
  let m = 0;
  if (e.shiftKey) m |= MOD_SHIFT;
  if (e.ctrlKey) m |= MOD_CONTROL;
  if (e.altKey) m |= MOD_ALT;
  if (e.metaKey) m |= MOD_META;
  if (e.getModifierState("CapsLock")) m |= MOD_CAPS_LOCK;
  if (e.getModifierState("NumLock")) m |= MOD_NUM_LOCK;
  if (e.getModifierState("AltGraph")) m |= MOD_ALT_GRAPH;
  return m;
}

function isPasteShortcut(e: KeyboardEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && e.code === "KeyV";
}

export class Keyboard {
  private enabled = false;
  private readonly held = new Set<string>();
  // Messages wait here while a paste shortcut waits for the clipboard.
  private gate: Promise<void> | null = null;
  private readonly waiting: ClientMessage[] = [];
  private static readonly MAX_WAITING = 256;

  constructor(
    private readonly sink: HTMLTextAreaElement,
    private readonly hooks: KeyboardHooks,
  ) {
    sink.addEventListener("keydown", (e) => this.keydown(e));
    sink.addEventListener("keyup", (e) => this.keyup(e));
    sink.addEventListener("compositionend", (e) => this.composed(e));
    sink.addEventListener("input", (e) => this.inserted(e as InputEvent));
    sink.addEventListener("blur", () => this.releaseAll());
    window.addEventListener("blur", () => this.releaseAll());
    window.addEventListener("pagehide", () => this.releaseAll());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.releaseAll();
    });
  }

  setEnabled(on: boolean): void {
    if (!on) this.releaseAll();
    this.enabled = on;
    if (on) this.focus();
  }

  focus(): void {
    if (this.enabled && document.activeElement !== this.sink) this.sink.focus({ preventScroll: true });
  }

  // The connection dropped: the server released everything already.
  reset(): void {
    this.held.clear();
    this.waiting.length = 0;
    this.gate = null;
  }

  releaseAll(): void {
    if (this.held.size === 0) return;
    this.held.clear();
    this.send({ type: "release" });
  }

  private send(msg: ClientMessage): void {
    if (!this.gate) {
      this.hooks.send(msg);
      return;
    }
    if (this.waiting.length < Keyboard.MAX_WAITING) this.waiting.push(msg);
  }

  private keydown(e: KeyboardEvent): void {
    if (!this.enabled) return;
    // IME at work: its keys are the method's, its result comes as text.
    if (e.isComposing || e.key === "Process" || e.keyCode === 229) return;
    if (e.repeat && this.held.has(e.code)) {
      e.preventDefault();
      return;
    }
    const msg: ClientMessage = { type: "key", code: e.code, key: e.key, down: true, mods: modifiers(e) };
    this.held.add(e.code);
    if (isPasteShortcut(e)) {
      // No preventDefault: the browser's paste event may carry the text
      // when reading the clipboard is not allowed.
      this.holdFor(this.hooks.beforePaste());
      this.send(msg);
      return;
    }
    e.preventDefault();
    this.send(msg);
  }

  private keyup(e: KeyboardEvent): void {
    if (!this.enabled) return;
    if (!this.held.delete(e.code)) return;
    e.preventDefault();
    this.send({ type: "key", code: e.code, key: e.key, down: false, mods: modifiers(e) });
  }

  private composed(e: CompositionEvent): void {
    if (this.enabled && e.data) this.send({ type: "text", text: e.data });
    this.sink.value = "";
  }

  // Text that arrived without a key we forwarded (an emoji picker, a
  // virtual keyboard, the browser's own text insertion) is typed as text.
  private inserted(e: InputEvent): void {
    if (e.isComposing || e.inputType !== "insertText") return;
    if (this.enabled && e.data) this.send({ type: "text", text: e.data });
    this.sink.value = "";
  }

  private holdFor(p: Promise<void>): void {
    const gate = p
      .catch(() => undefined)
      .then(() => {
        if (this.gate !== gate) return;
        this.gate = null;
        for (const m of this.waiting.splice(0)) this.hooks.send(m);
      });
    this.gate = gate;
  }
}
