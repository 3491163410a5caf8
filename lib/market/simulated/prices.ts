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

/**
 * ln price of a path owner at minute boundary `k` of session `d`. The bridges pin the regular
 * open and close to the daily path's open and close exactly (docs/methodology.md#intraday-paths:
 * each bridge starts at its first value with zero noise), so those two boundaries are read off
 * the daily path without building the session's minute path (daily closes over years, the
 * anchors' checks: no minute path each).
 */
function lnAtBoundary(engine: SimEngine, ownerTicker: string, d: number, k: number): number {
  const regular = regularBoundaries(d);
  if (k === regular.open) return Math.log(engine.dailyPath(ownerTicker).open[d]);
  if (k === regular.close) return Math.log(engine.dailyPath(ownerTicker).close[d]);
  return engine.intradayPath(ownerTicker, d).ln[k];
}

/** Price at minute boundary `k` (from the extended open) of session `d`. */
export function priceAtBoundary(engine: SimEngine, spec: SymbolSpec, d: number, k: number): number {
  return toCents(engine.ratio(spec) * Math.exp(lnAtBoundary(engine, engine.owner(spec).ticker, d, k)));
}

/** Minutes from the extended open to the regular open and to the regular close of session `d` (the path's `nPre`, `nPre + nReg`). */
function regularBoundaries(d: number): { open: number; close: number } {
  const cal = simCalendar();
  const open = Math.round((cal.regOpen[d] - cal.extOpen[d]) / MINUTE_MS);
  return { open, close: open + Math.round((cal.regClose[d] - cal.regOpen[d]) / MINUTE_MS) };
}

/** Regular close of session `d` (the path's value at the close boundary). */
function closeOf(engine: SimEngine, spec: SymbolSpec, d: number): number {
  return priceAtBoundary(engine, spec, d, regularBoundaries(d).close);
}

/** Regular open of session `d`. */
export function openOf(engine: SimEngine, spec: SymbolSpec, d: number): number {
  return priceAtBoundary(engine, spec, d, regularBoundaries(d).open);
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
    return priceAtBoundary(engine, spec, d, regularBoundaries(d).open + Math.floor((atMs - cal.regOpen[d]) / MINUTE_MS));
  }
  const { close } = regularBoundaries(d);
  const total = close + Math.round((cal.extClose[d] - cal.regClose[d]) / MINUTE_MS);
  const k = Math.min(Math.floor((atMs - cal.extOpen[d]) / MINUTE_MS), total);
  return priceAtBoundary(engine, spec, d, k);
}
