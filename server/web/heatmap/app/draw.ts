// Canvas drawing of the page: the board heatmap with its per-strike profile and level lines, the
// legend, the spot profile and the session heatmap. Each function draws one canvas from data and
// leaves behind, for that canvas, what the pointer reads (`hoverAt`) and the boxes of the labels
// it printed (`labelBoxes`: placed so that no two overlap; docs/methodology.md#heatmap-page-labels).
import { formatUsd } from "optionscope/positioning";
import { etHhmm, etYmd } from "./et-format";
import { colorOf, legendValue, pixelOf, scaleOf } from "./colors";
import type { HeatmapView } from "./model";
import type { SessionFrame } from "./source";

const AXIS = "#9598a1";
const GRID = "#2a2e39";
const SPOT = "#f5f5f5";
const FLIP = "#ffca28";
const ZERO = "#e040fb";
const FONT = "11px system-ui, sans-serif";
const LABEL_H = 13;

/** Node glyphs and colours of the board's tag column (the page's legend in heatmap-html.ts uses the same). */
const NODE_MARKS: Record<string, { glyph: string; color: string }> = {
  king: { glyph: "♛", color: "#ffd54f" },
  gatekeeper: { glyph: "◆", color: "#90caf9" },
  pika: { glyph: "▲", color: "#26a69a" },
  barney: { glyph: "▼", color: "#ef5350" },
  significant: { glyph: "•", color: "#d1d4dc" },
};

/** A label's box on its canvas, CSS pixels. */
export interface LabelBox {
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
}

/** What the pointer reads at a point of a canvas: lines of the tooltip. */
export type HoverInfo = { title: string; lines: string[] };

const hovers = new WeakMap<HTMLCanvasElement, (x: number, y: number) => HoverInfo | null>();
const labels = new WeakMap<HTMLCanvasElement, LabelBox[]>();

/** The tooltip at CSS point (x, y) of a drawn canvas, or null. */
export function hoverAt(canvas: HTMLCanvasElement, x: number, y: number): HoverInfo | null {
  return hovers.get(canvas)?.(x, y) ?? null;
}

/** The boxes of every label last printed on the canvas. */
export function labelBoxes(canvas: HTMLCanvasElement): LabelBox[] {
  return labels.get(canvas) ?? [];
}

const overlaps = (a: LabelBox, b: LabelBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Places labels on one canvas without overlap: each label tries its wanted baseline, then the
 * offsets given, and is left out (returns null) when every place is taken.
 */
class LabelPlacer {
  readonly boxes: LabelBox[] = [];
  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  /** Prints `text` with `align` at x and the first free baseline of `ys`; its box is remembered. */
  place(text: string, x: number, ys: readonly number[], align: CanvasTextAlign, color: string, options: { background?: boolean } = {}): LabelBox | null {
    const w = Math.ceil(this.ctx.measureText(text).width) + 4;
    const x0 = align === "right" ? x - w + 2 : align === "center" ? x - w / 2 : x - 2;
    for (const y of ys) {
      const box = { x: x0, y: y - LABEL_H + 3, w, h: LABEL_H, text };
      if (this.boxes.some((b) => overlaps(b, box))) continue;
      if (options.background) {
        this.ctx.fillStyle = "rgba(15,20,25,0.85)";
        this.ctx.fillRect(box.x, box.y, box.w, box.h);
      }
      this.ctx.fillStyle = color;
      this.ctx.textAlign = align;
      this.ctx.fillText(text, x, y);
      this.boxes.push(box);
      return box;
    }
    return null;
  }
}

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
  ctx.font = FONT;
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

/**
 * Rows after which the strike step jumps (empty strikes the window left out): a step over 1.5x
 * the median step of the grid (docs/methodology.md#heatmap-page-gaps).
 */
function strikeGaps(strikes: ArrayLike<number>): number[] {
  const steps: number[] = [];
  for (let i = 1; i < strikes.length; i++) steps.push(strikes[i] - strikes[i - 1]);
  if (steps.length < 2) return [];
  const median = [...steps].sort((a, b) => a - b)[Math.floor(steps.length / 2)];
  const out: number[] = [];
  steps.forEach((s, i) => {
    if (s > 1.5 * median) out.push(i); // the gap lies between strikes[i] and strikes[i + 1]
  });
  return out;
}

/** The value's unit as the tooltip and the axes print it. */
export function unitLabel(unit: string): string {
  return unit === "usd_per_1pct" ? "per 1% move" : "per vol point";
}

function vLine(ctx: CanvasRenderingContext2D, x: number, y0: number, y1: number, color: string) {
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x, y0);
  ctx.lineTo(x, y1);
  ctx.stroke();
}

