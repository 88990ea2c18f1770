// The Files panel's transfer logic, without a browser: human sizes, rates
// and times, the error wording, the API's URLs, the chunked upload with its
// resume and retries, the one-at-a-time queue, and the walk of dropped
// folders. Uploads go to an in-memory server (files_fake_server.mjs).
//
//   node --test web/test/files_logic.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./bundle.mjs";
import { bytesOf, fakeFilesServer, watchedBlob } from "./files_fake_server.mjs";

const { humanBytes, humanRate, humanDuration, percentOf } = await load("src/files/human_units.ts");
const { RateMeter } = await load("src/files/transfer_rate.ts");
const { httpFailure, networkFailure, tooBigHere, savedAsNote } = await load("src/files/transfer_errors.ts");
const { FilesApi, downloadHref } = await load("src/files/files_api.ts");
const { uploadFile, backoffMs } = await load("src/files/chunked_upload.ts");
const { UploadQueue, MAX_FINISHED_KEPT } = await load("src/files/upload_queue.ts");
const { gatherDrop, gatherInput, dropParts, carriesFiles } = await load("src/files/entry_walker.ts");

const BASE = "https://host.example/desk/";
const noSleep = async () => {};

function same(a, b) {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

test("sizes in binary units, one decimal below ten", () => {
  assert.equal(humanBytes(0), "0 B");
  assert.equal(humanBytes(1023), "1023 B");
  assert.equal(humanBytes(1024), "1 KiB");
  assert.equal(humanBytes(1536), "1.5 KiB");
  assert.equal(humanBytes(10 * 1024 * 1024 + 1), "10 MiB");
  assert.equal(humanBytes(1024 * 1024 - 1), "1 MiB");
  assert.equal(humanBytes(3.25 * 2 ** 30), "3.3 GiB");
  assert.equal(humanBytes(-1), "–");
  assert.equal(humanBytes(NaN), "–");
  assert.equal(humanRate(2048), "2 KiB/s");
  assert.equal(humanRate(null), "–");
  assert.equal(percentOf(1, 3), 33);
  assert.equal(percentOf(5, 5), 100);
  assert.equal(percentOf(0, 0), 100);
});

test("durations: seconds, minutes, hours, days", () => {
  assert.equal(humanDuration(0), "0 s");
  assert.equal(humanDuration(44.2), "45 s");
  assert.equal(humanDuration(120), "2 min");
  assert.equal(humanDuration(125), "2 min 5 s");
  assert.equal(humanDuration(3 * 3600 + 60 * 7), "3 h 7 min");
  assert.equal(humanDuration(2 * 86400 + 4 * 3600), "2 d 4 h");
  assert.equal(humanDuration(null), "–");
  assert.equal(humanDuration(Infinity), "–");
});

test("rate over a sliding window; it falls in a stall and restarts after a step back", () => {
  const m = new RateMeter(5000);
  assert.equal(m.rate(0), null);
  m.add(0, 0);
  assert.equal(m.rate(100), null, "too soon to tell");
  m.add(1000, 1000);
  m.add(2000, 2000);
  assert.equal(m.rate(2000), 1000);
  assert.equal(m.secondsLeft(2000, 5000), 5);
  assert.equal(m.secondsLeft(2000, 0), 0);
  // Nothing for three seconds: half the rate over the five seconds.
  assert.equal(m.rate(4000), 500);
  // Old samples leave the window.
  for (let t = 3000; t <= 20000; t += 1000) m.add(t, 2000 + (t - 2000) * 2);
  assert.equal(m.rate(20000), 2000);
  // A resume from an earlier offset starts the measure over.
  m.add(21000, 10);
  assert.equal(m.rate(21000), null);
  assert.equal(m.secondsLeft(21000, 100), null);
});

test("errors in words: the status's headline and the server's detail", () => {
  assert.equal(httpFailure(413, "larger than 1 MiB").message, "Too big: larger than 1 MiB");
  assert.equal(httpFailure(507, null).message, "No space left on the server: the server's disk is too full for this file");
  assert.equal(httpFailure(403, "uploads are off").message, "Not allowed: uploads are off");
  assert.equal(httpFailure(400, "the name is not allowed").message, "Name refused: the name is not allowed");
  assert.equal(httpFailure(418, "").message, "Server error 418");
  assert.match(networkFailure("Failed to fetch").message, /^Network failure: .*\(Failed to fetch\)$/);
  // Retried: the network and 5xx but a full disk; not the rest.
  assert.equal(networkFailure().retryable, true);
  assert.equal(httpFailure(503, "busy").retryable, true);
  assert.equal(httpFailure(500, "oops").retryable, true);
  assert.equal(httpFailure(507, null).retryable, false);
  assert.equal(httpFailure(413, null).retryable, false);
  assert.equal(httpFailure(404, null).retryable, false);
  // Refused in the panel with the same headline as the server's 413.
  assert.equal(tooBigHere(1536 * 1024, 1024 * 1024).message, "Too big: the server takes files up to 1 MiB, this one is 1.5 MiB");
  assert.equal(savedAsNote("docs/report (1).pdf", true), "saved as report (1).pdf: the name was taken");
  assert.equal(savedAsNote("a.txt", false), "saved as a.txt");
});

test("API: relative URLs against the page's base, paths percent-encoded", async () => {
  const seen = [];
  const api = new FilesApi(async (url, init) => {
    seen.push([init?.method ?? "GET", url]);
    if (url.includes("/files/list")) {
      return new Response(JSON.stringify({ path: "a b/ü", entries: [
        { name: "sub", type: "dir", size: 0, modified: 1 },
        { name: "x.txt", type: "file", size: 12, modified: 1700000000000 },
        { name: "sock", type: "socket", size: 0, modified: 0 },
        { nonsense: true },
      ], truncated: true }), { status: 200 });
    }
    return new Response(JSON.stringify({ upload: true, download: false, upload_dir: "Downloads", max_upload_bytes: 0, chunk_bytes: 1048576 }));
  }, BASE);
  assert.deepEqual(await api.config(), { upload: true, download: false, uploadDir: "Downloads", maxUploadBytes: 0, chunkBytes: 1048576 });
  const l = await api.list("a b/ü#&?");
  assert.deepEqual(seen, [
    ["GET", "https://host.example/desk/files"],
    ["GET", "https://host.example/desk/files/list?path=a%20b%2F%C3%BC%23%26%3F"],
  ]);
  assert.deepEqual(l.entries.map((e) => [e.name, e.type]), [["sub", "dir"], ["x.txt", "file"], ["sock", "other"]]);
  assert.equal(l.truncated, true);
  assert.equal(downloadHref("photos/2024/a b.jpg"), "files/download?path=photos%2F2024%2Fa%20b.jpg");
  assert.equal(downloadHref(""), "files/download?path=");
});

test("API: a refusal carries the server's words; no answer is a network failure; nonsense is said so", async () => {
  const api = (res) => new FilesApi(async () => (typeof res === "function" ? res() : res), BASE);
  await assert.rejects(api(new Response(JSON.stringify({ error: "no such folder" }), { status: 404 })).list("x"), {
    message: "Not found: no such folder",
  });
  await assert.rejects(api(new Response("<html>", { status: 502 })).list("x"), { message: "Server error 502", status: 502 });
  await assert.rejects(api(() => Promise.reject(new TypeError("Failed to fetch"))).list("x"), { kind: "network" });
  await assert.rejects(api(new Response("not json", { status: 200 })).list("x"), { kind: "bad-reply" });
  await assert.rejects(api(new Response("{}", { status: 200 })).config(), { kind: "bad-reply" });
});

test("upload: chunks of the server's size in order, never more in memory, the bytes arrive whole", async () => {
  const srv = fakeFilesServer({ chunkBytes: 4 });
  const data = bytesOf(10);
  const { blob, watch } = watchedBlob(data);
  const progress = [];
  const r = await uploadFile(blob, "photos/2024/a.jpg", {
    server: new FilesApi(srv.fetch, BASE),
    chunkBytes: 4,
    signal: new AbortController().signal,
    onProgress: (n) => progress.push(n),
    sleep: noSleep,
  });
  assert.deepEqual(r, { name: "photos/2024/a.jpg", renamed: false });
  assert.ok(same(srv.saved.get("photos/2024/a.jpg"), data));
  assert.equal(watch.largestSlice, 4);
  assert.deepEqual(progress, [0, 4, 8, 10]);
  const puts = srv.requests.filter((q) => q.method === "PUT").map((q) => new URL(q.url).searchParams.get("offset"));
  assert.deepEqual(puts, ["0", "4", "8"]);
  const post = srv.requests[0];
  assert.equal(post.url, "https://host.example/desk/files/upload");
  assert.deepEqual(JSON.parse(post.init.body), { path: "photos/2024/a.jpg", size: 10 });
  assert.equal(post.init.headers["Content-Type"], "application/json");
});

test("upload: a zero-byte file is one empty PUT; a taken name comes back renamed", async () => {
  const srv = fakeFilesServer({ chunkBytes: 4, taken: ["report.pdf"] });
  const r0 = await uploadFile(new Blob([]), "empty", {
    server: new FilesApi(srv.fetch, BASE), chunkBytes: 4, signal: new AbortController().signal, onProgress() {},
  });
  assert.deepEqual(r0, { name: "empty", renamed: false });
  assert.equal(srv.saved.get("empty").length, 0);
  assert.equal(srv.requests.filter((q) => q.method === "PUT").length, 1);
  const r1 = await uploadFile(new Blob(["pdf"]), "report.pdf", {
    server: new FilesApi(srv.fetch, BASE), chunkBytes: 4, signal: new AbortController().signal, onProgress() {},
  });
  assert.deepEqual(r1, { name: "report (1).pdf", renamed: true });
});

test("upload: after network failures and a 5xx it asks for the offset and resumes, with growing pauses", async () => {
  let n = 0;
  const plan = { 3: "network-after", 4: "network", 6: "busy" };
  const srv = fakeFilesServer({
    chunkBytes: 4,
    fault: (req) => {
      const what = plan[++n];
      if (what === "busy") return new Response(JSON.stringify({ error: "too many uploads" }), { status: 503 });
      return what ?? null;
    },
  });
  const data = bytesOf(13, 7);
  const pauses = [];
  const retries = [];
  const r = await uploadFile(new Blob([data]), "big.bin", {
    server: new FilesApi(srv.fetch, BASE),
    chunkBytes: 4,
    signal: new AbortController().signal,
    onProgress() {},
    onRetry: (e, attempt) => retries.push([e.kind, attempt]),
    sleep: async (ms) => pauses.push(ms),
  });
  assert.equal(r.name, "big.bin");
  assert.ok(same(srv.saved.get("big.bin"), data), "every byte once, in order");
  // The count of failures in a row goes on until a chunk gets through.
  assert.deepEqual(retries, [["network", 1], ["network", 2], ["busy", 3]]);
  assert.deepEqual(pauses, [backoffMs(1), backoffMs(2), backoffMs(3)]);
  assert.ok(backoffMs(2) > backoffMs(1) && backoffMs(10) === 15000);
  // Each retry asked for the confirmed offset before the next chunk.
  const seq = srv.requests.map((q) => q.method).join(" ");
  assert.equal(seq, "POST PUT PUT GET GET PUT GET PUT PUT");
});

test("upload: a 409 carries on from the server's offset", async () => {
  const srv = fakeFilesServer({ chunkBytes: 4 });
  const api = new FilesApi(srv.fetch, BASE);
  // The server already holds 4 bytes the page does not know of.
  const realCreate = api.create.bind(api);
  api.create = async (path, size, signal) => {
    const s = await realCreate(path, size, signal);
    await api.put(s.id, 0, new Blob([bytesOf(4, 3)]), signal);
    return s;
  };
  const data = bytesOf(8, 3);
  await uploadFile(new Blob([data]), "c.bin", { server: api, chunkBytes: 4, signal: new AbortController().signal, onProgress() {} });
  assert.ok(same(srv.saved.get("c.bin"), data));
});

test("upload: gives up after the retries, with the words of the last failure", async () => {
  const srv = fakeFilesServer({ chunkBytes: 4, fault: (req) => (req.method === "PUT" ? "network" : null) });
  await assert.rejects(
    uploadFile(new Blob(["hello"]), "h.txt", {
      server: new FilesApi(srv.fetch, BASE), chunkBytes: 4, signal: new AbortController().signal, onProgress() {}, sleep: noSleep, retries: 3,
    }),
    { kind: "network", message: /^Network failure/ },
  );
  assert.equal(srv.requests.filter((q) => q.method === "PUT").length, 4);
});

test("upload: refusals are not retried (too big, no space, name refused)", async () => {
  const big = fakeFilesServer({ chunkBytes: 4, maxBytes: 3 });
  await assert.rejects(
    uploadFile(new Blob(["hello"]), "h.txt", { server: new FilesApi(big.fetch, BASE), chunkBytes: 4, signal: new AbortController().signal, onProgress() {}, sleep: noSleep }),
    { message: "Too big: larger than the limit of 3 bytes" },
  );
  assert.equal(big.requests.length, 1);
  const full = fakeFilesServer({ chunkBytes: 4, fault: (q) => (q.method === "PUT" ? new Response('{"error":"disk full"}', { status: 507 }) : null) });
  await assert.rejects(
    uploadFile(new Blob(["hello"]), "h.txt", { server: new FilesApi(full.fetch, BASE), chunkBytes: 4, signal: new AbortController().signal, onProgress() {}, sleep: noSleep }),
    { message: "No space left on the server: disk full" },
  );
  const bad = fakeFilesServer({ chunkBytes: 4 });
  await assert.rejects(
    uploadFile(new Blob(["x"]), "../x", { server: new FilesApi(bad.fetch, BASE), chunkBytes: 4, signal: new AbortController().signal, onProgress() {} }),
    { message: "Name refused: the name is not allowed" },
  );
});

// A queue on the fake server, with a clock the test moves.
function queueOn(srv, extra = {}) {
  const clock = { t: 0 };
  const q = new UploadQueue({ server: new FilesApi(srv.fetch, BASE), now: () => clock.t, sleep: noSleep, ...extra });
  q.setLimits(4, 0);
  return { q, clock };
}

function idle(q) {
  return new Promise((resolve) => {
    const check = () => {
      if (q.totals().waiting === 0) resolve();
      else setTimeout(check, 1);
    };
    check();
  });
}

test("queue: one file at a time, in order, with totals and the saved names", async () => {
  let active = 0;
  let most = 0;
  const srv = fakeFilesServer({
    chunkBytes: 4,
    taken: ["b.txt"],
    fault: async (req) => {
      if (req.method === "POST") active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 1));
      return null;
    },
  });
  const { q } = queueOn(srv);
  const saved = [];
  q.onSaved = (i) => {
    saved.push(i.savedAs);
    active--;
  };
  q.add([
    { file: new Blob([bytesOf(9)]), path: "a.txt" },
    { file: new Blob(["bb"]), path: "b.txt" },
    { file: new Blob([]), path: "d/e/empty" },
  ]);
  assert.equal(q.items.length, 3);
  await idle(q);
  assert.equal(most, 1, "never two uploads at once");
  assert.deepEqual(saved, ["a.txt", "b (1).txt", "d/e/empty"]);
  assert.deepEqual(q.items.map((i) => i.state), ["done", "done", "done"]);
  assert.equal(q.items[1].renamed, true);
  const t = q.totals();
  assert.deepEqual([t.sent, t.total, t.percent, t.waiting, t.secondsLeft], [11, 11, 100, 0, 0]);
  q.clearFinished();
  assert.equal(q.items.length, 0);
});

