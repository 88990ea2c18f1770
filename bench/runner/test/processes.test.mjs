// The runner's reading of a process tree from /proc: a system's compositor
// found among its server's descendants by name (voxl --wayland's sway):
//   node --test bench/runner/test/processes.test.mjs
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";

import { descendantsNamed } from "../cpu.mjs";

test("a grandchild is found by its command name, and nothing else", async () => {
  // sh -> sh -> sleep: the sleep is a grandchild of the first shell.
  // A group of its own, ended whole at the end.
  const root = spawn("sh", ["-c", "sh -c 'sleep 60; :' >/dev/null & echo started; wait"],
                     { stdio: ["ignore", "pipe", "ignore"], detached: true });
  try {
    await new Promise((resolve) => root.stdout.once("data", resolve));
    let found = [];
    for (const deadline = Date.now() + 30000; found.length === 0 && Date.now() < deadline;) {
      found = descendantsNamed(root.pid, "sleep");
      if (found.length === 0) await new Promise((r) => setTimeout(r, 50));  // the inner shell is starting it
    }
    assert.equal(found.length, 1);
    assert.notEqual(found[0], root.pid);
    assert.deepEqual(descendantsNamed(root.pid, "no-such-program"), []);
    assert.deepEqual(descendantsNamed(process.pid, "sleep").includes(found[0]), true);  // the test's own descendant too
  } finally {
    process.kill(-root.pid, "SIGKILL");
  }
});
