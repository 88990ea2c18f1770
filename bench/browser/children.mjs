// The programs a browser benchmark starts: finding them in the build tree,
// starting one and waiting for the line that says it is ready, and killing
// every one of them when the benchmark exits, whichever way it ends.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// The release build's `name` if there is one, else the dev build's; undefined if neither.
export function built(name) {
  return ["build/release", "build/dev"].map((d) => path.join(repo, d, name)).find((p) => fs.existsSync(p));
}

const children = [];
process.on("exit", () => children.forEach((c) => c.kill("SIGKILL")));

// Starts `bin` and resolves once its output matches `ready` (a RegExp),
// with the child, the match and the output so far; rejects if it exits or
// says nothing that matches within a minute. `stdin` "pipe" keeps a pipe
// to the child's input open.
export function start(bin, args, ready, { stdin = "ignore" } = {}) {
  const child = spawn(bin, args, { stdio: [stdin, "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${bin} did not start:\n${out}`)), 60_000);
    const on = (d) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, out });
      }
    };
    child.stdout.on("data", on);
    child.stderr.on("data", on);
    child.once("exit", (code) => reject(new Error(`${bin} exited (${code}):\n${out}`)));
  });
}