test("queue: a file over the limit fails at once in the panel, with nothing sent", async () => {
  const srv = fakeFilesServer({ chunkBytes: 4 });
  const { q } = queueOn(srv);
  q.setLimits(4, 1024 * 1024);
  q.add([{ file: { size: 1536 * 1024, slice() { throw new Error("read"); } }, path: "huge.iso" }, { file: new Blob(["ok"]), path: "ok" }]);
  await idle(q);
  assert.equal(q.items[0].state, "failed");
  assert.equal(q.items[0].message, "Too big: the server takes files up to 1 MiB, this one is 1.5 MiB");
  assert.equal(q.items[1].state, "done");
  assert.equal(srv.requests.filter((r) => r.method === "POST").length, 1);
  // Failed files count in neither total.
  assert.equal(q.totals().total, 2);
});

test("queue: cancel drops a queued file and aborts the one being sent, then tells the server", async () => {
  let release;
  const gate = new Promise((r) => (release = r));
  const srv = fakeFilesServer({ chunkBytes: 4, fault: async (req) => (req.method === "PUT" && new URL(req.url).searchParams.get("offset") === "4" ? gate : null) });
  const { q } = queueOn(srv);
  q.add([{ file: new Blob([bytesOf(12)]), path: "first" }, { file: new Blob(["zz"]), path: "second" }]);
  // Wait until the first file's second chunk is on its way.
  while (!srv.requests.some((r) => r.method === "PUT" && r.url.endsWith("offset=4"))) await new Promise((r) => setTimeout(r, 1));
  assert.equal(q.items[0].sent, 4);
  q.cancel(q.items[1].key);
  assert.equal(q.items[1].state, "cancelled");
  q.cancel(q.items[0].key);
  release(null);
  await idle(q);
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(q.items[0].state, "cancelled");
  assert.ok(srv.requests.some((r) => r.method === "DELETE"), "the server was told");
  assert.equal(srv.uploads.size, 0, "no partial upload left");
  assert.equal(srv.requests.filter((r) => r.method === "POST").length, 1, "the second never started");
});

