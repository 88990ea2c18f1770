// Pure logic of the page's keyboard and clipboard access, without a
// browser: what a KeyboardEvent's code, key and modifiers become on the
// wire, which keys are dropped (auto-repeat, IME keys, a disabled page),
// how a paste shortcut holds the keys behind it, the release of held keys,
// IME text; whether the async clipboard can be read (Chromium's
// permission, Firefox's missing one) and how a paste waits for the
// clipboard either way. Fake events, a fake window and navigator.
//
//   node --test web/test/input_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";

const { Keyboard, modifiers } = await load("src/input/keyboard.ts");
const P = await load("src/protocol/messages.ts");
const { hasAsyncClipboard, watchAsyncRead } = await load("src/input/clipboard_access.ts");
const { ClipboardBridge } = await load("src/input/clipboard.ts");

// Something to add listeners to and fire them by hand.
function target(extra = {}) {
  const handlers = {};
  return Object.assign(
    {
      addEventListener: (type, fn) => (handlers[type] ??= []).push(fn),
      fire: (type, e = {}) => (handlers[type] ?? []).forEach((fn) => fn(e)),
    },
    extra,
  );
}

// A KeyboardEvent as the browser reports it; `state` lists the lock and
// AltGraph modifiers that getModifierState answers true for.
function key(code, keyName, { shift = false, ctrl = false, alt = false, meta = false, repeat = false, composing = false, keyCode = 0, state = [] } = {}) {
  return {
    code,
    key: keyName,
    shiftKey: shift,
    ctrlKey: ctrl,
    altKey: alt,
    metaKey: meta,
    repeat,
    isComposing: composing,
    keyCode,
    getModifierState: (m) => state.includes(m),
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
  };
}

// A Keyboard on a fake text area, with the page's window and document faked.
function keyboard({ beforePaste = () => Promise.resolve() } = {}) {
  globalThis.window = target();
  globalThis.document = target({ visibilityState: "visible", activeElement: null, fullscreenElement: null });
  const sent = [];
  const sink = target({
    value: "",
    focus() {
      document.activeElement = sink;
    },
  });
  const kb = new Keyboard(sink, { send: (m) => sent.push(m), beforePaste });
  return { kb, sink, sent };
}

const settle = () => new Promise((r) => setImmediate(r));

test("modifiers map to the protocol's bits, each on its own and all together", () => {
  const cases = [
    [{}, 0],
    [{ shift: true }, P.MOD_SHIFT],
    [{ ctrl: true }, P.MOD_CONTROL],
    [{ alt: true }, P.MOD_ALT],
    [{ meta: true }, P.MOD_META],
    [{ state: ["CapsLock"] }, P.MOD_CAPS_LOCK],
    [{ state: ["NumLock"] }, P.MOD_NUM_LOCK],
    [{ state: ["AltGraph"] }, P.MOD_ALT_GRAPH],
  ];
  for (const [opts, bits] of cases) assert.equal(modifiers(key("KeyA", "a", opts)), bits, JSON.stringify(opts));
  const all = key("KeyA", "A", { shift: true, ctrl: true, alt: true, meta: true, state: ["CapsLock", "NumLock", "AltGraph"] });
  assert.equal(modifiers(all), 127);
  // The bits are distinct powers of two.
  const bits = cases.slice(1).map(([, b]) => b);
  assert.equal(new Set(bits).size, bits.length);
  assert.ok(bits.every((b) => (b & (b - 1)) === 0));
});

