// The voxl-e2e-input-probe helper for the browser tests: an X client that
// covers the display, holds the keyboard focus and reports every key and
// button event it gets, and with { clipboard: true } each new owner of the
// CLIPBOARD selection.

import { spawn } from "node:child_process";

import { displayEnv } from "./support.mjs";

export const PROBE_BINARY = process.env.VOXL_E2E_INPUT_PROBE || "";

// Starts the probe on `display` and waits for its window. Returns
// { lines(), keysyms(), buttons(), clipboardOwners(), waitFor(pred, ms, what), close() }.
export async function startProbe(scope, display, { clipboard = false, markClicks = false } = {}) {
  if (!PROBE_BINARY) throw new Error("VOXL_E2E_INPUT_PROBE is not set");
  const args = [`--display=${display}`];
  if (clipboard) args.push("--clipboard");
  if (markClicks) args.push("--mark-clicks");
  const child = spawn(PROBE_BINARY, args, {
    stdio: ["pipe", "pipe", "pipe"],
    env: displayEnv(display),
  });
  const lines = [];
  let buf = "";
  let err = "";
  const waiters = new Set();
  const check = () => {
    for (const w of waiters) if (w.pred(lines)) w.resolve();
  };
  child.stdout.on("data", (d) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
    check();
  });
  child.stderr.on("data", (d) => {
    err += d.toString();
  });
  let closed = null;
  const close = () => {
    closed ??= new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.stdin.end();
    });
    return closed;
  };
  scope.defer(close);

  const waitFor = (pred, ms = 30_000, what = "probe events") =>
    new Promise((resolve, reject) => {
      const w = { pred, resolve: () => done(null) };
      const timer = setTimeout(() => done(new Error(`timed out waiting for ${what}; probe saw:\n${lines.join("\n")}\n${err}`)), ms);
      const onExit = () => done(new Error(`the probe exited: ${err}`));
      function done(e) {
        clearTimeout(timer);
        waiters.delete(w);
        child.off("exit", onExit);
        if (e) reject(e);
        else resolve(lines.slice());
      }
      waiters.add(w);
      child.once("exit", onExit);
      if (pred(lines)) done(null);
    });

  await waitFor((l) => l.includes("ready"), 20_000, "the probe's window");
  const events = () => lines.filter((l) => l !== "ready");
  return {
    lines: events,
    // Keysyms of key presses, Shift left out (it comes and goes around capitals).
    keysyms: () =>
      events()
        .filter((l) => l.startsWith("key down "))
        .map((l) => parseInt(l.slice(9), 16))
        .filter((k) => k !== 0xffe1 && k !== 0xffe2),
    buttons: () => events().filter((l) => l.startsWith("button down ")),
    // Windows that took the clipboard, in order ("0x0": it went to nobody).
    clipboardOwners: () =>
      events()
        .filter((l) => l.startsWith("clipboard owner "))
        .map((l) => l.slice(16)),
    waitFor,
    close,
  };
}

// The keysym X uses for a character: Latin-1 as is, the rest 0x01000000 + code point.
export function keysymOf(ch) {
  const cp = ch.codePointAt(0);
  return cp < 0x100 ? cp : 0x01000000 + cp;
}
