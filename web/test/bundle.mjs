// For the page's unit tests: a web/src TypeScript module bundled in memory
// with the repository's esbuild and imported, so node's test runner tests
// it without a browser or a build.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const esbuild = createRequire(path.join(web, "package.json"))("esbuild");

// `entry` relative to web/, e.g. "src/view/fit.ts".
export async function load(entry) {
  const out = esbuild.buildSync({ entryPoints: [path.join(web, entry)], bundle: true, format: "esm", write: false });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}