test("a key goes as its code and key with the modifiers, down and up, and the browser's own action is stopped", () => {
  const { kb, sink, sent } = keyboard();
  kb.setEnabled(true);
  assert.equal(document.activeElement, sink, "enabling focuses the sink");
  const down = key("KeyQ", "Q", { shift: true });
  sink.fire("keydown", down);
  const up = key("KeyQ", "Q", { shift: true });
  sink.fire("keyup", up);
  assert.deepEqual(sent, [
    { type: "key", code: "KeyQ", key: "Q", down: true, mods: P.MOD_SHIFT },
    { type: "key", code: "KeyQ", key: "Q", down: false, mods: P.MOD_SHIFT },
  ]);
  assert.ok(down.prevented && up.prevented);
  // The viewer's own layout: an AZERTY "A" key is code KeyQ, key "a"; AltGr+E is "€".
  sink.fire("keydown", key("KeyQ", "a"));
  sink.fire("keydown", key("KeyE", "€", { ctrl: true, alt: true, state: ["AltGraph"] }));
  assert.deepEqual(sent.slice(2).map((m) => [m.code, m.key, m.mods]), [
    ["KeyQ", "a", 0],
    ["KeyE", "€", P.MOD_CONTROL | P.MOD_ALT | P.MOD_ALT_GRAPH],
  ]);
});

test("auto-repeat, IME keys, stray key-ups and a disabled page send nothing", () => {
  const { kb, sink, sent } = keyboard();
  sink.fire("keydown", key("KeyA", "a")); // not enabled yet
  kb.setEnabled(true);
  sink.fire("keydown", key("KeyA", "a"));
  const repeat = key("KeyA", "a", { repeat: true });
  sink.fire("keydown", repeat);
  sink.fire("keydown", key("KeyA", "a", { repeat: true }));
  assert.ok(repeat.prevented, "the browser's repeat is swallowed too");
  // A repeat of a key this page never saw go down (held before focus) goes once.
  sink.fire("keydown", key("KeyB", "b", { repeat: true }));
  // Keys that belong to an input method.
  sink.fire("keydown", key("KeyN", "n", { composing: true }));
  sink.fire("keydown", key("KeyN", "Process"));
  sink.fire("keydown", key("KeyN", "n", { keyCode: 229 }));
  // A key-up for a key that never went down here.
  sink.fire("keyup", key("KeyZ", "z"));
  assert.deepEqual(sent.map((m) => `${m.code} ${m.down}`), ["KeyA true", "KeyB true"]);
});

test("held keys are released once on blur, hiding or disabling, and not after a reset", () => {
  const { kb, sink, sent } = keyboard();
  kb.setEnabled(true);
  sink.fire("keydown", key("ShiftLeft", "Shift", { shift: true }));
  sink.fire("keydown", key("KeyA", "A", { shift: true }));
  window.fire("blur");
  sink.fire("blur");
  assert.deepEqual(sent.slice(2), [{ type: "release" }]);
  // Released: their key-ups are not sent.
  sink.fire("keyup", key("KeyA", "a"));
  assert.equal(sent.length, 3);

  sink.fire("keydown", key("KeyC", "c"));
  document.visibilityState = "hidden";
  document.fire("visibilitychange");
  assert.deepEqual(sent.at(-1), { type: "release" });
  document.visibilityState = "visible";

  sink.fire("keydown", key("KeyD", "d"));
  kb.setEnabled(false);
  assert.deepEqual(sent.at(-1), { type: "release" });
  const count = sent.length;

  // After a reset (the connection dropped; the server released them) nothing is held.
  kb.setEnabled(true);
  sink.fire("keydown", key("KeyE", "e"));
  kb.reset();
  window.fire("blur");
  assert.equal(sent.length, count + 1);
});

test("IME and inserted text go as text; text typed as keys is not sent twice", () => {
  const { kb, sink, sent } = keyboard();
  kb.setEnabled(true);
  sink.value = "привет";
  sink.fire("compositionend", { data: "привет" });
  assert.equal(sink.value, "", "the sink is emptied");
  sink.fire("input", { isComposing: false, inputType: "insertText", data: "é😀" });
  // While composing, and other kinds of input, nothing.
  sink.fire("input", { isComposing: true, inputType: "insertText", data: "x" });
  sink.fire("input", { isComposing: false, inputType: "deleteContentBackward", data: null });
  sink.fire("compositionend", { data: "" });
  assert.deepEqual(sent, [
    { type: "text", text: "привет" },
    { type: "text", text: "é😀" },
  ]);
});

