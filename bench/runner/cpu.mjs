// CPU time of processes from /proc: user + system, in seconds.

import fs from "node:fs";
import { execFileSync } from "node:child_process";

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

// A sample of several processes' CPU time at one moment.
export function sample(pids) {
  return { at: performance.now(), cpu: pids.map(cpuSeconds) };
}

// Cores used between two samples: CPU seconds per wall-clock second, summed.
export function coresBetween(a, b) {
  const wall = (b.at - a.at) / 1000;
  let sum = 0;
  for (let i = 0; i < a.cpu.length; ++i) sum += b.cpu[i] - a.cpu[i];
  return wall > 0 ? sum / wall : NaN;
}
