// The per-frame trace table: where voxl's drawn -> decoded time goes, stage
// by stage, from the native client's `trace` (bench/client/frame_trace.*):
// the stage stamps voxl puts in every video header, joined with the draw
// log and the client's own receive and decode times.

const segments = [
  ["draw_to_grab", "drawn -> grab"], ["grab", "grab"], ["convert", "convert"], ["encode", "encode"],
  ["to_loop", "-> loop"], ["queued", "link window"], ["network", "network"], ["decode", "decode"],
  ["total", "total"],
];

export function traceTable({ cells, workloadLabel, linkLabel }) {
  // voxl and its variants (voxl-stripes2, ...): each row says which.
  const rows = cells.filter((c) => c.system.startsWith("voxl") && c.result?.trace?.total);
  if (!rows.length) return "";
  const f = (s) => (s && Number.isFinite(s.p50) ? `${s.p50.toFixed(2)}/${s.p90.toFixed(2)}` : "—");
  const out = ["\nvoxl per-frame trace (p50/p90 ms of each stage, first picture of each new counter):\n",
               `| Test | ${segments.map(([, l]) => l).join(" | ")} |`,
               `| --- | ${segments.map(() => "---:").join(" | ")} |`];
  for (const c of rows)
    out.push(`| ${workloadLabel(c.workload)}, ${linkLabel(c.link)}${c.system === "voxl" ? "" : `, ${c.system}`} | ${segments.map(([k]) => f(c.result.trace[k])).join(" | ")} |`);
  return out.join("\n");
}
