// The page's side of the shared clipboard. What the desktop copies is
// written to the browser's clipboard (text or PNG); when the browser refuses
// (no focus, no permission) it waits for the next click or key, when writing
// is allowed, or for the viewer's own copy shortcut. What the viewer copied
// elsewhere is read when the page gains focus (where reading is already
// permitted) and before a paste shortcut reaches the desktop, with the paste
// event's data as the fallback. What the page reads on focus is not sent
// again while the desktop still holds it; a paste is always sent where the
// page cannot know that (clipboard mode "in": the desktop's own copies are
// never reported, so its clipboard may have changed since). The panel's
// clipboard box (panel/clipboard_box.ts) shows the desktop's text and sends
// what the viewer types there, wherever the browser's clipboard is refused;
// copy and paste inside an element marked data-local-input stay the page's.
//
// Where the browser does not let the page read its clipboard by itself
// (clipboard_access.ts: Firefox asks at every read), a paste shortcut is not
// read through the async API (that would pop up the browser's "Paste" button
// at every Ctrl+V) but waits for its paste event; `asyncAvailable` says which
// (for the panel's clipboard box, which sends with sendText).

import { watchAsyncRead } from "./clipboard_access";
import { MAX_CLIPBOARD_BYTES, type ClientMessage, type ClipboardMessage, type ClipboardMode } from "../protocol/messages";

const READ_TIMEOUT_MS = 500;

type Content = { mime: "text/plain"; text: string } | { mime: "image/png"; blob: Blob };

export interface ClipboardHooks {
  send(msg: ClientMessage): boolean;
  notice(text: string): void;
}

export class ClipboardBridge {
  private mode: ClipboardMode = "off";
  private lastSent = "";      // a fingerprint of what went to the desktop
  private lastReceived = "";  // ... and of what came from it
  private pending: Content | null = null;
  private desktopText: string | null = null;
  private error: string | null = null;
  private readonly textListeners: ((text: string) => void)[] = [];
  private readAvailable = false;
  private readonly availabilityListeners: ((available: boolean) => void)[] = [];
  // A paste shortcut waiting for its paste event.
  private pasteWaiter: (() => void) | null = null;

  constructor(private readonly hooks: ClipboardHooks) {
    void watchAsyncRead(navigator.clipboard, navigator.permissions, (available) => {
      if (available === this.readAvailable) return;
      this.readAvailable = available;
      for (const fn of this.availabilityListeners) fn(available);
    });
    window.addEventListener("focus", () => void this.readIfPermitted());
    document.addEventListener("paste", (e) => this.pasted(e), true);
    document.addEventListener("copy", (e) => this.copied(e), true);
    const retry = () => void this.flush();
    window.addEventListener("pointerdown", retry, true);
    window.addEventListener("keydown", retry, true);
  }

  setMode(mode: ClipboardMode): void {
    this.mode = mode;
  }

  get canSend(): boolean {
    return this.mode === "both" || this.mode === "in";
  }

  get canReceive(): boolean {
    return this.mode === "both" || this.mode === "out";
  }

  // Whether the page reads the viewer's clipboard by itself (false until
  // known): where not, the panel's clipboard box is the way in.
  get asyncAvailable(): boolean {
    return this.readAvailable;
  }

  // `fn` hears each change of asyncAvailable.
  onAsyncAvailableChange(fn: (available: boolean) => void): void {
    this.availabilityListeners.push(fn);
  }

  // For tests and tools: the text the desktop copied last, and the last error.
  state(): { mode: ClipboardMode; desktopText: string | null; error: string | null; pending: boolean; asyncAvailable: boolean } {
    return { mode: this.mode, desktopText: this.desktopText, error: this.error, pending: this.pending !== null, asyncAvailable: this.readAvailable };
  }

  // `fn` hears every text the desktop copies.
  onDesktopText(fn: (text: string) => void): void {
    this.textListeners.push(fn);
  }

  // Text the viewer typed or pasted into the panel, for the desktop's
  // clipboard; false when the clipboard may not go in or the connection is down.
  sendText(text: string): boolean {
    if (!this.canSend || text === "") return false;
    const size = new TextEncoder().encode(text).length;
    if (size > MAX_CLIPBOARD_BYTES) {
      this.tooLarge(size);
      return false;
    }
    if (!this.hooks.send({ type: "clipboard", mime: "text/plain", text })) return false;
    this.lastSent = "t:" + text;
    return true;
  }

  onDesktopCopy(m: ClipboardMessage): void {
    if (!this.canReceive) return;
    let content: Content;
    if (m.mime === "text/plain" && typeof m.text === "string") {
      content = { mime: "text/plain", text: m.text };
      this.desktopText = m.text;
      this.lastReceived = "t:" + m.text;
      for (const fn of this.textListeners) fn(m.text);
    } else if (m.mime === "image/png" && typeof m.data === "string") {
      const bytes = base64Bytes(m.data);
      if (!bytes) return;
      content = { mime: "image/png", blob: new Blob([bytes], { type: "image/png" }) };
      this.lastReceived = "i:" + m.data.length + ":" + m.data.slice(0, 64);
    } else {
      return;
    }
    // What the page now holds is what the desktop has: no need to send it back.
    this.lastSent = this.lastReceived;
    this.pending = content;
    void this.flush();
  }

