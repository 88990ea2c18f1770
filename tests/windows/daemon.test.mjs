// voxl.exe end to end under Wine: the daemon, cross-built and linked
// statically, streams a Windows program's window (voxl_windows_probe.exe) to
// headless Chromium, and the page's input, clipboard and the agents'
// endpoints reach Windows and come back; files go up and down through the
// Files panel; Ctrl+C ends it cleanly.
//
// Run by run_under_wine.sh --script, which provides a private Xvfb of
// DESKTOP's size and a fresh Wine prefix. Environment (set by
// tests/CMakeLists.txt and the runner):
//   VOXL_WINE            the wine program
//   VOXL_WINDOWS_ZIP     voxl-<version>-windows-x64.zip, whose voxl.exe runs
//                        (or VOXL_WINDOWS_EXE, a voxl.exe to run instead)
//   VOXL_WINDOWS_PROBE   voxl_windows_probe.exe
//   DISPLAY, WINEPREFIX  the runner's display and prefix
//
// Wine has no DXGI Desktop Duplication (voxl.exe uses GDI), sends no cursor
// WinEvents (the shape showing at start is checked, not a change) and its
// winepulse has no WASAPI loopback (see docs/windows.md); the tests say what
// they skipped.
import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import * as e2e from "../e2e/support.mjs";
import { bytes, dropTree, fileSha, openFiles, rows, sha256, waitRows, zipHashes } from "../e2e/files_support.mjs";

const opts = { timeout: e2e.TEST_TIMEOUT_MS };
const execFileP = promisify(execFile);

const WINE = process.env.VOXL_WINE || "wine";
const ZIP = process.env.VOXL_WINDOWS_ZIP;
let VOXL_EXE = process.env.VOXL_WINDOWS_EXE;
const PROBE_EXE = process.env.VOXL_WINDOWS_PROBE;
const TOKEN = "wine-test-token-0123456789";
// The probe's colour, its click mark's, and the colour /wait sees it change to.
const PROBE_RGB = "20a060";
const MARK_RGB = "ff0000";
const FILL_RGB = "3050c0";
const FRESH_RGB = "c08030";  // used once, by the sound test: always a change