test("a paste shortcut lets the browser paste, and it and the keys after it wait for the clipboard, in order", async () => {
  let release;
  const { kb, sink, sent } = keyboard({ beforePaste: () => new Promise((r) => (release = r)) });
  kb.setEnabled(true);
  sink.fire("keydown", key("ControlLeft", "Control", { ctrl: true }));
  const v = key("KeyV", "v", { ctrl: true });
  sink.fire("keydown", v);
  assert.equal(v.prevented, false, "no preventDefault: the paste event may carry the text");
  sink.fire("keyup", key("KeyV", "v", { ctrl: true }));
  sink.fire("keyup", key("ControlLeft", "Control"));
  sink.fire("keydown", key("KeyX", "x"));
  assert.deepEqual(sent.map((m) => m.code), ["ControlLeft"]);
  release();
  await settle();
  assert.deepEqual(sent.map((m) => `${m.code} ${m.down}`), [
    "ControlLeft true",
    "KeyV true",
    "KeyV false",
    "ControlLeft false",
    "KeyX true",
  ]);
  // Cmd+V is a paste shortcut too; Ctrl+Alt+V (AltGr+V) is a key like any other.
  const cmd = key("KeyV", "v", { meta: true });
  sink.fire("keydown", cmd);
  assert.equal(cmd.prevented, false);
  await settle();
  const altgr = key("KeyV", "v", { ctrl: true, alt: true });
  sink.fire("keydown", altgr);
  assert.equal(altgr.prevented, true);
});

test("a failed clipboard read still lets the keys through; the queue behind a paste is bounded", async () => {
  let fail;
  const { kb, sink, sent } = keyboard({ beforePaste: () => new Promise((_, reject) => (fail = reject)) });
  kb.setEnabled(true);
  sink.fire("keydown", key("KeyV", "v", { ctrl: true }));
  for (let i = 0; i < 400; ++i) {
    sink.fire("keydown", key(`Key${i}`, "k"));
  }
  assert.equal(sent.length, 0);
  fail(new Error("refused"));
  await settle();
  assert.equal(sent.length, 256, "at most 256 messages wait");
  assert.equal(sent[0].code, "KeyV");
});

test("the async clipboard is readable where it exists and its permission is not denied", async () => {
  const clip = { read: () => {}, readText: () => {}, writeText: () => {} };
  assert.equal(hasAsyncClipboard(clip), true);
  assert.equal(hasAsyncClipboard({ readText: () => {}, writeText: () => {} }), true);
  assert.equal(hasAsyncClipboard({ writeText: () => {} }), false, "write only");
  assert.equal(hasAsyncClipboard({ readText: () => {} }), false, "read only");
  assert.equal(hasAsyncClipboard(undefined), false, "no clipboard (insecure context)");

  // Chromium: a permission that can be asked for, and changes later.
  const status = target({ state: "prompt" });
  const heard = [];
  const perms = { query: async ({ name }) => (assert.equal(name, "clipboard-read"), status) };
  assert.equal(await watchAsyncRead(clip, perms, (a) => heard.push(a)), true);
  status.state = "denied";
  status.fire("change");
  status.state = "granted";
  status.fire("change");
  assert.deepEqual(heard, [true, false, true]);
  const denied = { query: async () => ({ state: "denied", addEventListener() {} }) };
  assert.equal(await watchAsyncRead(clip, denied, () => {}), false);

  // Firefox: read functions, but no such permission (every read asks the viewer).
  const firefox = { query: async () => Promise.reject(new TypeError("'clipboard-read' is not a valid value")) };
  const ff = [];
  assert.equal(await watchAsyncRead(clip, firefox, (a) => ff.push(a)), false);
  assert.deepEqual(ff, [false]);
  // No Permissions API, or no clipboard at all.
  assert.equal(await watchAsyncRead(clip, undefined, () => {}), false);
  assert.equal(await watchAsyncRead(undefined, perms, () => {}), false);
});