test("queue: rate and time left of the file being sent and over all files", async () => {
  const srv = fakeFilesServer({ chunkBytes: 4 });
  const clock = { t: 0 };
  const q = new UploadQueue({ server: new FilesApi(srv.fetch, BASE), now: () => clock.t, sleep: noSleep });
  q.setLimits(4, 0);
  const seen = [];
  q.onChange = () => {
    const cur = q.items.find((i) => i.state === "sending");
    if (cur) {
      seen.push([cur.sent, q.rateOf(cur), q.secondsLeftOf(cur)]);
      clock.t += 1000; // each step takes a second
    }
  };
  q.add([{ file: new Blob([bytesOf(16)]), path: "r" }]);
  await idle(q);
  // 4 bytes confirmed a second: 12 bytes left take 3 s.
  const mid = seen.find(([sent]) => sent === 8);
  assert.ok(mid, JSON.stringify(seen));
  assert.ok(mid[1] > 0 && Number.isFinite(mid[2]));
});

test("queue: only the latest finished entries are kept", async () => {
  const srv = fakeFilesServer({ chunkBytes: 4 });
  const { q } = queueOn(srv);
  q.setLimits(4, 1);
  const many = Array.from({ length: MAX_FINISHED_KEPT + 20 }, (_, i) => ({ file: new Blob(["xx"]), path: `f${i}` }));
  q.add(many);
  assert.equal(q.items.length, MAX_FINISHED_KEPT);
  assert.equal(q.items[0].path, "f20");
});

