// Everything a viewer does besides watching: keyboard, mouse, the desktop's
// cursor shape and the shared clipboard. Enabled by the server's
// "interaction" message; a view-only viewer only gets the cursor.

import type { ScreenElement } from "./screen_element";
import { ClipboardBridge } from "./clipboard";
import { RemoteCursor, type CursorState } from "./cursor";
import { installFullscreenButton } from "./fullscreen";
import { Keyboard } from "./input/keyboard";
import { Pointer } from "./input/pointer";
import type { ClientMessage, ServerMessage } from "./protocol";

export interface InteractionState {
  input: boolean;
  viewOnly: boolean;
  refused: string | null;
  cursor: CursorState | null;
  clipboard: ReturnType<ClipboardBridge["state"]>;
}

export class Interaction {
  private readonly keyboard: Keyboard;
  private readonly pointer: Pointer;
  private readonly cursor: RemoteCursor;
  // The panel reads asyncAvailable and sends its clipboard box with sendText.
  readonly clipboard: ClipboardBridge;
  private input = false;
  private viewOnly = false;
  private refused: string | null = null;

  constructor(canvas: ScreenElement, send: (msg: ClientMessage) => boolean) {
    // Keys (and input method text) go to a text area nobody sees, which
    // keeps the focus while the viewer works in the picture.
    const sink = document.createElement("textarea");
    sink.setAttribute("aria-label", "keyboard input for the remote desktop");
    sink.autocapitalize = "off";
    sink.spellcheck = false;
    Object.assign(sink.style, { position: "fixed", left: "0", top: "0", width: "1px", height: "1px", opacity: "0", border: "0", padding: "0", resize: "none" });
    document.body.appendChild(sink);

    this.clipboard = new ClipboardBridge({ send, notice: (t) => console.warn(`voxl: ${t}`) });
    this.keyboard = new Keyboard(sink, { send: (m) => void send(m), beforePaste: () => this.clipboard.beforePaste() });
    this.pointer = new Pointer(canvas, { send: (m) => void send(m), pressed: () => this.keyboard.focus() });
    this.cursor = new RemoteCursor(canvas);
    installFullscreenButton(document.body);
  }

  // Handles the server messages that are ours; false for the others.
  onMessage(m: ServerMessage): boolean {
    switch (m.type) {
      case "interaction":
        this.input = m.input && !m.view_only;
        this.viewOnly = m.view_only;
        this.keyboard.setEnabled(this.input);
        this.pointer.setEnabled(this.input);
        this.clipboard.setMode(m.view_only ? "off" : m.clipboard);
        return true;
      case "cursor":
        this.cursor.onMessage(m);
        return true;
      case "clipboard":
        this.clipboard.onDesktopCopy(m);
        return true;
      case "clipboard_error":
        this.clipboard.onError(m.message);
        return true;
      case "refused":
        this.refused = `${m.what}: ${m.reason}`;
        console.warn(`voxl: ${this.refused}`);
        return true;
      default:
        return false;
    }
  }

  // The picture's box or scale changed: the cursor follows its scale.
  pictureMoved(): void {
    this.cursor.refresh();
  }

  // The connection dropped; the server has released every key already.
  reset(): void {
    this.keyboard.reset();
    this.keyboard.setEnabled(false);
    this.pointer.setEnabled(false);
    this.cursor.reset();
  }

  state(): InteractionState {
    return { input: this.input, viewOnly: this.viewOnly, refused: this.refused, cursor: this.cursor.state(), clipboard: this.clipboard.state() };
  }
}
