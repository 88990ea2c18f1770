// The Settings section's pure rules, no DOM: which names the server takes,
// which bitrate choices a server offers, and the words for what it applied.

import { SETTINGS_MAX_NAME_CHARS, type Motion, type SettingsAppliedMessage } from "../protocol/messages";

// The motion choices and their words.
export const MOTION_CHOICES: [Motion, string][] = [
  ["auto", "Automatic (by content)"],
  ["smooth", "Smooth (full frame rate)"],
  ["sharp", "Sharp (fewer, sharper frames)"],
];

// Bitrate caps offered (kbit/s); 0 is "No cap".
export const KBPS_VALUES = [50000, 20000, 10000, 5000, 2000, 1000, 500];

// What the server takes as a name: at most SETTINGS_MAX_NAME_CHARS characters, none
// of those it refuses (C0 controls, DEL, C1 controls, the line and
// paragraph separators) and no lone UTF-16 surrogate (which no JSON encoder
// turns into valid UTF-8), trimmed.
export function cleanName(s: string): string {
  // With the u flag the surrogate range matches only unpaired halves.
  // eslint-disable-next-line no-control-regex
  const kept = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udfff]/gu, "").trim();
  return [...kept].slice(0, SETTINGS_MAX_NAME_CHARS).join("").trim();
}

// The bitrate caps a server with this minimum (kbit/s; absent from older
// servers) takes as they are: the ones below it would be raised to it.
export function kbpsChoices(serverMinKbps: number | undefined): number[] {
  const min = serverMinKbps ?? 0;
  return KBPS_VALUES.filter((v) => v >= min);
}

export function kbpsText(v: number): string {
  return v >= 1000 ? `${v / 1000} Mbit/s` : `${v} kbit/s`;
}

const MOTION_WORDS: Record<Motion, string> = { auto: "automatic", smooth: "smooth", sharp: "sharp" };

// The section's line for the server's answer. `viewOnly`: this viewer only
// watches, and the server applies no bitrate cap to it (it is sent fewer
// frames instead; max_kbps comes back 0).
export function appliedText(m: SettingsAppliedMessage, viewOnly: boolean): string {
  const fps = m.max_fps > 0 ? `${m.max_fps} fps` : "no frame rate cap";
  let kbps: string;
  if (viewOnly) kbps = "no bitrate cap (not applied to a view-only viewer)";
  else if (m.max_kbps <= 0) kbps = "no bitrate cap";
  else if (m.server_min_kbps !== undefined && m.max_kbps === m.server_min_kbps) kbps = `${kbpsText(m.max_kbps)} (the server's minimum)`;
  else kbps = kbpsText(m.max_kbps);
  // Without a choice of its own the viewer has the server's motion.
  const serverMotion = !m.motion && m.server_motion ? `, motion ${MOTION_WORDS[m.server_motion]}` : "";
  const server = `server: up to ${m.server_max_fps} fps${m.server_max_kbps > 0 ? `, ${kbpsText(m.server_max_kbps)}` : ""}${serverMotion}`;
  const motion = m.motion ? `, motion ${MOTION_WORDS[m.motion]}` : "";
  return `Applied: ${fps}, ${kbps}${m.name ? `, name “${m.name}”` : ""}${motion} (${server}).`;
}