// A Windows program under Wine: its lines as they come, and a way to wait
// for one. Everything it prints goes to `log` for failure messages.
function startWindowsProgram(scope, exe, args, what, env = {}) {
  const child = spawn(WINE, [exe, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
  const lines = [];
  let log = "";
  let partial = "";
  child.stdout.on("data", (d) => {
    log += d.toString();
    partial += d.toString();
    let nl;
    while ((nl = partial.indexOf("\n")) >= 0) {
      lines.push(partial.slice(0, nl).replace(/\r$/, ""));
      partial = partial.slice(nl + 1);
    }
  });
  child.stderr.on("data", (d) => {
    log += d.toString();
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  scope.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  });
  const program = {
    child,
    lines,
    exited,
    log: () => log,
    // Waits until `pred(lines)` holds; the lines in the error otherwise.
    async waitFor(pred, ms = 60_000, about = "a line") {
      const deadline = Date.now() + ms;
      for (;;) {
        if (pred(lines)) return lines;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) while waiting for ${about}:\n${log}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${what}: no ${about} within ${ms} ms:\n${log}`);
        // Woken by output (after the listeners above took it in) or the exit.
        await new Promise((resolve) => {
          const done = () => {
            clearTimeout(timer);
            child.stdout.off("data", done);
            child.stderr.off("data", done);
            child.off("exit", done);
            resolve();
          };
          const timer = setTimeout(done, left);
          child.stdout.on("data", done);
          child.stderr.on("data", done);
          child.once("exit", done);
        });
      }
    },
  };
  return program;
}

const scope = new e2e.Scope();
let probe;
let voxl;
let base;
let pulse;
let filesRoot; // --files-root, as this side sees it

before(async () => {
  if (!VOXL_EXE) {
    // Unpacked as a user would; the zip's folder has what its README says.
    assert.ok(ZIP && fs.existsSync(ZIP), `no Windows zip at ${ZIP}: scripts/test makes it (scripts/package-windows)`);
    const dir = await e2e.tempDir(scope, "zip");
    await execFileP("bsdtar", ["-xf", ZIP, "-C", dir], { timeout: 60_000 });
    const [folder] = await fs.promises.readdir(dir);
    assert.match(folder, /^voxl-[0-9.]+-windows-x64$/);
    const files = await fs.promises.readdir(path.join(dir, folder));
    for (const want of ["voxl.exe", "README.txt", "COPYING.txt", "SOURCES.txt", "LICENSES"]) assert.ok(files.includes(want), `the zip lacks ${want}: ${files}`);
    const licences = await fs.promises.readdir(path.join(dir, folder, "LICENSES"));
    for (const want of ["voxl.txt", "x264.txt", "opus.txt", "libyuv.txt", "openssl.txt", "libpng1.6.txt", "libarchive.txt", "zlib.txt"])
      assert.ok(licences.includes(want), `LICENSES lacks ${want}: ${licences}`);
    VOXL_EXE = path.join(dir, folder, "voxl.exe");
  }
  assert.ok(fs.existsSync(VOXL_EXE), `no voxl.exe at ${VOXL_EXE}`);
  assert.ok(PROBE_EXE && fs.existsSync(PROBE_EXE), `no probe at ${PROBE_EXE}`);
  probe = startWindowsProgram(scope, PROBE_EXE, [], "the probe");
  await probe.waitFor((l) => l.some((x) => x.startsWith("ready")), 120_000, "ready line");
  // Sound: winepulse plays to and records from this PulseAudio; the tone
  // plays into its null sink, whose monitor is WASAPI's loopback.
  pulse = await e2e.startPulse(scope);
  await e2e.playTone(scope, pulse, 440, 600);
  const port = await e2e.freePort();
  // The Files panel's folder: a fresh one, which Wine's Z: drive shows as
  // Z:\tmp\..., given as a Windows user would type it.
  filesRoot = await e2e.tempDir(scope, "wine-files");
  const filesRootOnWindows = `Z:${filesRoot.replaceAll("/", "\\")}`;
  // Started as a user would start it from a console: flags, nothing else.
  voxl = startWindowsProgram(
    scope,
    VOXL_EXE,
    ["--addr=127.0.0.1", `--port=${port}`, `--auth-token=${TOKEN}`, "--log-level=debug", `--files-root=${filesRootOnWindows}`],
    "voxl.exe",
    { PULSE_SERVER: pulse.server },
  );
  await voxl.waitFor(() => /voxl is serving/.test(voxl.log()), 120_000, "serving line");
  base = `http://127.0.0.1:${port}`;
}, { timeout: 300_000 });
after(() => scope.close());

// voxl.exe's log goes with a failure.
async function withLog(fn) {
  try {
    return await fn();
  } catch (e) {
    e.message += `\n--- voxl.exe ---\n${voxl.log()}`;
    throw e;
  }
}

async function get(pathAndQuery, headers = {}) {
  const res = await fetch(`${base}${pathAndQuery}`, { headers: { Authorization: `Bearer ${TOKEN}`, ...headers } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

async function openViewer(local, options = {}) {
  const browser = await e2e.launchBrowser(local, options);
  await browser.page.goto(`${base}/?token=${TOKEN}`);
  await e2e.waitStreaming(browser.page);
  await e2e.waitInPage(browser.page, () => window.voxl?.interaction()?.input === true, null, { what: "input enabled" });
  return browser;
}

// Where desktop pixel (x, y) is on the page.
async function pageAt(page, x, y) {
  const r = await page.evaluate(() => {
    const b = document.getElementById("screen").getBoundingClientRect();
    return { left: b.left, top: b.top, width: b.width, height: b.height };
  });
  return { x: r.left + ((x + 0.5) * r.width) / e2e.DESKTOP.width, y: r.top + ((y + 0.5) * r.height) / e2e.DESKTOP.height };
}

const chars = (lines) => lines.filter((l) => l.startsWith("char ")).map((l) => parseInt(l.slice(7), 16));

test("voxl.exe says it captures with GDI, and why", () => {
  assert.match(voxl.log(), /GDI/, voxl.log());
});

test("the page shows the Windows program, with its cursor", opts, (t) => withLog(async () => {
  const local = new e2e.Scope();
  try {
    const { page } = await openViewer(local);
    await e2e.waitForColors(page, [
      { x: 10, y: 10, rgb: PROBE_RGB },
      { x: 320, y: 240, rgb: PROBE_RGB },
      { x: 630, y: 470, rgb: PROBE_RGB },
    ]);
    // Wine sends no cursor WinEvents, so the shape is the one read at start;
    // and it cannot read another program's cursor (the probe's hand), so
    // voxl.exe says so once and shows the standard arrow instead.
    await e2e.waitInPage(page, () => !!window.voxl.interaction().cursor, null, { what: "a cursor shape" });
    const cursor = (await page.evaluate(() => window.voxl.interaction())).cursor;
    assert.equal(cursor.hidden, false);
    assert.match(cursor.css, /url\(data:image\/png;base64,/);
    if (/cannot read the shape of cursor/.test(voxl.log()))
      t.diagnostic("Wine: the probe's hand cursor is not readable from voxl.exe; the standard arrow stood in");
  } finally {
    await local.close();
  }
}));

test("a click lands on its pixel; typed text arrives, also characters outside the layout", opts, () => withLog(async () => {
  const local = new e2e.Scope();
  try {
    const { page } = await openViewer(local);
    const p = await pageAt(page, 301, 201);
    await page.mouse.click(p.x, p.y);
    await probe.waitFor((l) => l.some((x) => x.startsWith("click ")), 30_000, "a click");
    assert.deepEqual(probe.lines.filter((l) => l.startsWith("click ")), ["click 301 201"]);
    await e2e.waitForColors(page, [{ x: 301, y: 201, rgb: MARK_RGB }, { x: 330, y: 201, rgb: PROBE_RGB }]);

    const before = chars(probe.lines).length;
    const typed = "Hello, voxl 1!";
    await page.keyboard.type(typed);
    // Not on a US keyboard: typed as Unicode (é, Cyrillic, and a surrogate pair).
    await page.keyboard.insertText("éж😀");
    const want = [...(typed + "éж😀")].map((c) => c.codePointAt(0));
    await probe.waitFor((l) => chars(l).length >= before + want.length, 30_000, "the typed characters");
    assert.deepEqual(chars(probe.lines).slice(before), want);
  } finally {
    await local.close();
  }
}));

test("clipboard text goes from Windows to the page and back", opts, () => withLog(async () => {
  const local = new e2e.Scope();
  try {
    const { context, page } = await openViewer(local);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    await e2e.waitInPage(page, () => window.voxl.interaction().clipboard.asyncAvailable === true, null, {
      what: "the async clipboard readable",
    });

    const fromWindows = `copied on Windows ✓ ${Date.now()}`;
    probe.child.stdin.write(`copy ${fromWindows}\n`);
    await e2e.waitInPage(page, (t) => window.voxl.interaction().clipboard.desktopText === t, fromWindows, {
      what: "the Windows clipboard in the page",
    });
    await e2e.waitInPage(page, () => !window.voxl.interaction().clipboard.pending, null, { what: "the page's clipboard written" });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), fromWindows);

    const fromPage = `pasted from the page ✓ ${Date.now()}`;
    await page.evaluate((t) => navigator.clipboard.writeText(t), fromPage);
    await page.keyboard.press("Control+v");
    await probe.waitFor((l) => l.includes(`clipboard ${fromPage}`), 30_000, "the page's text on the Windows clipboard");
  } finally {
    await local.close();
  }
}));

test("/screenshot has the window's pixels; /wait returns on a change; /record is an MP4", opts, () => withLog(async () => {
  const shot = await get("/screenshot");
  assert.equal(shot.status, 200, shot.body.toString());
  assert.equal(shot.headers.get("content-type"), "image/png");
  const png = e2e.decodePng(shot.body);
  assert.deepEqual([png.width, png.height], [e2e.DESKTOP.width, e2e.DESKTOP.height]);
  assert.deepEqual(png.rgb(10, 10), e2e.hexToRgb(PROBE_RGB));
  assert.deepEqual(png.rgb(301, 201), e2e.hexToRgb(MARK_RGB));
  const seq = Number(shot.headers.get("x-voxl-seq"));
  assert.ok(Number.isInteger(seq), `X-Voxl-Seq: ${shot.headers.get("x-voxl-seq")}`);

  const waiting = get(`/wait?change&since=${seq}&timeout=60000`);
  probe.child.stdin.write(`fill ${FILL_RGB}\n`);
  const waited = await waiting;
  assert.equal(waited.status, 200, waited.body.toString());
  assert.equal(JSON.parse(waited.body.toString()).changed, true, waited.body.toString());
  const after = e2e.decodePng((await get("/screenshot")).body);
  assert.deepEqual(after.rgb(10, 10), e2e.hexToRgb(FILL_RGB));

  const rec = await get("/record?seconds=2");
  assert.equal(rec.status, 200, rec.body.toString());
  const dir = await fs.promises.mkdtemp(path.join(process.env.TMPDIR || "/tmp", "voxl-wine-record-"));
  try {
    const file = path.join(dir, "clip.mp4");
    await fs.promises.writeFile(file, rec.body);
    const { stdout } = await execFileP("ffprobe", ["-v", "error", "-show_streams", "-of", "json", file], { timeout: 60_000 });
    const video = JSON.parse(stdout).streams.find((s) => s.codec_type === "video");
    assert.equal(video?.codec_name, "h264", stdout);
    assert.deepEqual([video.width, video.height], [e2e.DESKTOP.width, e2e.DESKTOP.height]);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}));

test("files: a dropped folder arrives whole, a taken name is kept, a name Windows cannot hold is refused, downloads", opts, () => withLog(async () => {
  const local = new e2e.Scope();
  try {
    assert.match(voxl.log(), /file transfer: uploads and downloads beneath Z:\\/);
    const { page } = await openViewer(local, { acceptDownloads: true });
    await e2e.waitInPage(page, () => window.voxl.panel().files === true, null, { what: "hello offering files" });
    const config = await page.evaluate(() => fetch("files").then((r) => r.json()));
    const uploads = path.join(filesRoot, config.upload_dir);
    const expected = new Map([
      ["Grüße ✓.txt", Buffer.from("aus Windows\n")],
      ["album/a.txt", Buffer.from("a\n")],
      ["album/inner/b.bin", bytes(1_500_001, 4)],
    ]);
    await dropTree(page, [
      { name: "Grüße ✓.txt", data: expected.get("Grüße ✓.txt") },
      { name: "album", children: [{ name: "a.txt", data: expected.get("album/a.txt") }, { name: "inner", children: [{ name: "b.bin", data: expected.get("album/inner/b.bin") }] }] },
    ]);
    await waitRows(page, [...expected.keys()], ["done"], "every dropped file uploaded");
    for (const [p, data] of expected) assert.equal(await fileSha(path.join(uploads, p)), sha256(data), `${p} on disk`);

    // Renamed into place without replacing (NtSetInformationFile beneath the
    // jail's folder handle), and no partial file left.
    await dropTree(page, [{ name: "album", children: [{ name: "a.txt", data: Buffer.from("second a\n") }] }]);
    await e2e.waitInPage(
      page,
      () => [...document.querySelectorAll("#files-transfers li.transfer[data-path='album/a.txt']")].some((li) => li.dataset.state === "done" && /\(1\)/.test(li.textContent)),
      null,
      { what: "the second a.txt saved under the next free name", timeout: 60_000 },
    );
    assert.equal(await fs.promises.readFile(path.join(uploads, "album/a.txt"), "utf8"), "a\n");
    assert.equal(await fs.promises.readFile(path.join(uploads, "album/a (1).txt"), "utf8"), "second a\n");
    const left = (await fs.promises.readdir(uploads, { recursive: true })).filter((n) => n.includes(".voxl-upload-"));
    assert.deepEqual(left, []);

    // A device name: the jail refuses it before Windows could open the device.
    await dropTree(page, [{ name: "CON.txt", data: Buffer.from("no\n") }]);
    await waitRows(page, ["CON.txt"], ["failed"], "CON.txt refused");
    assert.match((await rows(page))["CON.txt"].text, /not a name Windows can hold/);
    assert.equal(fs.existsSync(path.join(uploads, "CON.txt")), false);

    // Down again: a file, and the folder as a zip, through the browser.
    await openFiles(page);
    const dirName = path.basename(uploads);
    await page.click(`#files-list li[data-name="${dirName}"] button.entry-name`);
    await e2e.waitInPage(page, () => !!document.querySelector("#files-list li[data-name='album']"), null, { what: "the upload folder listed" });
    const saved = await e2e.tempDir(local, "wine-downloads");
    const [file] = await Promise.all([page.waitForEvent("download"), page.click(`#files-list li[data-name="Grüße ✓.txt"] a.download`)]);
    assert.equal(file.suggestedFilename(), "Grüße ✓.txt");
    await file.saveAs(path.join(saved, "got.txt"));
    assert.equal(await fileSha(path.join(saved, "got.txt")), sha256(expected.get("Grüße ✓.txt")));
    const [zip] = await Promise.all([page.waitForEvent("download"), page.click("#files-list li[data-name='album'] a.download")]);
    assert.equal(zip.suggestedFilename(), "album.zip");
    await zip.saveAs(path.join(saved, "album.zip"));
    const inZip = Object.fromEntries(Object.entries(await zipHashes(path.join(saved, "album.zip"))).map(([n, h]) => [n.replace(/^album\//, ""), h]));
    assert.deepEqual(inZip, {
      "a.txt": sha256(expected.get("album/a.txt")),
      "a (1).txt": sha256(Buffer.from("second a\n")),
      "inner/b.bin": sha256(expected.get("album/inner/b.bin")),
    });
  } finally {
    await local.close();
  }
}));

// Wine 8's winepulse has no loopback: the capture client of an output
// device is refused with AUDCLNT_E_WRONG_ENDPOINT_TYPE. Then the check is
// that voxl.exe says so once and streams the picture alone; a Wine that
// has loopback must carry the tone to the page.
test("the desktop's sound plays in the page, or voxl.exe says once why it cannot", opts, (t) => withLog(async () => {
  const local = new e2e.Scope();
  try {
    const { page } = await e2e.launchBrowser(local, { args: [...e2e.CHROMIUM_ARGS, "--mute-audio"] });
    await page.goto(`${base}/?token=${TOKEN}`);
    await e2e.waitStreaming(page);
    const refused = /no audio from the default output device \(WASAPI loopback\).*AUDCLNT_E_WRONG_ENDPOINT_TYPE/;
    await e2e.waitInPage(page, () => window.voxl.audio().packets > 0, null, { what: "audio packets" }).catch((e) => {
      if (!refused.test(voxl.log())) throw e;
    });
    if (refused.test(voxl.log())) {
      t.diagnostic("skipped: Wine's winepulse has no WASAPI loopback (AUDCLNT_E_WRONG_ENDPOINT_TYPE)");
      assert.equal(voxl.log().match(/no audio from the default output device/g).length, 1, "said once");
      const before = (await e2e.stats(page)).framesDecoded;
      probe.child.stdin.write(`fill ${FRESH_RGB}\n`);
      await e2e.waitStreaming(page, { frames: before + 1 });
      return;
    }
    await page.mouse.click(5, 5);
    await e2e.waitInPage(
      page,
      () => {
        const a = window.voxl.audio();
        return a.running && a.decodedFrames >= 200 && a.analyserLevel > 0.05;
      },
      null,
      { what: "audible decoded audio" },
    );
  } finally {
    await local.close();
  }
}));

test("Ctrl+C ends voxl.exe cleanly", opts, async (t) => {
  // Wine turns SIGINT into the console's Ctrl+C event.
  voxl.child.kill("SIGINT");
  const end = await Promise.race([voxl.exited, new Promise((r) => setTimeout(() => r(null), 60_000))]);
  assert.ok(end, `voxl.exe did not exit within 60 s of Ctrl+C:\n${voxl.log()}`);
  assert.deepEqual(end, { code: 0, signal: null }, voxl.log());
  assert.match(voxl.log(), /stopping \(SIGINT\)/);
  t.diagnostic("not tried under Wine: DXGI Desktop Duplication, live cursor shape changes, closing the console window");
});
