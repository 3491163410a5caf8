/**
 * Prices of a symbol at an instant, read off its path owner's minute path (times the family
 * ratio, in cents). Indices have no extended hours: outside the regular session they show the
 * last close.
 * @see docs/methodology.md#sessions-and-instants
 */
import type { SymbolSpec } from "../universe";
import { sessionIndexAtOrBefore, simCalendar } from "./_calendar";
import type { SimEngine } from "./engine";

const MINUTE_MS = 60_000;

/** Rounds a price to cents. */
function toCents(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Session index of a symbol's first listed day. */
export function firstSessionIndex(spec: SymbolSpec): number {
  const cal = simCalendar();
  const i = cal.dayIndex.get(spec.firstDate);
  if (i !== undefined) return i;
  return cal.days.findIndex((d) => d >= spec.firstDate);
}

/** Price at minute boundary `k` (from the extended open) of session `d`. */
export function priceAtBoundary(engine: SimEngine, spec: SymbolSpec, d: number, k: number): number {
  const owner = engine.owner(spec);
  const path = engine.intradayPath(owner.ticker, d);
  return toCents(engine.ratio(spec) * Math.exp(path.ln[k]));
}

/** Regular close of session `d` (the path's value at the close boundary). */
function closeOf(engine: SimEngine, spec: SymbolSpec, d: number): number {
  const path = engine.intradayPath(engine.owner(spec).ticker, d);
  return priceAtBoundary(engine, spec, d, path.nPre + path.nReg);
}

/** Regular open of session `d`. */
export function openOf(engine: SimEngine, spec: SymbolSpec, d: number): number {
  const path = engine.intradayPath(engine.owner(spec).ticker, d);
  return priceAtBoundary(engine, spec, d, path.nPre);
}

/**
 * Last price at or before `atMs`: the path at the last minute boundary, extended hours included
 * for ETFs and stocks; null before the symbol's first session.
 */
export function spotAt(engine: SimEngine, spec: SymbolSpec, atMs: number): number | null {
  const cal = simCalendar();
  let d = sessionIndexAtOrBefore(atMs);
  const first = firstSessionIndex(spec);
  if (d < first || first < 0) return null;
  if (spec.type === "index") {
    if (atMs < cal.regOpen[d]) {
      if (d === first) return null;
      d -= 1;
      return closeOf(engine, spec, d);
    }
    if (atMs >= cal.regClose[d]) return closeOf(engine, spec, d);
    const path = engine.intradayPath(engine.owner(spec).ticker, d);
    return priceAtBoundary(engine, spec, d, path.nPre + Math.floor((atMs - cal.regOpen[d]) / MINUTE_MS));
  }
  const path = engine.intradayPath(engine.owner(spec).ticker, d);
  const total = path.nPre + path.nReg + path.nPost;
  const k = Math.min(Math.floor((atMs - cal.extOpen[d]) / MINUTE_MS), total);
  return priceAtBoundary(engine, spec, d, k);
}
