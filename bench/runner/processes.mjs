// Child processes of one benchmark run: every process started goes through
// here, so a run (or an interrupted run) stops all of them, and the SysV
// segments Xvfb leaves behind are removed.

import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import readline from "node:readline";

export class Processes {
  constructor({ verbose = false } = {}) {
    this.children = new Set();
    this.cleanups = [];
    this.verbose = verbose;
  }

  // Spawns `cmd`; `stdio` as for child_process.spawn. The child is killed
  // with the run (SIGTERM, then SIGKILL) unless it exits first.
  // Its stderr (and stdout, unless `keepStdout`) is drained into a tail
  // kept for error messages, so a chatty child never blocks on a full pipe.
  start(name, cmd, args, { keepStdout = false, ...options } = {}) {
    if (this.verbose) console.error(`[bench] start ${name}: ${cmd} ${args.join(" ")}`);
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    child.benchName = name;
    child.stderrText = "";
    const keep = (d) => {
      child.stderrText = (child.stderrText + d.toString()).slice(-20000);
    };
    child.stderr?.on("data", keep);
    if (!keepStdout) child.stdout?.on("data", keep);
    child.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    child.on("error", (e) => {
      child.spawnError = e;
    });
    this.children.add(child);
    child.exited.then(() => this.children.delete(child));
    return child;
  }

  // Resolves with the first line of the child's stdout matching `re`.
  waitLine(child, re, timeoutMs = 30000) {
    return new Promise((resolve, reject) => {
      let buf = "";
      const timer = setTimeout(() => done(new Error(`${child.benchName}: no line matching ${re} in ${timeoutMs} ms`)), timeoutMs);
      const onData = (d) => {
        buf += d.toString();
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          const m = line.match(re);
          if (m) return done(null, m);
        }
      };
      const onExit = () => done(new Error(`${child.benchName} exited: ${child.stderrText.slice(-2000)}`));
      const done = (err, m) => {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.off("exit", onExit);
        err ? reject(err) : resolve(m);
      };
      child.stdout.on("data", onData);
      child.on("exit", onExit);
    });
  }

  async stop(child, graceMs = 5000) {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await child.exited;
    clearTimeout(t);
  }

  onCleanup(fn) {
    this.cleanups.push(fn);
  }

  async stopAll() {
    await Promise.all([...this.children].reverse().map((c) => this.stop(c)));
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch (e) {
        console.error(`[bench] cleanup: ${e.message}`);
      }
    }
    this.cleanups = [];
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Resolves once something accepts TCP connections on the port.
export async function waitPort(port, timeoutMs = 30000, child = null, host = "127.0.0.1") {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, host);
      s.on("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`${child.benchName} exited before listening: ${child.stderrText.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Removes the SysV shared memory segment with this id, if it is still there.
export function removeSegment(shmid) {
  const table = fs.readFileSync("/proc/sysvipc/shm", "utf8");
  const present = table.split("\n").slice(1).some((l) => l.trim().split(/\s+/)[1] === String(shmid));
  if (present) execFileSync("ipcrm", ["-m", String(shmid)]);
}

// Lines of a child's stdout, one at a time.
export function lines(child) {
  const queue = [], waiters = [];
  readline.createInterface({ input: child.stdout }).on("line", (l) => (waiters.length ? waiters.shift()(l) : queue.push(l)));
  child.on("exit", () => waiters.splice(0).forEach((w) => w(null)));
  return (timeoutMs) => queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
    const t = setTimeout(() => reject(new Error(`${child.benchName}: no output in ${timeoutMs} ms`)), timeoutMs);
    waiters.push((l) => { clearTimeout(t); resolve(l); });
  });
}
