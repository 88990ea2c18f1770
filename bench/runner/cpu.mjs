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

function readProc(pid, file) {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return null;
  }
}

function parentOf(pid) {
  const stat = readProc(pid, "stat");
  return stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) : NaN;
}

// The processes of one Chromium, found from /proc: the browser process is the
// one whose command line names `profileDir` and has no --type; the rest are
// its descendants, sorted by their --type (renderer, gpu-process, utility,
// zygote, ...). Returns { browser: [pids], renderer: [...], gpu: [...], other: [...] }.
export function chromiumProcesses(profileDir) {
  const all = processIds();
  // A child may rewrite its command line as one string with spaces.
  const cmd = new Map(all.map((pid) => [pid, (readProc(pid, "cmdline") ?? "").split(/[\0 ]/)]));
  const roots = all.filter((pid) => cmd.get(pid).includes(`--user-data-dir=${profileDir}`) &&
                                    !cmd.get(pid).some((a) => a.startsWith("--type=")));
  return processTree(all, roots, (pid) => {
    const type = cmd.get(pid).find((a) => a.startsWith("--type="))?.slice(7);
    return type === "renderer" ? "renderer" : type === "gpu-process" ? "gpu" : type ? "other" : "browser";
  });
}

const processIds = () => fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number);

// `roots` (the browser group) and their descendants among `all`, each in
// the group `kind(pid)` names. Parents come before children in pid order
// only usually: it iterates to a fixed point.
function processTree(all, roots, kind) {
  const groups = { browser: [...roots], renderer: [], gpu: [], other: [] };
  const inTree = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const pid of all) {
      if (inTree.has(pid) || !inTree.has(parentOf(pid))) continue;
      inTree.add(pid);
      grew = true;
      groups[kind(pid)].push(pid);
    }
  }
  return groups;
}

// The descendants of `rootPid` whose command name (/proc/PID/comm, at most 15
// characters) is `comm`: e.g. the compositor voxl --wayland started.
export function descendantsNamed(rootPid, comm) {
  const { other } = processTree(processIds(), [rootPid], () => "other");
  return other.filter((pid) => (readProc(pid, "comm") ?? "").trim() === comm);
}

// CPU seconds of each process in `groups` (as chromiumProcesses returns), now.
export function sampleGroups(groups) {
  const cpu = {};
  for (const [name, pids] of Object.entries(groups)) cpu[name] = pids.map(cpuSeconds);
  return { at: performance.now(), cpu };
}

// CPU milliseconds each group used between two samples of the same groups; a
// process that started or ended in between counts for nothing.
export function groupMsBetween(a, b) {
  const ms = {};
  for (const name of Object.keys(a.cpu)) {
    ms[name] = 0;
    a.cpu[name].forEach((v, i) => {
      const d = b.cpu[name][i] - v;
      if (Number.isFinite(d) && d >= 0) ms[name] += d * 1000;
    });
  }
  return ms;
}

// A Firefox process's kind from its command line: the main process has no
// -contentproc; a child names its type last (tab, gpu, rdd, socket,
// utility, forkserver, ...). Grouped as chromiumProcesses groups Chromium's.
export function firefoxProcessGroup(argv) {
  const args = argv.filter(Boolean);
  if (!args.includes("-contentproc")) return "browser";
  const type = args.at(-1);
  return type === "tab" ? "renderer" : type === "gpu" ? "gpu" : "other";
}

// The processes of one Firefox: `rootPid` (the main process puppeteer
// started) and its descendants (content processes are the fork server's
// children), grouped as chromiumProcesses does.
export function firefoxProcesses(rootPid) {
  return processTree(processIds(), [rootPid], (pid) => firefoxProcessGroup((readProc(pid, "cmdline") ?? "").split(/[\0 ]/)));
}
