// Canvas drawing of the page: the board heatmap with its per-strike profile and level lines, the
// legend, the spot profile and the session heatmap. Each function draws one canvas from data.
import { formatUsd } from "../../../../lib/positioning/briefs";
import { etHhmm } from "./et-format";
import { colorOf, legendValue, pixelOf, scaleOf } from "./colors";
import type { HeatmapView } from "./model";
import type { SessionFrame } from "./source";

const AXIS = "#9598a1";
const GRID = "#2a2e39";
const SPOT = "#f5f5f5";
const FLIP = "#ffca28";
const ZERO = "#e040fb";

// CSS widths measured once per canvas (and again after a resize): reading clientWidth after the
// page changed text would force a synchronous layout on every slider step.
const cssWidths = new WeakMap<HTMLCanvasElement, number>();

/** Forget the measured widths (call on window resize). */
export function remeasure(): void {
  for (const id of ["board", "legend", "spot-profile", "session"]) {
    const c = document.getElementById(id);
    if (c instanceof HTMLCanvasElement) cssWidths.delete(c);
  }
}

/** Sizes the canvas backing store to its CSS box (device pixels) and returns a CSS-pixel context. */
function fitCanvas(canvas: HTMLCanvasElement): { ctx: CanvasRenderingContext2D; w: number; h: number } {
  const dpr = globalThis.devicePixelRatio || 1;
  let w = cssWidths.get(canvas);
  if (w === undefined) {
    w = canvas.clientWidth || canvas.width;
    cssWidths.set(canvas, w);
  }
  const h = Number(canvas.getAttribute("height")) || canvas.clientHeight;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    canvas.style.height = `${h}px`;
  }
  const ctx = canvas.getContext("2d")!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.font = "11px system-ui, sans-serif";
  return { ctx, w, h };
}

/** y of a price level on rows of ascending `strikes` drawn top = highest, rows of height `rowH`. */
function levelY(strikes: ArrayLike<number>, level: number, top: number, rowH: number): number | null {
  const n = strikes.length;
  if (n === 0 || level < strikes[0] || level > strikes[n - 1]) return null;
  let i = 0;
  while (i < n - 2 && strikes[i + 1] < level) i++;
  const span = strikes[i + 1] - strikes[i];
  const f = n === 1 || span === 0 ? 0 : (level - strikes[i]) / span;
  const row = i + f; // fractional row index from the bottom
  return top + (n - 1 - row) * rowH + rowH / 2;
}

function hLine(ctx: CanvasRenderingContext2D, y: number, x0: number, x1: number, color: string, dash: number[], label: string) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.setLineDash(dash);
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x0, y);
  ctx.lineTo(x1, y);
  ctx.stroke();
  ctx.fillStyle = color;
  ctx.textAlign = "right";
  ctx.fillText(label, x1 - 2, y - 3);
  ctx.restore();
}

/** A reusable nExp x n pixel canvas for the board's cells (remade only when the grid's shape changes). */
let cellCache: { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D; image: ImageData } | null = null;
function cellImage(width: number, height: number) {
  if (!cellCache || cellCache.image.width !== width || cellCache.image.height !== height) {
    const canvas = cellCache?.canvas ?? document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext("2d")!;
    cellCache = { canvas, ctx, image: ctx.createImageData(width, height) };
  }
  return cellCache;
}

/**
 * The board: strike rows (highest on top) x expiration columns, the per-strike net as bars on the
 * right, king and gatekeeper nodes outlined, spot, flip and zero-gamma lines. Returns the colour scale.
 */