function hLine(ctx: CanvasRenderingContext2D, y: number, x0: number, x1: number, color: string, dash: number[]) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.setLineDash(dash);
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x0, y);
  ctx.lineTo(x1, y);
  ctx.stroke();
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

/** Cells at least this large print their value (CSS pixels). */
const PRINT_MIN = { w: 46, h: 11 };

/**
 * The board: strike rows (highest on top) x expiration columns, the per-strike net as bars on the
 * right and each node's glyph in the tag column, king and gatekeeper rows outlined, spot, flip
 * and zero-gamma lines, marks where strikes are missing. Returns the colour scale.
 */
export function drawBoard(canvas: HTMLCanvasElement, view: HeatmapView, boardSpot: number): number {
  const { ctx, w, h } = fitCanvas(canvas);
  const { grid, frame, levels } = view;
  const placer = new LabelPlacer(ctx);
  const n = grid.strikes.length;
  const nExp = grid.expirations.length;
  const left = 66;
  const top = 34;
  const tagW = 18;
  const barW = Math.max(80, Math.floor(w * 0.24));
  const mapW = w - left - barW - tagW - 12;
  const rowH = n > 0 ? (h - top - 4) / n : 0;
  const colW = nExp > 0 ? mapW / nExp : 0;
  const scale = scaleOf(grid.matrix);
  const unit = unitLabel(grid.meta.unit);
  const barX0 = left + mapW + 8;
  const mid = barX0 + barW / 2;
  const tagX = barX0 + barW + 4 + tagW / 2;

  // Axis titles: expirations across the top, strikes down the left, the bars' own scale.
  ctx.fillStyle = AXIS;
  placer.place("Expiration (month-day)", left + mapW / 2, [11], "center", AXIS);
  placer.place(`Net by strike (max ${formatUsd(scaleOf(grid.net))})`, mid, [11], "center", AXIS);
  ctx.save();
  ctx.translate(11, top + (n * rowH) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillText("Strike", 0, 0);
  ctx.restore();
  labelBoxFor(placer, 4, top + (n * rowH) / 2 - 18, 10, 36, "Strike");
  const expEvery = Math.max(1, Math.ceil(40 / Math.max(colW, 1)));
  grid.expirations.forEach((e, j) => {
    if (j % expEvery === 0) placer.place(e.slice(5), left + (j + 0.5) * colW, [top - 6], "center", AXIS);
  });

  const netScale = scaleOf(grid.net);
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
  // Values printed in cells large enough for them (the strongest colours get dark text).
  if (colW >= PRINT_MIN.w && rowH >= PRINT_MIN.h) {
    ctx.save();
    ctx.font = "10px system-ui, sans-serif";
    ctx.textAlign = "center";
    for (let i = 0; i < n; i++) {
      const y = top + (n - 1 - i) * rowH + rowH / 2 + 3.5;
      for (let j = 0; j < nExp; j++) {
        const v = grid.matrix[i * nExp + j];
        if (!(Math.abs(v) >= PRINT_MIN_SHARE * scale) || v === 0) continue;
        ctx.fillStyle = Math.abs(v) / scale > 0.45 ? "#0f1419" : "#d1d4dc";
        ctx.fillText(formatUsd(v), left + (j + 0.5) * colW, y);
      }
    }
    ctx.restore();
  }
  const labelEvery = Math.max(1, Math.ceil(LABEL_H / Math.max(rowH, 1)));
  for (let i = 0; i < n; i++) {
    const y = top + (n - 1 - i) * rowH;
    const v = grid.net[i];
    ctx.fillStyle = colorOf(v, netScale);
    const len = netScale > 0 ? (v / netScale) * (barW / 2 - 2) : 0;
    ctx.fillRect(Math.min(mid, mid + len), y + rowH * 0.15, Math.abs(len), Math.max(1, rowH * 0.7));
    const type = frame.strikes[i].nodeType;
    if (type === "king" || type === "gatekeeper") {
      ctx.strokeStyle = NODE_MARKS[type].color;
      ctx.lineWidth = 2;
      ctx.strokeRect(left + 1, y + 1, mapW - 2, Math.max(1, rowH - 2));
    }
    const mark = NODE_MARKS[type];
    if (mark && rowH >= 7) {
      ctx.fillStyle = mark.color;
      ctx.textAlign = "center";
      ctx.fillText(mark.glyph, tagX, y + rowH / 2 + 4);
    }
  }
  // Strike labels: the king first, then every labelEvery-th row where it fits.
  const kingRow = frame.strikes.findIndex((s) => s.nodeType === "king");
  const rowOrder = [...(kingRow >= 0 ? [kingRow] : []), ...Array.from({ length: n }, (_, i) => i).filter((i) => i !== kingRow && i % labelEvery === 0)];
  for (const i of rowOrder) {
    placer.place(String(grid.strikes[i]), left - 5, [top + (n - 1 - i) * rowH + rowH / 2 + 4], "right", i === kingRow ? NODE_MARKS.king.color : AXIS);
  }
  ctx.strokeStyle = GRID;
  ctx.lineWidth = 1;
  ctx.strokeRect(left, top, mapW, n * rowH);
  vLine(ctx, mid, top, top + n * rowH, GRID);

  // Missing strikes: a dashed break across the board and a mark on the strike axis.
  const gaps = strikeGaps(grid.strikes);
  for (const i of gaps) {
    const y = top + (n - 1 - i) * rowH;
    hLine(ctx, y, left, barX0 + barW, AXIS, [2, 2]);
    placer.place("≈", 22, [y + 4, y + 12, y - 4], "center", AXIS);
  }
  canvas.dataset.gaps = String(gaps.length);

  // Level lines across the board; their labels sit at the bars' right end, moved up or down
  // (or left out) rather than printed over another label.
  const lines: [number | null, string, number[], string][] = [
    [grid.spot, SPOT, [], grid.spot === boardSpot ? `spot ${grid.spot.toFixed(2)}` : `what-if ${grid.spot.toFixed(2)}`],
    [levels.summary.flip?.level ?? null, FLIP, [6, 4], `flip ${levels.summary.flip?.level.toFixed(1) ?? ""}`],
    [view.zeroGamma, ZERO, [2, 3], `zero gamma ${view.zeroGamma?.toFixed(1) ?? ""}`],
  ];
  const right = barX0 + barW;
  for (const [level, color, dash, label] of lines) {
    const y = level === null ? null : levelY(grid.strikes, level, top, rowH);
    if (y === null) continue;
    hLine(ctx, y, left, right, color, dash);
    placer.place(label, right - 2, [y - 3, y + 12, y - 16, y + 25, y - 29, y + 38], "right", color, { background: true });
  }

  labels.set(canvas, placer.boxes);
  hovers.set(canvas, (x, y) => {
    if (n === 0 || y < top || y >= top + n * rowH) return null;
    const i = n - 1 - Math.floor((y - top) / rowH);
    const s = frame.strikes[i];
    const node = s.nodeType === "normal" ? "" : `, ${s.nodeType} node`;
    if (x >= left && x < left + mapW && nExp > 0) {
      const j = Math.min(nExp - 1, Math.floor((x - left) / colW));
      const v = grid.matrix[i * nExp + j];
      return {
        title: `Strike ${grid.strikes[i]}, expiration ${grid.expirations[j]}`,
        lines: [`${shortUsd(v)} ${unit} (${exactUsd(v)})`, `strike net ${shortUsd(grid.net[i])}${node}`],
      };
    }
    if (x >= barX0 && x <= tagX + tagW / 2) {
      return {
        title: `Strike ${grid.strikes[i]}: net of ${nExp} expirations`,
        lines: [`${shortUsd(grid.net[i])} ${unit} (${exactUsd(grid.net[i])})`, s.nodeType === "normal" ? "normal strike" : `${s.nodeType} node`],
      };
    }
    return null;
  });
  return scale;
}

/** Records a box drawn outside the placer (the rotated axis title). */
function labelBoxFor(placer: LabelPlacer, x: number, y: number, w: number, h: number, text: string) {
  placer.boxes.push({ x, y, w, h, text });
}

/** Dollars to the unit, with thousands separators ("$12,345,678"); no "-$0". */
function exactUsd(v: number): string {
  const r = Math.round(Math.abs(v));
  return `${v < 0 && r > 0 ? "-" : ""}$${r.toLocaleString("en-US")}`;
}

/** `formatUsd` without "-$0" for a value that rounds to nothing. */
function shortUsd(v: number): string {
  return Math.abs(v) < 0.5 ? "$0" : formatUsd(v);
}

/** Cells under this share of the board's scale print nothing (their colour is the background's). */
const PRINT_MIN_SHARE = 0.005;

/** The colour legend: the scale from -scale to +scale in dollars. */
export function drawLegend(canvas: HTMLCanvasElement, scale: number, unit: string) {
  const { ctx, w } = fitCanvas(canvas);
  const x0 = 66;
  const x1 = w - 8;
  const steps = 64;
  for (let k = 0; k < steps; k++) {
    ctx.fillStyle = colorOf(legendValue((2 * k + 1) / steps - 1, scale), scale);
    ctx.fillRect(x0 + ((x1 - x0) * k) / steps, 4, Math.ceil((x1 - x0) / steps), 12);
  }
  const placer = new LabelPlacer(ctx);
  placer.place("Cell colour", x0 - 6, [14], "right", AXIS);
  placer.place(formatUsd(-scale), x0, [30], "left", AXIS);
  placer.place(formatUsd(scale), x1, [30], "right", AXIS);
  placer.place(`$0 (${unit})`, (x0 + x1) / 2, [30], "center", AXIS);
  placer.place(formatUsd(legendValue(-0.5, scale)), x0 + (x1 - x0) / 4, [30], "center", AXIS);
  placer.place(formatUsd(legendValue(0.5, scale)), x0 + (3 * (x1 - x0)) / 4, [30], "center", AXIS);
  labels.set(canvas, placer.boxes);
  hovers.set(canvas, (x) => {
    if (x < x0 || x > x1) return null;
    const f = (2 * (x - x0)) / (x1 - x0) - 1;
    return { title: "Colour scale", lines: [`${formatUsd(legendValue(f, scale))} ${unit}`] };
  });
}

/** Round steps for axis ticks: 1, 2 or 5 times a power of ten, giving about `count` ticks over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** Total exposure against a hypothetical spot, with the board spot, the what-if spot and the zero crossing. */
export function drawSpotProfile(canvas: HTMLCanvasElement, view: HeatmapView, boardSpot: number, metric: string) {
  const { ctx, w, h } = fitCanvas(canvas);
  const { spots, totals, zero } = view.profile;
  const n = spots.length;
  labels.set(canvas, []);
  hovers.delete(canvas);
  if (n < 2) return;
  const placer = new LabelPlacer(ctx);
  const left = 58;
  const right = w - 8;
  const top = 30;
  const bottom = h - 30;
  const scale = scaleOf(totals) || 1;
  const x = (s: number) => left + ((s - spots[0]) / (spots[n - 1] - spots[0])) * (right - left);
  const y = (v: number) => (top + bottom) / 2 - (v / scale) * ((bottom - top) / 2);
  // Axes: dollars on y (the scale, zero and its negative), hypothetical spot on x.
  vLine(ctx, left, top, bottom, GRID);
  hLine(ctx, y(0), left, right, GRID, []);
  for (const v of [scale, 0, -scale]) placer.place(formatUsd(v), left - 4, [y(v) + 4], "right", AXIS);
  const step = niceStep(spots[n - 1] - spots[0], 5);
  for (let s = Math.ceil(spots[0] / step) * step; s <= spots[n - 1]; s += step) {
    vLine(ctx, x(s), bottom, bottom + 3, AXIS);
    placer.place(String(Math.round(s * 100) / 100), x(s), [bottom + 14], "center", AXIS);
  }
  placer.place(`Hypothetical spot; total ${metric}, $ ${unitLabel(view.grid.meta.unit)}`, (left + right) / 2, [h - 2], "center", AXIS);
  ctx.strokeStyle = "#4c8dff";
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let i = 0; i < n; i++) (i ? ctx.lineTo : ctx.moveTo).call(ctx, x(spots[i]), y(totals[i]));
  ctx.stroke();
  // Vertical markers, labelled along the top (stacked when they would overlap).
  const vline = (s: number, color: string, label: string) => {
    if (s < spots[0] || s > spots[n - 1]) return;
    vLine(ctx, x(s), top, bottom, color);
    placer.place(label, x(s), [top - 4, top - 17], "center", color, { background: true });
  };
  vline(boardSpot, SPOT, `spot ${boardSpot.toFixed(1)}`);
  if (view.grid.spot !== boardSpot) vline(view.grid.spot, "#90caf9", `what-if ${view.grid.spot.toFixed(1)}`);
  if (zero !== null) vline(zero, ZERO, `${metric === "gamma" ? "zero gamma" : "zero"} ${zero.toFixed(1)}`);
  labels.set(canvas, placer.boxes);
  hovers.set(canvas, (px) => {
    if (px < left || px > right) return null;
    const k = Math.max(0, Math.min(n - 1, Math.round(((px - left) / (right - left)) * (n - 1))));
    const pct = (100 * (spots[k] - boardSpot)) / boardSpot;
    return {
      title: `Spot ${spots[k].toFixed(2)} (${pct >= 0 ? "+" : ""}${pct.toFixed(1)}%)`,
      lines: [`total ${metric} ${formatUsd(totals[k])} ${unitLabel(view.grid.meta.unit)}`],
    };
  });
}

