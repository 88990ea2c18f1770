// A small strip chart of the last ten seconds: latency and frame rate, each
// scaled to its own recent peak.

const SAMPLES = 40; // one per overlay update, four a second
const LATENCY_COLOR = "#ffb000";
const FPS_COLOR = "#4fc3f7";

export class StatsGraph {
  readonly canvas = document.createElement("canvas");
  private readonly ctx: CanvasRenderingContext2D;
  private readonly latency: (number | null)[] = [];
  private readonly fps: number[] = [];
  private readonly cssW = 240;
  private readonly cssH = 60;

  constructor() {
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.cssW * dpr);
    this.canvas.height = Math.round(this.cssH * dpr);
    this.canvas.style.width = `${this.cssW}px`;
    this.canvas.style.height = `${this.cssH}px`;
    const ctx = this.canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    ctx.scale(dpr, dpr);
    this.ctx = ctx;
  }

  add(latencyMs: number | null, fps: number): void {
    this.latency.push(latencyMs);
    this.fps.push(fps);
    if (this.latency.length > SAMPLES) this.latency.shift();
    if (this.fps.length > SAMPLES) this.fps.shift();
    this.render();
  }

  private render(): void {
    const { ctx, cssW: w, cssH: h } = this;
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = "rgba(255,255,255,0.08)";
    ctx.fillRect(0, 0, w, h);
    const latMax = niceMax(this.latency, 20);
    const fpsMax = niceMax(this.fps, 30);
    this.line(this.fps, fpsMax, FPS_COLOR);
    this.line(this.latency, latMax, LATENCY_COLOR);
    ctx.font = "10px monospace";
    ctx.textBaseline = "top";
    ctx.fillStyle = LATENCY_COLOR;
    ctx.fillText(`latency ≤${latMax} ms`, 3, 2);
    ctx.fillStyle = FPS_COLOR;
    ctx.textAlign = "right";
    ctx.fillText(`fps ≤${fpsMax}`, w - 3, 2);
    ctx.textAlign = "left";
  }

  private line(values: readonly (number | null)[], max: number, color: string): void {
    const { ctx, cssW: w, cssH: h } = this;
    const step = w / (SAMPLES - 1);
    const x0 = w - (values.length - 1) * step;
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let drawing = false;
    values.forEach((v, i) => {
      if (v === null) {
        drawing = false;
        return;
      }
      const x = x0 + i * step;
      const y = h - 1 - (Math.min(v, max) / max) * (h - 14);
      if (drawing) ctx.lineTo(x, y);
      else ctx.moveTo(x, y);
      drawing = true;
    });
    ctx.stroke();
  }
}

// A round upper bound for the chart, so the scale does not twitch each update.
function niceMax(values: readonly (number | null)[], floor: number): number {
  let m = floor;
  for (const v of values) if (v !== null && v > m) m = v;
  const unit = m <= 100 ? 10 : m <= 500 ? 50 : 100;
  return Math.ceil(m / unit) * unit;
}
