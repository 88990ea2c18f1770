// Reads the benchmarks' frame marker (bench/marker/marker.h) off a decoded
// frame: 16 x 2 cells in the picture's top-left corner, each a bit of a
// 24-bit counter plus its CRC-8. Only when the page is opened with
// ?marker=CELL (the cell size in pixels), for the benchmarks and tests that
// time "drawn on the desktop" -> "drawn on this page"; the page never reads
// it otherwise. Reads the frame's own planes (VideoFrame.copyTo of the
// corner), so it works wherever the frame is drawn, in a worker or not.
//
// Any thread (main or worker); one instance per drawer.

const COLUMNS = 16;
const ROWS = 2;
// Mean full-range luma of a cell: at or below DARK a 0, at or above LIGHT a 1,
// between the two the picture is caught mid-change and the word is unreadable.
const DARK = 80;
const LIGHT = 176;
const LOG_MAX = 20000;

export interface MarkerReport {
  seen: [number, number][]; // [counter, drawn at (wall clock µs)], each new counter once
  pictures: number; // pictures read
  unreadable: number; // of those, with no valid marker
}

export function markerCrc8(counter: number): number {
  let crc = 0;
  for (let i = 0; i < 3; ++i) {
    crc ^= (counter >>> (8 * i)) & 0xff;
    for (let b = 0; b < 8; ++b) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

// Full-range luma of one pixel at (x, y) of the copied corner.
type LumaAt = (x: number, y: number) => number;

function lumaReader(format: VideoPixelFormat | null, buf: Uint8Array, layout: PlaneLayout[], full: boolean): LumaAt | null {
  const p = layout[0];
  if (!p) return null;
  const { offset, stride } = p;
  switch (format) {
    case "I420": case "I420A": case "I422": case "I444": case "NV12":
      return full
        ? (x, y) => buf[offset + y * stride + x]!
        : (x, y) => ((buf[offset + y * stride + x]! - 16) * 255) / 219;
    case "RGBA": case "RGBX":
      return (x, y) => {
        const o = offset + y * stride + x * 4;
        return (299 * buf[o]! + 587 * buf[o + 1]! + 114 * buf[o + 2]!) / 1000;
      };
    case "BGRA": case "BGRX":
      return (x, y) => {
        const o = offset + y * stride + x * 4;
        return (299 * buf[o + 2]! + 587 * buf[o + 1]! + 114 * buf[o]!) / 1000;
      };
    default:
      return null;
  }
}

// The marker word of a corner, or null when a cell is neither dark nor light.
export function decodeMarkerWord(luma: LumaAt, cell: number): number | null {
  let word = 0;
  for (let i = 0; i < COLUMNS * ROWS; ++i) {
    const x0 = (i % COLUMNS) * cell + cell / 4;
    const y0 = Math.floor(i / COLUMNS) * cell + cell / 4;
    let sum = 0;
    let n = 0;
    for (let y = y0; y < y0 + cell / 2; y += 2)
      for (let x = x0; x < x0 + cell / 2; x += 2) {
        sum += luma(x, y);
        ++n;
      }
    const mean = sum / n;
    if (mean > DARK && mean < LIGHT) return null;
    if (mean >= LIGHT) word = (word | (1 << i)) >>> 0;
  }
  return word;
}

export class MarkerReader {
  private buffer = new Uint8Array(0);
  private readonly log: MarkerReport = { seen: [], pictures: 0, unreadable: 0 };
  private last = -1;

  constructor(private readonly cell: number) {}

  // Reads `frame` (which the caller closes once the promise settles) as
  // drawn at `drawnAtUs`.
  async read(frame: VideoFrame, drawnAtUs: number): Promise<void> {
    const w = this.cell * COLUMNS;
    const h = this.cell * ROWS;
    if (frame.displayWidth < w || frame.displayHeight < h) return;
    ++this.log.pictures;
    let word: number | null = null;
    try {
      const rect = { x: 0, y: 0, width: w, height: h };
      const size = frame.allocationSize({ rect });
      if (this.buffer.byteLength < size) this.buffer = new Uint8Array(size);
      const layout = await frame.copyTo(this.buffer, { rect });
      const luma = lumaReader(frame.format, this.buffer, layout, frame.colorSpace.fullRange === true);
      if (luma) word = decodeMarkerWord(luma, this.cell);
    } catch {
      word = null;
    }
    const counter = word === null ? -1 : word & 0xffffff;
    if (word === null || markerCrc8(counter) !== word >>> 24) {
      ++this.log.unreadable;
      return;
    }
    if (counter > this.last) {
      this.last = counter;
      if (this.log.seen.length >= LOG_MAX) this.log.seen.shift();
      this.log.seen.push([counter, Math.round(drawnAtUs)]);
    }
  }

  // Takes what was read since the last call.
  take(): MarkerReport {
    const r = { seen: this.log.seen, pictures: this.log.pictures, unreadable: this.log.unreadable };
    this.log.seen = [];
    this.log.pictures = 0;
    this.log.unreadable = 0;
    return r;
  }
}

// What the page keeps of the readings, wherever they were taken.
export class MarkerLog {
  private readonly report: MarkerReport = { seen: [], pictures: 0, unreadable: 0 };

  add(r: MarkerReport): void {
    for (const s of r.seen) {
      if (this.report.seen.length >= LOG_MAX) this.report.seen.shift();
      this.report.seen.push(s);
    }
    this.report.pictures += r.pictures;
    this.report.unreadable += r.unreadable;
  }

  snapshot(): MarkerReport {
    return { seen: this.report.seen.slice(), pictures: this.report.pictures, unreadable: this.report.unreadable };
  }
}

// The marker's cell size from the page's address (?marker=16), or 0.
export function markerCellFromQuery(search: string): number {
  const v = Number(new URLSearchParams(search).get("marker"));
  return Number.isInteger(v) && v >= 2 && v <= 64 && v % 2 === 0 ? v : 0;
}
