// The Files panel in Chromium against a real voxl with --files-root on a
// fresh folder: opened from the control panel and closed by Escape; files
// and a folder dropped on the picture (the drop is made in the page: a
// DataTransfer-like object whose items give FileSystemEntry-like objects
// backed by real File objects, since Chromium gives entries only for real
// drags) arrive whole on disk (sha256), with progress to 100% and a taken
// name renamed; the pickers; cancelling; downloading a file and a folder
// as a zip through the browser's own downloads; and, on a second voxl with
// --max-upload-mb 1, the panel's words for a file that is too big.
// Screenshots go to VOXL_ARTIFACTS.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";

import * as e2e from "./support.mjs";
import { bytes, dropTree, fileSha, openFiles, rows, sha256, waitRows, zipHashes } from "./files_support.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const ARTIFACTS = process.env.VOXL_ARTIFACTS || path.join(os.tmpdir(), "voxl-artifacts", "web");
const MiB = 1024 * 1024;

const scope = new e2e.Scope();
let voxl;
let root; // --files-root
let uploads; // the upload folder under it
let browser;
let page;
let work; // scratch files of the test's own

async function openPage(p, server) {
  await p.goto(server.url);
  await e2e.waitStreaming(p);
  await e2e.waitInPage(p, () => window.voxl?.panel()?.files === true, null, { what: "hello offering files" });
}

before(async () => {
  work = await e2e.tempDir(scope, "files-work");
  root = await e2e.tempDir(scope, "files-root");
  voxl = await e2e.startVoxl(scope, { args: [`--files-root=${root}`] });
  browser = await e2e.launchBrowser(scope, { acceptDownloads: true });
  page = browser.page;
  await openPage(page, voxl);
  const config = await page.evaluate(() => fetch("files").then((r) => r.json()));
  assert.equal(config.upload, true);
  assert.equal(config.download, true);
  uploads = path.join(root, config.upload_dir);
  await fs.promises.mkdir(ARTIFACTS, { recursive: true });
}, opts);
after(() => scope.close());

test("the Files button opens the panel; Escape closes it and the keyboard goes back to the picture", opts, async () => {
  await page.click("#panel-toggle");
  await e2e.waitInPage(page, () => window.voxl.panel().open === true, null, { what: "the control panel open" });
  assert.equal(await page.isVisible("#panel-files"), true, "the Files button shows when the server offers files");
  await page.click("#panel-files");
  await e2e.waitInPage(page, () => !document.getElementById("files").hidden, null, { what: "the Files panel open" });
  assert.equal(await page.evaluate(() => window.voxl.panel().open), false, "the control panel gave way");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "files-close", "the keyboard is in the Files panel");
  // The root's listing arrives (empty so far).
  await e2e.waitInPage(page, () => document.getElementById("files-crumbs").textContent.includes("Files"), null, { what: "the listing" });
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.getElementById("files").contains(document.activeElement)), true);
  await page.keyboard.press("Escape");
  await e2e.waitInPage(page, () => document.getElementById("files").hidden, null, { what: "the Files panel closed" });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "keyboard input for the remote desktop");
});

const big = bytes(2 * MiB + 123_457, 1); // three chunks of 1 MiB
const tree = [
  { name: "big.bin", data: big },
  { name: "empty.txt", data: Buffer.alloc(0) },
  { name: "notes ü & co.txt", data: Buffer.from("Grüße, voxl\n") },
  {
    name: "photos",
    children: [
      { name: "2024", children: [{ name: "a.jpg", data: bytes(300_001, 2) }, { name: "b.jpg", data: bytes(17, 3) }] },
      { name: "c.txt", data: Buffer.from("c\n") },
    ],
  },
];
// path below the upload folder -> bytes
const expected = new Map([
  ["big.bin", big],
  ["empty.txt", Buffer.alloc(0)],
  ["notes ü & co.txt", Buffer.from("Grüße, voxl\n")],
  ["photos/2024/a.jpg", bytes(300_001, 2)],
  ["photos/2024/b.jpg", bytes(17, 3)],
  ["photos/c.txt", Buffer.from("c\n")],
]);