  onError(message: string): void {
    this.error = message;
    this.hooks.notice(`Clipboard: ${message}`);
  }

  // Before a paste shortcut goes to the desktop: done once the clipboard
  // was read, or its paste event sent it, or after READ_TIMEOUT_MS.
  async beforePaste(): Promise<void> {
    if (!this.canSend) return;
    this.pasteWaiter?.();
    let timer = 0;
    let mine: (() => void) | null = null;
    const waits = [
      new Promise<void>((r) => {
        mine = r;
        timer = window.setTimeout(r, READ_TIMEOUT_MS);
      }),
    ];
    this.pasteWaiter = mine;
    if (this.readAvailable) waits.push(this.read(true));
    await Promise.race(waits);
    window.clearTimeout(timer);
    if (this.pasteWaiter === mine) this.pasteWaiter = null;
  }

  private async readIfPermitted(): Promise<void> {
    if (!this.canSend) return;
    try {
      const p = await navigator.permissions.query({ name: "clipboard-read" as PermissionName });
      if (p.state !== "granted") return;
    } catch {
      return;
    }
    await this.read(false);
  }

  // `paste`: the viewer asked for this content to reach the desktop.
  private async read(paste: boolean): Promise<void> {
    const clip = navigator.clipboard;
    if (!clip) return;
    try {
      if (clip.read) {
        for (const item of await clip.read()) {
          if (item.types.includes("image/png")) return void (await this.send({ mime: "image/png", blob: await item.getType("image/png") }, paste));
          if (item.types.includes("text/plain")) return void (await this.send({ mime: "text/plain", text: await (await item.getType("text/plain")).text() }, paste));
        }
        return;
      }
      await this.send({ mime: "text/plain", text: await clip.readText() }, paste);
    } catch {
      // Not allowed: the paste event (if any) carries the data instead.
    }
  }

  private pasted(e: ClipboardEvent): void {
    if (!this.canSend || !e.clipboardData || isLocal(e)) return;
    e.preventDefault();
    const png = Array.from(e.clipboardData.files).find((f) => f.type === "image/png");
    const sent = png
      ? this.send({ mime: "image/png", blob: png }, true)
      : this.send({ mime: "text/plain", text: e.clipboardData.getData("text/plain") }, true);
    const waiter = this.pasteWaiter;
    if (waiter) void sent.finally(waiter);
  }

  private copied(e: ClipboardEvent): void {
    if (this.pending?.mime !== "text/plain" || !e.clipboardData || isLocal(e)) return;
    e.clipboardData.setData("text/plain", this.pending.text);
    e.preventDefault();
    this.pending = null;
  }

  private async send(c: Content, paste: boolean): Promise<void> {
    let msg: ClipboardMessage;
    let print: string;
    if (c.mime === "text/plain") {
      if (c.text === "") return;
      const size = new TextEncoder().encode(c.text).length;
      if (size > MAX_CLIPBOARD_BYTES) return this.tooLarge(size);
      msg = { type: "clipboard", mime: c.mime, text: c.text };
      print = "t:" + c.text;
    } else {
      if (c.blob.size > MAX_CLIPBOARD_BYTES) return this.tooLarge(c.blob.size);
      const data = bytesBase64(new Uint8Array(await c.blob.arrayBuffer()));
      msg = { type: "clipboard", mime: c.mime, data };
      print = "i:" + data.length + ":" + data.slice(0, 64);
    }
    // Only a page that hears every desktop copy knows the desktop still has it.
    if (print === this.lastSent && !(paste && !this.canReceive)) return;
    if (this.hooks.send(msg)) this.lastSent = print;
  }

  private tooLarge(size: number): void {
    this.onError(`not sent: ${(size / 1048576).toFixed(1)} MB is more than the ${MAX_CLIPBOARD_BYTES / 1048576} MB limit`);
  }

  // Writes what the desktop copied, if the browser lets the page now.
  private async flush(): Promise<void> {
    const c = this.pending;
    const clip = navigator.clipboard;
    if (!c || !clip) return;
    try {
      if (c.mime === "text/plain") await clip.writeText(c.text);
      else await clip.write([new ClipboardItem({ "image/png": c.blob })]);
      if (this.pending === c) this.pending = null;
    } catch {
      // Refused (no focus or no permission): kept for the next click or key.
    }
  }
}

// Copy and paste in the page's own fields (the panel) are not the desktop's.
function isLocal(e: Event): boolean {
  const t = e.target as { closest?: (selector: string) => unknown } | null;
  return typeof t?.closest === "function" && t.closest("[data-local-input]") !== null;
}

function base64Bytes(b64: string): Uint8Array | null {
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

function bytesBase64(bytes: Uint8Array): string {
  let bin = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}
