// Fullscreen and keyboard lock: the page in fullscreen, where the browser
// lets it keep shortcuts like Ctrl+W or Alt+Tab for the desktop (the
// Keyboard Lock API; hold Esc to leave). Whether to lock is the viewer's
// choice, kept in localStorage. The panel's buttons drive it.
//
// Main thread.

interface KeyboardLock {
  lock(keys?: string[]): Promise<void>;
  unlock(): void;
}

const LOCK_KEY = "voxl.keyboardLock";

export class Fullscreen {
  private lockWanted: boolean;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly storage: Storage | null) {
    this.lockWanted = storage?.getItem(LOCK_KEY) !== "0";
    document.addEventListener("fullscreenchange", () => {
      this.applyLock();
      for (const fn of this.listeners) fn();
    });
  }

  // False where the browser has no fullscreen at all (or forbids it here).
  get available(): boolean {
    return document.fullscreenEnabled;
  }

  get active(): boolean {
    return document.fullscreenElement !== null;
  }

  // Whether the browser has the Keyboard Lock API.
  get lockAvailable(): boolean {
    return keyboardLock() !== null;
  }

  get lockEnabled(): boolean {
    return this.lockWanted;
  }

  // `fn` runs whenever fullscreen starts or ends.
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  toggle(): void {
    if (this.active) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen({ navigationUI: "hide" }).catch(() => undefined);
  }

  setLock(on: boolean): void {
    this.lockWanted = on;
    try {
      this.storage?.setItem(LOCK_KEY, on ? "1" : "0");
    } catch {
      // Storage full or refused: the choice lasts for this page only.
    }
    this.applyLock();
  }

  private applyLock(): void {
    const kb = keyboardLock();
    if (!kb) return;
    if (this.active && this.lockWanted) kb.lock().catch(() => undefined);
    else kb.unlock();
  }
}

function keyboardLock(): KeyboardLock | null {
  return (navigator as Navigator & { keyboard?: KeyboardLock }).keyboard ?? null;
}
