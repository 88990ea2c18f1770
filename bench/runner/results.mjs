// Summaries and tables: the same figures the native client computes
// (bench/client/frame_recorder.cpp), and the markdown the runner prints.

import fs from "node:fs";

export function readDrawLog(file) {
  const log = new Map();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const [c, t] = line.split(" ").map(Number);
    if (Number.isFinite(c) && Number.isFinite(t) && !log.has(c)) log.set(c, t);
  }
  return log;
}

function percentile(values, p) {
  if (!values.length) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor(p * v.length))];
}
const round2 = (v) => (v == null || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);
// A gap between new frames longer than this is a freeze (kFreezeUs).
const freezeUs = 250000;

// `seen`: [counter, decoded µs] of each new counter, in order.
export function summarise({ seen, startUs, endUs, drawLog, pictures, unreadable }) {
  const seconds = (endUs - startUs) / 1e6;
  const whole = Math.max(1, Math.floor(seconds));
  const perSecond = new Array(whole).fill(0);
  const latency = [];
  // As the native client reports them (bench/client/frame_recorder.cpp):
  // the worst latency of each 100 ms step (null: no frame), and the gaps
  // between new frames, the window's edges included.
  const stepUs = 100000;
  const timeline = new Array(Math.floor(Math.max(0, endUs - startUs) / stepUs) + 1).fill(null);
  const stepFrames = new Array(timeline.length).fill(0);
  let unmatched = 0, previous = startUs, longestGap = 0, freezes = 0;
  const gapTo = (t) => {
    longestGap = Math.max(longestGap, t - previous);
    if (t - previous > freezeUs) ++freezes;
    previous = t;
  };
  for (const [counter, t] of seen) {
    const s = Math.floor((t - startUs) / 1e6);
    if (s < whole) ++perSecond[s];
    ++stepFrames[Math.min(timeline.length - 1, Math.max(0, Math.floor((t - startUs) / stepUs)))];
    gapTo(t);
    const drawn = drawLog.get(counter);
    if (drawn === undefined) {
      ++unmatched;
      continue;
    }
    const ms = (t - drawn) / 1000;
    latency.push(ms);
    const i = Math.min(timeline.length - 1, Math.floor((t - startUs) / stepUs));
    timeline[i] = Math.max(timeline[i] ?? ms, ms);
  }
  gapTo(endUs);
  return {
    seconds: round2(seconds), pictures, frames: seen.length, unreadable, unmatched,
    fps: round2(seen.length / seconds), fps_worst_second: Math.min(...perSecond),
    drawn_fps: round2([...drawLog.values()].filter((t) => t >= startUs && t < endUs).length / seconds),
    latency_p50_ms: round2(percentile(latency, 0.5)), latency_p99_ms: round2(percentile(latency, 0.99)),
    freezes, longest_gap_ms: round2(longestGap / 1000),
    latency_timeline: { start_unix_ms: Math.floor(startUs / 1000), step_ms: stepUs / 1000,
                        worst_ms: timeline.map((v) => (v == null ? null : round2(v))), frames: stepFrames },
  };
}

export const median = (values) => percentile(values.filter((v) => Number.isFinite(v)), 0.5);

function latencyText(p50, p99) {
  if (p50 == null || p99 == null) return "no latency";
  if (p99 >= 1000) return `${(p50 / 1000).toFixed(1)}/${(p99 / 1000).toFixed(1)} s`;
  return `${Math.round(p50)}/${Math.round(p99)} ms`;
}

// The browser column's frames on its screen (--browser-screen): FPS (worst
// second) and drawn -> on screen p50/p99; "" without the option.
function screenText(r) {
  if (r.screen_fps === undefined) return "";
  if (r.screen_fps == null || r.screen_error) return `, on screen failed (${(r.screen_error ?? "no result").slice(0, 60)})`;
  return `, on screen ${r.screen_fps.toFixed(1)} (${r.screen_fps_worst_second}) ` +
         `${latencyText(r.screen_latency_p50_ms, r.screen_latency_p99_ms)}`;
}