/** The session heatmap without its cursor, kept between scrub steps (redrawn when the frames or the size change). */
let sessionLayer: {
  canvas: HTMLCanvasElement;
  frames: readonly SessionFrame[];
  count: number;
  w: number;
  h: number;
  dpr: number;
  boxes: LabelBox[];
  geometry: SessionGeometry;
} | null = null;

interface SessionGeometry {
  lo: number;
  hi: number;
  y(p: number): number;
}

const SESSION_LEFT = 66;
const SESSION_BOTTOM = 34;

/**
 * The session: one column per loaded minute, strikes on y (the union range), each frame's
 * per-strike values coloured on one scale, the spot path over it and the cursor at `cursor`.
 * Scrubbing only moves the cursor: the rest is drawn once into a layer and copied.
 */
export function drawSession(canvas: HTMLCanvasElement, frames: readonly SessionFrame[], cursor: number, metric: string) {
  const { ctx, w, h } = fitCanvas(canvas);
  if (frames.length === 0) {
    ctx.fillStyle = AXIS;
    ctx.fillText("No session history loaded.", SESSION_LEFT, 20);
    labels.set(canvas, []);
    hovers.delete(canvas);
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
    const placer = new LabelPlacer(lctx);
    const geometry = drawSessionLayer(lctx, placer, w, h, frames);
    sessionLayer = { canvas: layer, frames, count: frames.length, w, h, dpr, boxes: placer.boxes, geometry };
  }
  const layer = sessionLayer!;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(layer.canvas, 0, 0);
  ctx.restore();
  const left = SESSION_LEFT;
  const colW = (w - left - 4) / frames.length;
  const c = Math.max(0, Math.min(frames.length - 1, cursor));
  ctx.strokeStyle = FLIP;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(left + (c + 0.5) * colW, 0);
  ctx.lineTo(left + (c + 0.5) * colW, h - SESSION_BOTTOM);
  ctx.stroke();
  labels.set(canvas, layer.boxes);
  hovers.set(canvas, (x, y) => {
    if (x < left || y > h - SESSION_BOTTOM) return null;
    const k = Math.min(frames.length - 1, Math.floor((x - left) / colW));
    const f = frames[k];
    const { lo, hi } = layer.geometry;
    const price = hi - ((y - 4) / (h - SESSION_BOTTOM - 4)) * (hi - lo || 1);
    let best = -1;
    for (let i = 0; i < f.strikes.length; i++) if (best < 0 || Math.abs(f.strikes[i] - price) < Math.abs(f.strikes[best] - price)) best = i;
    const lines = [`spot ${f.spot.toFixed(2)}`];
    if (best >= 0) lines.unshift(`strike ${f.strikes[best]}: ${metric} ${formatUsd(f.values[best])}`);
    return { title: `${etYmd(f.tMs)} ${etHhmm(f.tMs)} ET`, lines };
  });
}