// Stand-ins for the browser's entries: a folder's reader hands out two
// entries per call, then an empty batch.
function fileEntry(name, text) {
  return { isFile: true, isDirectory: false, name, fullPath: "", file: (ok) => setTimeout(() => ok(new File([text], name)), 0) };
}
function dirEntry(name, children) {
  return {
    isFile: false,
    isDirectory: true,
    name,
    fullPath: "",
    createReader() {
      let at = 0;
      return {
        readEntries(ok) {
          const batch = children.slice(at, at + 2);
          at += batch.length;
          setTimeout(() => ok(batch), 0);
        },
      };
    },
  };
}

test("walk: folders keep their relative paths; every batch of a reader is read", async () => {
  const tree = dirEntry("photos", [
    dirEntry("2024", [fileEntry("a.jpg", "A"), fileEntry("b.jpg", "B"), fileEntry("c.jpg", "C"), dirEntry("empty", [])]),
    fileEntry("top.txt", "T"),
    fileEntry("x.txt", "X"),
  ]);
  const loose = new File(["L"], "loose.txt");
  const g = await gatherDrop({ entries: [tree, fileEntry("solo.md", "S")], loose: [loose] });
  assert.deepEqual(g.files.map((f) => f.path), [
    "loose.txt",
    "photos/2024/a.jpg",
    "photos/2024/b.jpg",
    "photos/2024/c.jpg",
    "photos/top.txt",
    "photos/x.txt",
    "solo.md",
  ]);
  assert.equal(await g.files[3].file.text(), "C");
  assert.deepEqual(g.problems, []);
});

