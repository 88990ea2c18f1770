// The page's icons, drawn as inline SVG (24x24 view box, stroked in the
// text colour), so that no icon depends on a font the machine may lack.

const SVG_NS = "http://www.w3.org/2000/svg";

// Each icon is a list of path data, stroked with round caps and joins.
const PATHS = {
  menu: ["M4 7h16", "M4 12h16", "M4 17h16"],
  close: ["M6 6l12 12", "M18 6L6 18"],
  fullscreen: ["M4 9V4h5", "M15 4h5v5", "M20 15v5h-5", "M9 20H4v-5"],
  exitFullscreen: ["M9 4v5H4", "M20 9h-5V4", "M15 20v-5h5", "M4 15h5v5"],
  speaker: ["M4 9h4l5-4v14l-5-4H4z", "M16 9a4 4 0 0 1 0 6", "M18.5 6.5a8 8 0 0 1 0 11"],
  muted: ["M4 9h4l5-4v14l-5-4H4z", "M16 9l5 6", "M21 9l-5 6"],
  microphone: ["M9 5a3 3 0 0 1 6 0v6a3 3 0 0 1-6 0z", "M6 11a6 6 0 0 0 12 0", "M12 17v4", "M9 21h6"],
  clipboard: ["M9 4h6v3H9z", "M9 5H6v15h12V5h-3", "M9 12h6", "M9 16h4"],
  send: ["M4 12l16-8-6 16-3-7z", "M11 13l9-9"],
  files: ["M4 6h6l2 2h8v11H4z"],
  file: ["M6 3h8l4 4v14H6z", "M14 3v4h4"],
  download: ["M12 4v11", "M7 10l5 5 5-5", "M5 20h14"],
  upload: ["M12 16V5", "M7 10l5-5 5 5", "M5 20h14"],
  folderUpload: ["M4 6h6l2 2h8v11H4z", "M12 17v-6", "M9.5 13.5L12 11l2.5 2.5"],
  refresh: ["M20 12a8 8 0 1 1-2.3-5.7", "M20 4v5h-5"],
  keyboard: ["M3 7h18v10H3z", "M6 10h1", "M10 10h1", "M14 10h1", "M18 10h0", "M7 14h10"],
  touch: ["M9 11V5a2 2 0 0 1 4 0v6", "M13 10a2 2 0 0 1 4 0v4a6 6 0 0 1-6 6h-1a5 5 0 0 1-4-2l-2-3a1.5 1.5 0 0 1 2.5-1.7L9 15"],
  people: ["M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z", "M3 20a6 6 0 0 1 12 0", "M16 5a3 3 0 0 1 0 6", "M18 14a5 5 0 0 1 3 6"],
} as const;

export type IconName = keyof typeof PATHS;

// A fresh <svg> for `name`, hidden from assistive technology: the control
// that holds it carries the label.
export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "icon");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  for (const d of PATHS[name]) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", d);
    svg.appendChild(p);
  }
  return svg;
}