function drawSessionLayer(ctx: CanvasRenderingContext2D, placer: LabelPlacer, w: number, h: number, frames: readonly SessionFrame[]): SessionGeometry {
  let lo = Infinity;
  let hi = -Infinity;
  let scale = 0;
  for (const f of frames) {
    lo = Math.min(lo, f.strikes[0] ?? lo, f.spot);
    hi = Math.max(hi, f.strikes[f.strikes.length - 1] ?? hi, f.spot);
    scale = Math.max(scale, scaleOf(f.values));
  }
  const left = SESSION_LEFT;
  const plotH = h - SESSION_BOTTOM;
  const colW = (w - left - 4) / frames.length;
  const y = (p: number) => 4 + ((hi - p) / (hi - lo || 1)) * (plotH - 4);
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
  // Strike axis: round strikes over the range.
  ctx.save();
  ctx.translate(11, plotH / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillStyle = AXIS;
  ctx.textAlign = "center";
  ctx.fillText("Strike", 0, 0);
  ctx.restore();
  placer.boxes.push({ x: 4, y: plotH / 2 - 18, w: 10, h: 36, text: "Strike" });
  const step = niceStep(hi - lo || 1, Math.max(2, Math.floor(plotH / 40)));
  for (let p = Math.ceil(lo / step) * step; p <= hi; p += step) {
    vLine(ctx, left - 3, y(p), y(p), AXIS);
    placer.place(String(Math.round(p * 100) / 100), left - 5, [y(p) + 4], "right", AXIS);
  }
  // Time axis: about one tick per 90 px, at whole minutes of the frames.
  const every = Math.max(1, Math.ceil(90 / Math.max(colW, 1)));
  for (let k = 0; k < frames.length; k += every) {
    const x = left + (k + 0.5) * colW;
    vLine(ctx, x, plotH, plotH + 3, AXIS);
    placer.place(etHhmm(frames[k].tMs), x, [plotH + 14], "center", AXIS);
  }
  placer.place(`Time (ET), session of ${etYmd(frames[frames.length - 1].tMs)}; white line: spot`, left + (w - left) / 2, [h - 2], "center", AXIS);
  return { lo, hi, y };
}