test("files and a folder dropped on the picture arrive whole, with progress to 100%", opts, async () => {
  const url = page.url();
  const seen = await dropTree(page, tree);
  assert.equal(seen.hint, true, "the drop hint shows while dragging");
  assert.match(seen.hintText, /Drop to upload/);
  assert.equal(seen.overCancelled, true, "dragover is taken by the page");
  assert.equal(seen.dropEffect, "copy");
  assert.equal(seen.dropCancelled, true, "the drop goes no further");
  assert.equal(seen.hintAfter, false, "the hint goes with the drop");
  assert.equal(seen.url, url, "the page did not navigate");
  // The drop opened the panel; every file ends done at 100%.
  await e2e.waitInPage(page, () => !document.getElementById("files").hidden, null, { what: "the Files panel open" });
  await waitRows(page, [...expected.keys()], ["done"], "every dropped file uploaded");
  const r = await rows(page);
  for (const p of expected.keys()) assert.equal(r[p].percent, 100, `${p}: ${JSON.stringify(r[p])}`);
  assert.equal(await page.evaluate(() => document.getElementById("files-overall").dataset.percent), "100");
  assert.match(await page.evaluate(() => document.getElementById("files-overall-text").textContent), /6 of 6 files/);
  for (const [p, data] of expected) {
    const onDisk = path.join(uploads, p);
    assert.equal(await fileSha(onDisk), sha256(data), `${p} on disk`);
  }
  // No partial file is left behind.
  const left = (await fs.promises.readdir(uploads, { recursive: true })).filter((n) => n.includes(".voxl-upload-"));
  assert.deepEqual(left, []);
  assert.equal(page.url(), url);
  await page.screenshot({ path: path.join(ARTIFACTS, "files-uploaded-1280x720.png") });
});

test("a taken name is not overwritten: the upload is saved as the next free name and the panel says so", opts, async () => {
  await dropTree(page, [{ name: "photos", children: [{ name: "c.txt", data: Buffer.from("second c\n") }] }]);
  await e2e.waitInPage(
    page,
    () => [...document.querySelectorAll("#files-transfers li.transfer[data-path='photos/c.txt']")].some((li) => li.dataset.state === "done" && /\(1\)/.test(li.textContent)),
    null,
    { what: "the second c.txt saved", timeout: 60_000 },
  );
  const text = await page.evaluate(() => [...document.querySelectorAll("#files-transfers li.transfer[data-path='photos/c.txt']")].pop().innerText);
  assert.match(text, /saved as c \(1\)\.txt: the name was taken/);
  assert.equal(await fs.promises.readFile(path.join(uploads, "photos/c.txt"), "utf8"), "c\n");
  assert.equal(await fs.promises.readFile(path.join(uploads, "photos/c (1).txt"), "utf8"), "second c\n");
});

test("the pickers: files, and a folder with its relative paths", opts, async () => {
  await openFiles(page);
  const picked = path.join(work, "picked.bin");
  const pickedData = bytes(70_000, 9);
  await fs.promises.writeFile(picked, pickedData);
  await page.setInputFiles("#files-input", [picked]);
  await waitRows(page, ["picked.bin"], ["done"], "the picked file uploaded");
  assert.equal(await fileSha(path.join(uploads, "picked.bin")), sha256(pickedData));

  const folder = path.join(work, "album");
  await fs.promises.mkdir(path.join(folder, "inner"), { recursive: true });
  await fs.promises.writeFile(path.join(folder, "one.txt"), "one\n");
  await fs.promises.writeFile(path.join(folder, "inner", "two.txt"), "two\n");
  await page.setInputFiles("#files-folder-input", folder);
  await waitRows(page, ["album/one.txt", "album/inner/two.txt"], ["done"], "the picked folder uploaded");
  assert.equal(await fs.promises.readFile(path.join(uploads, "album/inner/two.txt"), "utf8"), "two\n");
});