export function drawBoard(canvas: HTMLCanvasElement, view: HeatmapView, boardSpot: number): number {
  const { ctx, w, h } = fitCanvas(canvas);
  const { grid, frame, levels } = view;
  const n = grid.strikes.length;
  const nExp = grid.expirations.length;
  const left = 58;
  const top = 18;
  const barW = Math.max(80, Math.floor(w * 0.28));
  const mapW = w - left - barW - 8;
  const rowH = n > 0 ? (h - top - 4) / n : 0;
  const colW = nExp > 0 ? mapW / nExp : 0;
  const scale = scaleOf(grid.matrix);

  ctx.fillStyle = AXIS;
  ctx.textAlign = "center";
  grid.expirations.forEach((e, j) => {
    ctx.fillText(e.slice(5), left + (j + 0.5) * colW, 12);
  });
  ctx.fillText(`net by strike (${formatUsd(scaleOf(grid.net))} max)`, left + mapW + 8 + barW / 2, 12);

  const netScale = scaleOf(grid.net);
  const mid = left + mapW + 8 + barW / 2;
  const labelEvery = Math.max(1, Math.ceil(12 / Math.max(rowH, 1)));
  if (n > 0 && nExp > 0) {
    // The cells as one pixel each, scaled up in a single drawImage (no per-cell fillStyle parse).
    const cells = cellImage(nExp, n);
    const px = new Uint32Array(cells.image.data.buffer);
    for (let i = 0; i < n; i++) {
      const row = (n - 1 - i) * nExp; // highest strike on top
      for (let j = 0; j < nExp; j++) px[row + j] = pixelOf(grid.matrix[i * nExp + j], scale);
    }
    cells.ctx.putImageData(cells.image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(cells.canvas, left, top, mapW, n * rowH);
  }
  for (let i = 0; i < n; i++) {
    const y = top + (n - 1 - i) * rowH;
    const v = grid.net[i];
    ctx.fillStyle = colorOf(v, netScale);
    const len = netScale > 0 ? (v / netScale) * (barW / 2 - 2) : 0;
    ctx.fillRect(Math.min(mid, mid + len), y + rowH * 0.15, Math.abs(len), Math.max(1, rowH * 0.7));
    const type = frame.strikes[i].nodeType;
    if (type === "king" || type === "gatekeeper") {
      ctx.strokeStyle = type === "king" ? "#ffd54f" : "#90caf9";
      ctx.lineWidth = 2;
      ctx.strokeRect(left + 1, y + 1, mapW - 2, Math.max(1, rowH - 2));
      ctx.fillStyle = ctx.strokeStyle;
      ctx.textAlign = "left";
      ctx.fillText(type === "king" ? "♛ king" : "◆ gatekeeper", left + mapW + 10, y + rowH / 2 + 4);
    }
    if (i % labelEvery === 0 || type === "king") {
      ctx.fillStyle = AXIS;
      ctx.textAlign = "right";
      ctx.fillText(String(grid.strikes[i]), left - 4, y + rowH / 2 + 4);
    }
  }
  ctx.strokeStyle = GRID;
  ctx.strokeRect(left, top, mapW, n * rowH);
  ctx.beginPath();
  ctx.moveTo(mid, top);
  ctx.lineTo(mid, top + n * rowH);
  ctx.stroke();

  const right = w - 2;
  const lines: [number | null, string, number[], string][] = [
    [levels.summary.flip?.level ?? null, FLIP, [6, 4], "flip"],
    [view.zeroGamma, ZERO, [2, 3], "zero gamma"],
    [grid.spot, SPOT, [], grid.spot === boardSpot ? `spot ${grid.spot.toFixed(2)}` : `what-if ${grid.spot.toFixed(2)}`],
  ];
  for (const [level, color, dash, label] of lines) {
    const y = level === null ? null : levelY(grid.strikes, level, top, rowH);
    if (y !== null) hLine(ctx, y, left, right, color, dash, label);
  }
  return scale;
}

/** The colour legend: the scale from -scale to +scale in dollars. */
export function drawLegend(canvas: HTMLCanvasElement, scale: number, unit: string) {
  const { ctx, w } = fitCanvas(canvas);
  const x0 = 58;
  const x1 = w - 8;
  const steps = 64;
  for (let k = 0; k < steps; k++) {
    ctx.fillStyle = colorOf(legendValue((2 * k + 1) / steps - 1, scale), scale);
    ctx.fillRect(x0 + ((x1 - x0) * k) / steps, 4, Math.ceil((x1 - x0) / steps), 12);
  }
  ctx.fillStyle = AXIS;
  ctx.textAlign = "left";
  ctx.fillText(formatUsd(-scale), x0, 30);
  ctx.textAlign = "center";
  ctx.fillText(`$0  (${unit})`, (x0 + x1) / 2, 30);
  ctx.fillText(formatUsd(legendValue(-0.5, scale)), x0 + (x1 - x0) / 4, 30);
  ctx.fillText(formatUsd(legendValue(0.5, scale)), x0 + (3 * (x1 - x0)) / 4, 30);
  ctx.textAlign = "right";
  ctx.fillText(formatUsd(scale), x1, 30);
}

/** Total exposure against a hypothetical spot, with the board spot, the what-if spot and the zero crossing. */
export function drawSpotProfile(canvas: HTMLCanvasElement, view: HeatmapView, boardSpot: number) {
  const { ctx, w, h } = fitCanvas(canvas);
  const { spots, totals, zero } = view.profile;
  const n = spots.length;
  if (n < 2) return;
  const pad = 8;
  const scale = scaleOf(totals) || 1;
  const x = (s: number) => pad + ((s - spots[0]) / (spots[n - 1] - spots[0])) * (w - 2 * pad);
  const y = (v: number) => h / 2 - (v / scale) * (h / 2 - 14);
  ctx.strokeStyle = GRID;
  ctx.beginPath();
  ctx.moveTo(pad, h / 2);
  ctx.lineTo(w - pad, h / 2);
  ctx.stroke();
  ctx.strokeStyle = "#4c8dff";
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let i = 0; i < n; i++) (i ? ctx.lineTo : ctx.moveTo).call(ctx, x(spots[i]), y(totals[i]));
  ctx.stroke();
  const vline = (s: number, color: string, label: string) => {
    if (s < spots[0] || s > spots[n - 1]) return;
    ctx.strokeStyle = color;
    ctx.beginPath();
    ctx.moveTo(x(s), 12);
    ctx.lineTo(x(s), h);
    ctx.stroke();
    ctx.fillStyle = color;
    ctx.textAlign = "center";
    ctx.fillText(label, x(s), 10);
  };
  vline(boardSpot, SPOT, "spot");
  if (view.grid.spot !== boardSpot) vline(view.grid.spot, "#90caf9", "what-if");
  if (zero !== null) vline(zero, ZERO, `zero ${zero.toFixed(1)}`);
  ctx.fillStyle = AXIS;
  ctx.textAlign = "left";
  ctx.fillText(formatUsd(scale), pad, 22);
}

