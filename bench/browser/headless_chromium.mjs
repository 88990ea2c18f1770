// Headless Chromium for the benchmarks, launched one way everywhere: the
// system's chromium (or VOXL_CHROMIUM) through the repository's
// playwright-core, software rendering, nothing talking to the network on
// its own, a throwaway profile under `home`.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { chromium } = createRequire(path.join(repo, "web/package.json"))("playwright-core");

// `executable` replaces the browser's path (e.g. a wrapper that starts it in
// a network namespace); `secureOrigin` is a plain-HTTP origin the browser is
// to treat as secure, as it does localhost (WebCodecs needs a secure context).
export const chromiumPath = () => process.env.VOXL_CHROMIUM ?? "/usr/bin/chromium";

// Every benchmark Chromium's flags, headless or not (bench/runner/browsers.mjs).
export const chromiumFlags = (secureOrigin = null) => [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync",
  ...(secureOrigin ? [`--unsafely-treat-insecure-origin-as-secure=${secureOrigin}`] : [])];

export function launchHeadlessChromium(home, viewport, { executable = chromiumPath(), secureOrigin = null } = {}) {
  return chromium.launchPersistentContext(path.join(home, "profile"), {
    executablePath: executable,
    headless: true,
    viewport,
    args: chromiumFlags(secureOrigin),
  });
}