test("cancel: a waiting file is never sent, the one being sent stops and leaves nothing behind", opts, async () => {
  await page.click("#files-clear");
  // Chunks after the first wait until the cancels are in: a local server
  // would otherwise take the whole file before the click.
  let release;
  const gate = new Promise((r) => (release = r));
  const held = /files\/upload\?id=[0-9a-f]+&offset=[1-9]/;
  await page.route(held, async (route) => {
    await gate;
    await route.continue().catch(() => {}); // the page may have given up on it
  });
  try {
    await dropTree(page, [{ name: "huge.bin", data: bytes(4 * MiB, 5) }, { name: "later.txt", data: Buffer.from("later\n") }]);
    await e2e.waitInPage(page, () => {
      const li = document.querySelector("#files-transfers li[data-path='huge.bin']");
      return li?.dataset.state === "sending" && Number(li.dataset.percent) > 0;
    }, null, { what: "huge.bin under way", timeout: 60_000 });
    assert.equal((await rows(page))["later.txt"].state, "queued", "one file at a time");
    await page.click("#files-transfers li[data-path='later.txt'] .transfer-cancel");
    await page.click("#files-transfers li[data-path='huge.bin'] .transfer-cancel");
    await waitRows(page, ["huge.bin", "later.txt"], ["cancelled"], "both cancelled");
  } finally {
    release();
    await page.unroute(held);
  }
  assert.equal(fs.existsSync(path.join(uploads, "later.txt")), false);
  assert.equal(fs.existsSync(path.join(uploads, "huge.bin")), false);
  // The server drops the partial file on the DELETE.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const left = (await fs.promises.readdir(uploads)).filter((n) => n.includes(".voxl-upload-"));
    if (left.length === 0) break;
    if (Date.now() > deadline) assert.fail(`partial files left: ${left}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test("downloads: a file and a folder as a zip, through the browser's downloads", opts, async () => {
  await openFiles(page);
  // Into the upload folder through the listing.
  const dirName = path.basename(uploads);
  await page.click(`#files-list li[data-name="${dirName}"] button.entry-name`);
  await e2e.waitInPage(page, (n) => !!document.querySelector(`#files-crumbs .crumb[aria-current]`)?.textContent.includes(n), dirName, {
    what: "the upload folder listed",
  });
  await e2e.waitInPage(page, () => !!document.querySelector("#files-list li[data-name='big.bin']"), null, { what: "big.bin listed" });
  const meta = await page.evaluate(() => document.querySelector("#files-list li[data-name='big.bin'] .entry-meta").textContent);
  assert.match(meta, /^2\.1 MiB · /, "size in human units, then the date");
  const href = await page.getAttribute("#files-list li[data-name='notes ü & co.txt'] a.download", "href");
  assert.equal(href, `files/download?path=${encodeURIComponent(`${dirName}/notes ü & co.txt`)}`, "a relative link, the path percent-encoded");

  const [file] = await Promise.all([page.waitForEvent("download"), page.click("#files-list li[data-name='big.bin'] a.download")]);
  assert.equal(file.suggestedFilename(), "big.bin");
  const savedFile = path.join(work, "got-big.bin");
  await file.saveAs(savedFile);
  assert.equal(await fileSha(savedFile), sha256(big));

  const [zip] = await Promise.all([page.waitForEvent("download"), page.click("#files-list li[data-name='photos'] a.download")]);
  assert.equal(zip.suggestedFilename(), "photos.zip");
  const savedZip = path.join(work, "photos.zip");
  await zip.saveAs(savedZip);
  const inZip = await zipHashes(savedZip);
  // Entries may or may not carry the folder's own name in front.
  const strip = (n) => n.replace(/^photos\//, "");
  const got = Object.fromEntries(Object.entries(inZip).map(([n, h]) => [strip(n), h]));
  assert.deepEqual(got, {
    "2024/a.jpg": sha256(expected.get("photos/2024/a.jpg")),
    "2024/b.jpg": sha256(expected.get("photos/2024/b.jpg")),
    "c.txt": sha256(expected.get("photos/c.txt")),
    "c (1).txt": sha256(Buffer.from("second c\n")),
  });
});

test("the panel fits a phone", opts, async () => {
  await openFiles(page);
  await page.setViewportSize({ width: 360, height: 640 });
  try {
    const box = await page.evaluate(() => {
      const r = document.getElementById("files").getBoundingClientRect();
      return { left: r.left, right: r.right, width: document.documentElement.clientWidth };
    });
    assert.ok(box.left >= 0 && box.right <= box.width + 0.5, JSON.stringify(box));
    await page.screenshot({ path: path.join(ARTIFACTS, "files-360x640.png") });
  } finally {
    await page.setViewportSize(e2e.VIEWPORT);
  }
});

test("a file over --max-upload-mb is refused in the panel with words, and by the server", opts, async () => {
  const local = new e2e.Scope();
  try {
    const smallRoot = await e2e.tempDir(local, "files-small");
    const limited = await e2e.startVoxl(local, { args: [`--files-root=${smallRoot}`, "--max-upload-mb=1"] });
    const p = await browser.context.newPage();
    local.defer(() => p.close());
    await openPage(p, limited);
    const config = await p.evaluate(() => fetch("files").then((r) => r.json()));
    // One MB, whether the server counts it as 10^6 or 2^20 bytes.
    assert.ok(config.max_upload_bytes === 1_000_000 || config.max_upload_bytes === MiB, JSON.stringify(config));
    const fits = bytes(900_000, 6);
    await openFiles(p);
    await dropTree(p, [{ name: "too big.bin", data: bytes(MiB + MiB / 2, 4) }, { name: "fits.bin", data: fits }]);
    await waitRows(p, ["too big.bin"], ["failed"], "the big file refused");
    await waitRows(p, ["fits.bin"], ["done"], "the file under the limit sent");
    const text = (await rows(p))["too big.bin"].text;
    assert.match(text, /Too big: the server takes files up to (1 MiB|977 KiB), this one is 1\.5 MiB/);
    const dir = path.join(smallRoot, config.upload_dir);
    assert.equal(fs.existsSync(path.join(dir, "too big.bin")), false);
    assert.equal(await fileSha(path.join(dir, "fits.bin")), sha256(fits));
    // The server says the same on its own.
    const refused = await p.evaluate(() =>
      fetch("files/upload", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path: "x.bin", size: 2 * 1048576 }) }).then(
        async (r) => ({ status: r.status, body: await r.json() }),
      ),
    );
    assert.equal(refused.status, 413);
    assert.equal(typeof refused.body.error, "string");
  } finally {
    await local.close();
  }
});