export function fpsCell(r) {
  if (!r) return "—";
  if (!r.ok && !r.frames) return r.error ? `failed (${r.error.split("\n")[0].slice(0, 60)})` : "failed";
  if (!r.frames) return "stalls";
  const presented = r.presented_fps != null ? `, presented ${r.presented_fps.toFixed(1)} (${r.presented_fps_worst_second})` : "";
  return `${r.fps.toFixed(1)} (${r.fps_worst_second})${presented}${screenText(r)}, ` +
         `${latencyText(r.latency_p50_ms, r.latency_p99_ms)}`;
}

// The browser column of each browser (bench/run --browsers); Chromium's
// keeps the name it had before there were others.
export const browserColumns = { chromium: "voxl-browser", firefox: "voxl-firefox" };
export const browserOfColumn = (s) => Object.keys(browserColumns).find((b) => browserColumns[b] === s) ?? null;

const db = (v) => (v == null ? "—" : v >= 99.99 ? "lossless" : v.toFixed(1));

function table(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i ? "---:" : "---"))), ...rows.map(line)].join("\n");
}

// cells: [{workload, link, system, result}]; present: workload -> the
// present probe's result. Returns the text and the floor rows as figures.
export function markdown({ cells, present, workloads, links, systems, labels, workloadLabel, size }) {
  const find = (w, l, s) => cells.find((c) => c.workload === w && c.link === l && c.system === s)?.result;
  const moving = workloads.filter((w) => w !== "idle");
  const rows = [];
  // The rate the workload itself drew at during the row's cells: on a busy
  // machine it can fall short of 60, and no streamer can beat it.
  const drawn = (w, l) => {
    const v = systems.map((s) => find(w, l, s)?.drawn_fps).filter((x) => x != null);
    if (!v.length) return "—";
    const lo = Math.min(...v), hi = Math.max(...v);
    return Math.round(lo) === Math.round(hi) ? `${Math.round(lo)}` : `${Math.round(lo)}-${Math.round(hi)}`;
  };
  for (const w of moving)
    for (const l of links)
      rows.push([`${workloadLabel(w)}, ${l.label}`, drawn(w, l.name), ...systems.map((s) => fpsCell(find(w, l.name, s)))]);
  const out = [];
  out.push(`FPS (worst second), latency p50/p99 from drawn to decoded, ${size}:\n`);
  out.push(table(["Test", "drawn FPS", ...systems.map((s) => labels[s])], rows));

  // The lossy links (ipem): how often the picture froze, and on a link whose
  // rate steps, how long the latency took to come back under 150 ms.
  const lossy = links.filter((l) => l.ipem);
  if (lossy.length) {
    const ms = (v) => (v == null ? "never" : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
    const freezeCell = (r) => {
      if (!r || r.freezes == null) return "—";
      const text = `${r.freezes}, ${ms(r.longest_gap_ms)}`;
      if (!r.recovery_ms) return text;
      const full = r.rate_recovery_ms ? `; full rate ${r.rate_recovery_ms.map(ms).join(" / ")}` : "";
      return `${text}; ${r.recovery_ms.map(ms).join(" / ")}${full}`;
    };
    const lossyRows = [];
    for (const w of moving)
      for (const l of lossy)
        lossyRows.push([`${workloadLabel(w)}, ${l.label}`, ...systems.map((s) => freezeCell(find(w, l.name, s)))]);
    out.push(`\nFreezes (gaps over 250 ms without a new frame), the longest gap; on a rate schedule (drop), ` +
             `then the time after each step until the worst latency of every 100 ms stayed under 150 ms for a second, ` +
             `and until a second held 90 % of the frames drawn (full rate):\n`);
    out.push(table(["Test", ...systems.map((s) => labels[s])], lossyRows));
  }

  const cpuColumns = ["idle", "animation", "scroll", "fullscreen", "texture"].filter((w) => workloads.includes(w));
  // The browser column shares voxl's server; its CPU adds nothing new.
  const cpuRows = systems.filter((s) => !browserOfColumn(s)).map((s) => [labels[s], ...cpuColumns.map((w) => {
    const r = find(w, "lan", s);
    if (!r || r.cpu_cores == null) return "—";
    const at = w !== "idle" && r.frames && r.fps < 55 ? ` (at ${Math.round(r.fps)} FPS)` : "";
    return `${r.cpu_cores.toFixed(2)}${at}`;
  })]);
  out.push(`\nServer CPU, X server + streamer (cores), LAN:\n`);
  out.push(table(["System", ...cpuColumns.map((w) => (w === "idle" ? "idle" : workloadLabel(w)))], cpuRows));

  out.push(...pageTable({ cells, find, moving, systems, labels, workloadLabel }));

  // The app's own drawn -> on-screen delay, measured with no streamer.
  const presentRows = moving.filter((w) => present?.[w]).map((w) => {
    const p = present[w];
    const f = (v) => (v == null ? "—" : v.toFixed(2));
    if (!p.ok && !p.frames) return [workloadLabel(w), p.error ? `failed (${p.error.split("\n")[0].slice(0, 60)})` : "failed", "—", "—"];
    return [workloadLabel(w), `${f(p.present_p50_ms)}/${f(p.present_p99_ms)}`, `${p.frames}`,
            p.drawn_fps == null ? "—" : `${Math.round(p.drawn_fps)}`];
  });
  if (presentRows.length) {
    out.push(`\nApp present delay, drawn -> in the X server's framebuffer, no streamer (ms):\n`);
    out.push(table(["Workload", "p50/p99", "counters seen", "drawn FPS"], presentRows));
  }

  // voxl's floor: the app's present delay (which no streamer removes), then
  // voxl's own stages and the client's decode; latency cannot beat it.
  const floor = [];
  const floorRows = [];
  for (const w of moving) {
    const r = find(w, "lan", "voxl");
    if (!r?.stage_ms) continue;
    const st = r.stage_ms;
    const app = present?.[w]?.present_p50_ms ?? null;
    const voxlFloor = [st.capture, st.convert, st.encode, r.decode_p50_ms].every(Number.isFinite)
      ? st.capture + st.convert + st.encode + r.decode_p50_ms : null;
    const whole = voxlFloor != null && Number.isFinite(app) ? app + voxlFloor : null;
    const ratio = (of) => (of && r.latency_p50_ms != null ? r.latency_p50_ms / of : null);
    floor.push({
      workload: w, app_present_p50_ms: app, capture_ms: st.capture, convert_ms: st.convert, encode_ms: st.encode,
      decode_p50_ms: r.decode_p50_ms ?? null, voxl_floor_ms: round2(voxlFloor), floor_ms: round2(whole),
      latency_p50_ms: r.latency_p50_ms ?? null, latency_over_voxl_floor: round2(ratio(voxlFloor)),
      latency_over_floor: round2(ratio(whole)),
    });
    const f = (v) => (v == null ? "—" : v.toFixed(2));
    const x = (v) => (v == null ? "—" : `${v.toFixed(1)}x`);
    floorRows.push([workloadLabel(w), f(app), f(st.capture), f(st.convert), f(st.encode), f(r.decode_p50_ms),
                    f(voxlFloor), x(ratio(voxlFloor)), f(whole), f(r.latency_p50_ms), x(ratio(whole))]);
  }
  if (floorRows.length) {
    out.push(`\nvoxl's pipeline floor, LAN (medians, ms): voxl floor = capture + convert + encode + client decode; ` +
             `floor = app present + voxl floor; ratios are latency p50 / floor:\n`);
    out.push(table(["Workload", "app present", "capture", "convert", "encode", "client decode", "voxl floor",
                    "latency / voxl floor", "floor", "latency p50", "latency / floor"], floorRows));
  }
  out.push(...qualityTables({ find, moving, links, systems, labels, workloadLabel }));
  return { text: out.join("\n"), floor };
}

// The page's own cost in each browser (bench/runner/browser_client.mjs), LAN.
function pageTable({ cells, find, moving, systems, labels, workloadLabel }) {
  const rows = [];
  const f = (v) => (v == null ? "—" : v.toFixed(2));
  // Headful (--browser-screen), the browser's X server takes every frame it
  // shows: a cost the browser's own processes do not carry.
  const headful = cells.some((c) => browserOfColumn(c.system) && c.result?.screen_fps !== undefined);
  for (const w of moving)
    for (const s of systems.filter(browserOfColumn)) {
      const r = find(w, "lan", s);
      if (r?.page_cpu_ms_per_frame == null) continue;
      const by = r.page_cpu_ms_per_frame_by_process;
      rows.push([workloadLabel(w), labels[s], f(r.page_cpu_ms_per_frame), f(by.renderer), f(by.gpu), f(by.browser), f(by.other),
                 r.page_cpu_cores.toFixed(2), r.drawer, ...(headful ? [f(r.screen_xserver_cpu_cores)] : [])]);
    }
  if (!rows.length) return [];
  const firefox = systems.includes(browserColumns.firefox) ? "; Firefox's content processes as renderer" : "";
  return [`\nPage CPU ms per frame (decoded), the browser's processes (${headful ? "headful" : "headless"}${firefox}), LAN` +
          `${headful ? "; and the cores of the X server the browser shows its window on" : ""}:\n`,
          table(["Workload", "browser", "page CPU ms per frame", "renderer", "GPU", "browser", "other", "cores", "drawn by",
                 ...(headful ? ["its X server, cores"] : [])], rows)];
}

// Picture quality, native viewers only (the browser column has no figures):
// moving, luma PSNR p50/p10 against the expected picture; still, the final
// luma and RGB PSNR and the time from the last frame drawn until both were
// within 1 dB of it.
function qualityTables({ find, moving, links, systems, labels, workloadLabel }) {
  const measured = (w) => links.some((l) => systems.some((s) => find(w, l.name, s)?.psnr_p50_db != null));
  const rows = [], stillRows = [];
  for (const w of moving.filter(measured))
    for (const l of links) {
      const cells = systems.map((s) => find(w, l.name, s));
      if (!cells.some((r) => r?.psnr_p50_db != null || r?.still_psnr_db != null)) continue;
      rows.push([`${workloadLabel(w)}, ${l.label}`, ...cells.map((r) =>
        r?.psnr_p50_db == null ? "—" : `${db(r.psnr_p50_db)}/${db(r.psnr_p10_db)}`)]);
      stillRows.push([`${workloadLabel(w)}, ${l.label}`, ...cells.map((r) => {
        if (r?.still_psnr_db == null) return "—";
        const settle = r.still_settle_ms == null ? (r.still_behind ? `${r.still_behind} frames behind` : "—")
          : `${Math.round(r.still_settle_ms)} ms`;
        return `${db(r.still_psnr_db)}/${db(r.still_rgb_psnr_db)}, ${settle}`;
      })]);
    }
  if (!rows.length) return [];
  const header = ["Test", ...systems.map((s) => labels[s])];
  return [`\nPicture quality in motion, luma PSNR p50/p10 against the expected picture (dB):\n`, table(header, rows),
          `\nStill picture after the motion stops: final PSNR luma/RGB (dB), time from the last frame drawn until ` +
          `both are within 1 dB of it:\n`, table(header, stillRows)];
}

// --pair: each viewer alone, then both at once on one server start; a row
// for each viewer in each run, so alone and together sit one above the
// other. The server CPU is the run's: both rows of "together" share it.
export function pairTable({ pairs, labels, workloadLabel, linkLabel, size }) {
  const f = (v, digits) => (v == null ? "—" : v.toFixed(digits));
  const rows = [];
  for (const p of pairs) {
    // The same link twice: tell the two viewers apart.
    const viewer = (i) => (p.links[0] === p.links[1] ? `${linkLabel(p.links[i])} (${i + 1})` : linkLabel(p.links[i]));
    const failed = (r) => !r || (!r.ok && !r.frames);
    for (const i of [0, 1])
      for (const [run, r] of [["alone", p.alone[i]], ["together", p.together[i]]])
        rows.push([`${workloadLabel(p.workload)}, ${labels[p.system]}`, viewer(i), run, fpsCell(r),
                   failed(r) ? "—" : db(r.psnr_p50_db), failed(r) ? "—" : f(r.kbps == null ? null : r.kbps / 1000, 1),
                   f(r?.cpu_cores, 2)]);
  }
  return [`\nTwo viewers at once, ${size}: each viewer alone (the system started fresh), then both on one server; ` +
          `FPS (worst second), latency p50/p99 from drawn to decoded, luma PSNR p50 in motion (dB), Mbit/s received ` +
          `in the window, server CPU of the run (X server + streamer, cores):\n`,
          table(["Test", "viewer", "run", "FPS, latency", "PSNR p50", "Mbit/s", "server CPU"], rows)].join("\n");
}
