// Everything a viewer does besides watching: keyboard, mouse, touch (and
// the on-screen keyboard), the desktop's cursor shape and the shared
// clipboard. Enabled by the server's "interaction" message; a view-only
// viewer only gets the cursor (and pinch zoom, which is the page's own).

import type { ScreenElement } from "../view/screen_element";
import { ClipboardBridge } from "./clipboard";
import { RemoteCursor, type CursorState } from "./cursor";
import { Keyboard } from "./keyboard";
import { Pointer } from "./pointer";
import type { TouchControls } from "./touch_controls";
import type { TouchMode } from "./touch_gestures";
import { TouchInput, type ZoomHost } from "./touch_input";
import { OnScreenKeyboard } from "./on_screen_keyboard";
import type { ClientMessage, ServerMessage } from "../protocol/messages";

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
  readonly clipboard: ClipboardBridge;
  private readonly touchInput: TouchInput;
  private readonly onScreenKeyboard: OnScreenKeyboard;
  readonly touch: TouchControls;
  private readonly touchListeners: (() => void)[] = [];
  private input = false;
  private viewOnly = false;
  private refused: string | null = null;

  constructor(canvas: ScreenElement, send: (msg: ClientMessage) => boolean, zoom: ZoomHost, touchMode: TouchMode) {
    // Keys (and input method text) go to a text area nobody sees, which
    // keeps the focus while the viewer works in the picture.
    const sink = document.createElement("textarea");
    sink.setAttribute("aria-label", "keyboard input for the remote desktop");
    sink.autocapitalize = "off";
    sink.spellcheck = false;
    // Out of the Tab order: Tab reaches the panel's toggle; the picture
    // gives this area the focus itself.
    sink.tabIndex = -1;
    Object.assign(sink.style, { position: "fixed", left: "0", top: "0", width: "1px", height: "1px", opacity: "0", border: "0", padding: "0", resize: "none" });
    document.body.appendChild(sink);

    this.clipboard = new ClipboardBridge({ send, notice: (t) => console.warn(`voxl: ${t}`) });
    this.keyboard = new Keyboard(sink, { send: (m) => void send(m), beforePaste: () => this.clipboard.beforePaste() });
    this.pointer = new Pointer(canvas, { send: (m) => void send(m), pressed: () => this.keyboard.focus() });
    this.cursor = new RemoteCursor(canvas);
    const touchChanged = (): void => this.touchListeners.forEach((fn) => fn());
    this.touchInput = new TouchInput(canvas, zoom, (m) => void send(m), touchMode, touchChanged);
    this.onScreenKeyboard = new OnScreenKeyboard(
      document.body,
      { send: (m) => void send(m), beforePaste: () => this.clipboard.beforePaste() },
      touchChanged,
    );
    this.touch = this.touchControls(zoom);
  }

  // Gives the keyboard back to the picture (the panel closed).
  focusPicture(): void {
    this.keyboard.focus();
  }

  private touchControls(host: ZoomHost): TouchControls {
    const touchInput = this.touchInput;
    const osk = this.onScreenKeyboard;
    return {
      get mode() {
        return touchInput.mode;
      },
      setMode: (m) => touchInput.setMode(m),
      get keyboardShown() {
        return osk.isShown;
      },
      toggleKeyboard: () => osk.toggle(),
      resetZoom: () => host.zoom.reset(),
      state: () => ({
        mode: touchInput.mode,
        keyboardShown: osk.isShown,
        touched: touchInput.touched,
        zoom: { scale: host.zoom.scale, ...host.zoom.shownBox() },
      }),
      onChange: (fn) => void this.touchListeners.push(fn),
    };
  }

  // Handles the server messages that are ours; false for the others.
  onMessage(m: ServerMessage): boolean {
    switch (m.type) {
      case "interaction":
        this.input = m.input && !m.view_only;
        this.viewOnly = m.view_only;
        this.keyboard.setEnabled(this.input);
        this.pointer.setEnabled(this.input);
        this.touchInput.setEnabled(this.input);
        this.onScreenKeyboard.setEnabled(this.input);
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
      case "viewers":
        // Control came to this viewer: its input is taken again.
        if (m.holder !== 0 && m.holder === m.you) this.refused = null;
        return false;
      default:
        return false;
    }
  }

  // The picture's box or scale changed: the cursor follows its scale.
  pictureMoved(): void {
    this.cursor.refresh();
    this.touchInput.pictureMoved();
  }

  // The connection dropped; the server has released every key already.
  reset(): void {
    this.keyboard.reset();
    this.keyboard.setEnabled(false);
    this.pointer.setEnabled(false);
    this.touchInput.setEnabled(false);
    this.onScreenKeyboard.setEnabled(false);
    this.cursor.reset();
  }

  state(): InteractionState {
    return { input: this.input, viewOnly: this.viewOnly, refused: this.refused, cursor: this.cursor.state(), clipboard: this.clipboard.state() };
  }
}
