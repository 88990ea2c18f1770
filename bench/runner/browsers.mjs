// The browsers of the browser column, each launched its own way and driven
// through one small interface, so browser_client.mjs measures them alike:
//
//   { page: { addInitScript(fn, arg), goto(url), waitForFunction(fn, timeoutMs), evaluate(fn) },
//     processes() -> { browser, renderer, gpu, other: [pids] }, close() }
//
// Chromium (the system's, or VOXL_CHROMIUM) through playwright-core, whose
// pipe to the browser also works through the lossy links' network-namespace
// wrapper. Firefox ESR (VOXL_FIREFOX, default /usr/bin/firefox-esr) through
// puppeteer-core over WebDriver BiDi, as the e2e tests drive it; it has no
// MediaStreamTrackGenerator, so the page draws into a canvas from a worker.
//
// Headless by default, at a viewport larger than the desktop. With
// `display` (bench/run --browser-screen): headful, full screen (kiosk) on
// that X server, which is the desktop's size, so the page shows the remote
// picture 1:1 from the screen's top-left corner, where the present probe
// reads the marker.

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumFlags, chromiumPath, launchHeadlessChromium } from "../browser/headless_chromium.mjs";
import { chromiumProcesses, firefoxProcesses } from "./cpu.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const webRequire = createRequire(path.join(repo, "web/package.json"));

export const browserNames = { chromium: "Chromium", firefox: "Firefox" };
export const firefoxPath = () => process.env.VOXL_FIREFOX || "/usr/bin/firefox-esr";

// A headless browser's viewport: room for the 1920x1080 desktop at 1:1.
const headlessViewport = { width: 2000, height: 1200 };

// `home`: a throwaway directory for the profile and $HOME. `wrap(exe)`, when
// given, is the program to start in the browser's place; `secureOrigin` a
// plain-HTTP origin to treat as secure (WebCodecs needs a secure context).
export function launchBrowser(kind, { home, display = null, width, height, wrap, secureOrigin = null }) {
  if (kind === "chromium") return launchChromium({ home, display, width, height, wrap, secureOrigin });
  if (kind === "firefox") return launchFirefox({ home, display, width, height, wrap, secureOrigin });
  throw new Error(`unknown browser ${kind} (${Object.keys(browserNames).join(", ")})`);
}

async function launchChromium({ home, display, width, height, wrap, secureOrigin }) {
  const executable = wrap ? wrap(chromiumPath()) : chromiumPath();
  // Chromium takes its home from the environment playwright was started in.
  const savedHome = process.env.HOME;
  process.env.HOME = home;
  let ctx;
  try {
    ctx = display
      ? await webRequire("playwright-core").chromium.launchPersistentContext(path.join(home, "profile"), {
        executablePath: executable, headless: false, viewport: null, env: { ...process.env, DISPLAY: display },
        // A window asked for at exactly the screen's size comes out a pixel
        // short each way, and the page then scales the picture down; one
        // pixel more keeps it whole, still at the corner.
        args: [...chromiumFlags(secureOrigin), "--kiosk", "--window-position=0,0", `--window-size=${width + 1},${height + 1}`,
               "--force-device-scale-factor=1"],
      })
      : await launchHeadlessChromium(home, headlessViewport, { executable, secureOrigin });
  } finally {
    process.env.HOME = savedHome;
  }
  // Headful, the window's first tab is the one on the screen.
  const page = (display && ctx.pages()[0]) || await ctx.newPage();
  return {
    page: {
      addInitScript: (fn, arg) => page.addInitScript(fn, arg),
      goto: (url) => page.goto(url),
      waitForFunction: (fn, timeout) => page.waitForFunction(fn, null, { timeout }),
      evaluate: (fn) => page.evaluate(fn),
    },
    processes: () => chromiumProcesses(path.join(home, "profile")),
    close: () => ctx.close(),
  };
}

async function launchFirefox({ home, display, width, height, wrap, secureOrigin }) {
  // puppeteer reaches Firefox over a WebSocket on the browser's loopback,
  // which the viewer's network namespace would hide.
  if (wrap) throw new Error("Firefox does not run on the lossy links (puppeteer's WebSocket to it stays outside the namespace)");
  const browser = await webRequire("puppeteer-core").launch({
    browser: "firefox", protocol: "webDriverBiDi", executablePath: firefoxPath(), headless: !display,
    userDataDir: path.join(home, "profile"),
    env: { ...process.env, HOME: home, MOZ_CRASHREPORTER_DISABLE: "1", ...(display ? { DISPLAY: display } : {}) },
    defaultViewport: display ? null : { ...headlessViewport, deviceScaleFactor: 1 },
    args: display ? ["--kiosk", "--width", String(width), "--height", String(height)] : [],
    extraPrefsFirefox: secureOrigin ? { "dom.securecontext.allowlist": new URL(secureOrigin).hostname } : {},
    timeout: 60000, protocolTimeout: 60000,
  });
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    // The first tab keeps the window's size otherwise.
    if (!display) await page.setViewport({ ...headlessViewport, deviceScaleFactor: 1 });
    const root = browser.process().pid;
    return {
      page: {
        addInitScript: (fn, arg) => page.evaluateOnNewDocument(fn, arg),
        goto: (url) => page.goto(url),
        waitForFunction: (fn, timeout) => page.waitForFunction(fn, { timeout, polling: 100 }),
        evaluate: (fn) => page.evaluate(fn),
      },
      processes: () => firefoxProcesses(root),
      close: () => browser.close(),
    };
  } catch (e) {
    await browser.close();
    throw e;
  }
}