/** The session heatmap without its cursor, kept between scrub steps (redrawn when the frames or the size change). */
let sessionLayer: { canvas: HTMLCanvasElement; frames: readonly SessionFrame[]; count: number; w: number; h: number; dpr: number } | null = null;

/**
 * The session: one column per loaded minute, strikes on y (the union range), each frame's
 * per-strike values coloured on one scale, the spot path over it and the cursor at `cursor`.
 * Scrubbing only moves the cursor: the rest is drawn once into a layer and copied.
 */
export function drawSession(canvas: HTMLCanvasElement, frames: readonly SessionFrame[], cursor: number) {
  const { ctx, w, h } = fitCanvas(canvas);
  if (frames.length === 0) {
    ctx.fillStyle = AXIS;
    ctx.fillText("No session history loaded.", 60, 20);
    return;
  }
  const dpr = globalThis.devicePixelRatio || 1;
  const l = sessionLayer;
  if (!l || l.frames !== frames || l.count !== frames.length || l.w !== w || l.h !== h || l.dpr !== dpr) {
    const layer = l?.canvas ?? document.createElement("canvas");
    layer.width = canvas.width;
    layer.height = canvas.height;
    const lctx = layer.getContext("2d")!;
    lctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    lctx.clearRect(0, 0, w, h);
    lctx.font = ctx.font;
    drawSessionLayer(lctx, w, h, frames);
    sessionLayer = { canvas: layer, frames, count: frames.length, w, h, dpr };
  }
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(sessionLayer!.canvas, 0, 0);
  ctx.restore();
  const left = SESSION_LEFT;
  const colW = (w - left - 4) / frames.length;
  const c = Math.max(0, Math.min(frames.length - 1, cursor));
  ctx.strokeStyle = FLIP;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(left + (c + 0.5) * colW, 0);
  ctx.lineTo(left + (c + 0.5) * colW, h - 16);
  ctx.stroke();
}

const SESSION_LEFT = 58;

function drawSessionLayer(ctx: CanvasRenderingContext2D, w: number, h: number, frames: readonly SessionFrame[]) {
  let lo = Infinity;
  let hi = -Infinity;
  let scale = 0;
  for (const f of frames) {
    lo = Math.min(lo, f.strikes[0] ?? lo, f.spot);
    hi = Math.max(hi, f.strikes[f.strikes.length - 1] ?? hi, f.spot);
    scale = Math.max(scale, scaleOf(f.values));
  }
  const left = SESSION_LEFT;
  const colW = (w - left - 4) / frames.length;
  const y = (p: number) => 4 + ((hi - p) / (hi - lo || 1)) * (h - 22);
  frames.forEach((f, k) => {
    const x = left + k * colW;
    for (let i = 0; i < f.strikes.length; i++) {
      const y0 = y(i + 1 < f.strikes.length ? (f.strikes[i] + f.strikes[i + 1]) / 2 : f.strikes[i]);
      const y1 = y(i > 0 ? (f.strikes[i] + f.strikes[i - 1]) / 2 : f.strikes[i]);
      ctx.fillStyle = colorOf(f.values[i], scale);
      ctx.fillRect(x, y0, Math.ceil(colW), Math.max(1, y1 - y0));
    }
  });
  ctx.strokeStyle = SPOT;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  frames.forEach((f, k) => {
    (k ? ctx.lineTo : ctx.moveTo).call(ctx, left + (k + 0.5) * colW, y(f.spot));
  });
  ctx.stroke();
  ctx.fillStyle = AXIS;
  ctx.textAlign = "right";
  ctx.fillText(hi.toFixed(0), left - 4, 12);
  ctx.fillText(lo.toFixed(0), left - 4, h - 18);
  ctx.textAlign = "left";
  ctx.fillText(etHhmm(frames[0].tMs), left, h - 4);
  ctx.textAlign = "right";
  ctx.fillText(etHhmm(frames[frames.length - 1].tMs), w - 4, h - 4);
}