test("walk: unreadable entries are said so; the count is capped", async () => {
  const broken = { isFile: true, isDirectory: false, name: "locked", fullPath: "", file: (_ok, fail) => fail(new DOMException("denied", "NotReadableError")) };
  const badDir = { isFile: false, isDirectory: true, name: "d", fullPath: "", createReader: () => ({ readEntries: (_ok, fail) => fail(new Error("gone")) }) };
  const g = await gatherDrop({ entries: [broken, badDir, dirEntry("many", [1, 2, 3, 4, 5].map((i) => fileEntry(`${i}`, "")))], loose: [] }, 3);
  assert.deepEqual(g.files.map((f) => f.path), ["many/1", "many/2", "many/3"]);
  assert.deepEqual(g.problems, ["Could not read locked: denied", "Could not read the folder d: gone", "Only the first 3 files were taken"]);
});

test("drop parts: entries taken from the items, files without one kept, text drags told apart", () => {
  const e = fileEntry("a", "A");
  const f = new File(["B"], "b");
  const dt = {
    types: ["Files"],
    items: [
      { kind: "file", webkitGetAsEntry: () => e, getAsFile: () => null },
      { kind: "file", webkitGetAsEntry: () => null, getAsFile: () => f },
      { kind: "string", webkitGetAsEntry: () => null, getAsFile: () => null },
    ],
    files: [],
  };
  const parts = dropParts(dt);
  assert.deepEqual(parts.entries, [e]);
  assert.deepEqual(parts.loose, [f]);
  assert.equal(carriesFiles(dt), true);
  assert.equal(carriesFiles({ types: ["text/plain"] }), false);
  assert.equal(carriesFiles(null), false);
  // Without an item list, the plain file list.
  assert.deepEqual(dropParts({ types: ["Files"], items: [], files: [f] }).loose, [f]);
});

test("picker: a folder's files carry their relative path", () => {
  const a = new File(["a"], "a.jpg");
  Object.defineProperty(a, "webkitRelativePath", { value: "photos/2024/a.jpg" });
  const b = new File(["b"], "b.txt");
  const g = gatherInput([a, b]);
  assert.deepEqual(g.files.map((x) => x.path), ["photos/2024/a.jpg", "b.txt"]);
});