// A ClipboardBridge in a fake page whose navigator has `clipboard` and
// `permissions`; every message it sends lands in `sent`. Its timers run
// only when `timeouts()` fires them.
function bridge({ clipboard, permissions }) {
  const timers = new Map();
  let next = 1;
  globalThis.window = target({
    setTimeout: (fn) => (timers.set(next, fn), next++),
    clearTimeout: (id) => timers.delete(id),
  });
  globalThis.document = target();
  Object.defineProperty(globalThis, "navigator", { value: { clipboard, permissions }, configurable: true, writable: true });
  const sent = [];
  const b = new ClipboardBridge({ send: (m) => (sent.push(m), true), notice: () => {} });
  b.setMode("both");
  const timeouts = () => [...timers.values()].splice(0).forEach((fn) => fn());
  return { b, sent, timeouts };
}

// "done" if `p` has settled once every pending callback ran, else "waiting".
const state = (p) => Promise.race([p.then(() => "done"), settle().then(() => "waiting")]);

function pasteEvent(text) {
  return { clipboardData: { files: [], getData: (t) => (t === "text/plain" ? text : "") }, preventDefault() {} };
}

test("Firefox: no async read at Ctrl+V (it would ask); the paste event's text goes, and ends the wait", async () => {
  let reads = 0;
  const clipboard = {
    read: async () => (++reads, []),
    readText: async () => (++reads, "read"),
    writeText: async () => {},
  };
  const { b, sent, timeouts } = bridge({ clipboard, permissions: { query: () => Promise.reject(new TypeError("no such permission")) } });
  const heard = [];
  b.onAsyncAvailableChange((a) => heard.push(a));
  await settle();
  assert.equal(b.asyncAvailable, false);
  assert.equal(b.state().asyncAvailable, false);
  assert.deepEqual(heard, [], "false from the start: no change");

  const waiting = b.beforePaste();
  assert.equal(await state(waiting), "waiting");
  document.fire("paste", pasteEvent("from the paste event"));
  assert.equal(await state(waiting), "done", "the paste event ends the wait, no timeout needed");
  assert.equal(reads, 0);
  assert.deepEqual(sent, [{ type: "clipboard", mime: "text/plain", text: "from the paste event" }]);

  // No paste event (nothing to paste): the keys go at the timeout all the same.
  const empty = b.beforePaste();
  assert.equal(await state(empty), "waiting");
  timeouts();
  assert.equal(await state(empty), "done");
  assert.equal(sent.length, 1);

  // The panel's box: each Send is the viewer's own request and goes (the
  // desktop may have copied something else since); empty text does not.
  assert.equal(b.sendText("typed in the box"), true);
  assert.equal(b.sendText("typed in the box"), true);
  assert.equal(b.sendText(""), false);
  const box = { type: "clipboard", mime: "text/plain", text: "typed in the box" };
  assert.deepEqual(sent.slice(1), [box, box]);
  b.setMode("out");
  assert.equal(b.sendText("not allowed in"), false);
  assert.equal(sent.length, 3);
});

test("Chromium: the async read works, is used at Ctrl+V, and a denied permission turns it off", async () => {
  const status = target({ state: "granted" });
  const clipboard = {
    read: async () => [{ types: ["text/plain"], getType: async () => new Blob(["read by itself"]) }],
    writeText: async () => {},
  };
  const { b, sent } = bridge({ clipboard, permissions: { query: async () => status } });
  const heard = [];
  b.onAsyncAvailableChange((a) => heard.push(a));
  await settle();
  assert.equal(b.asyncAvailable, true);
  await b.beforePaste();
  assert.deepEqual(sent, [{ type: "clipboard", mime: "text/plain", text: "read by itself" }]);
  status.state = "denied";
  status.fire("change");
  assert.equal(b.asyncAvailable, false);
  assert.deepEqual(heard, [true, false]);
});
