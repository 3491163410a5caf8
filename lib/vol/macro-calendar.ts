import { macroEvents } from "../market/simulated/macro-events";
import { isoUtc } from "../positioning/iso-utc";

/** A scheduled macro release listed in a cone horizon. */
export interface ConeMacroEvent {
  kind: "fomc" | "cpi";
  label: string;
  /** Release instant, ISO UTC. */
  at: string;
}

const LABELS = { fomc: "FOMC decision", cpi: "CPI release" } as const;

/**
 * FOMC decisions (14:00 ET) and CPI releases (08:30 ET) with a release instant in
 * `(fromMs, toMs]`, by time: the Federal Reserve's and the BLS's published calendars (the ones the
 * simulated market trades around; after the published years, their documented rule).
 *
 * @example macroEventsBetween(Date.parse("2024-03-06T15:00:00Z"), Date.parse("2024-03-15T20:00:00Z")) // [CPI 2024-03-12]
 * @see docs/methodology.md#cone-events
 */
export function macroEventsBetween(fromMs: number, toMs: number): ConeMacroEvent[] {
  const out: ConeMacroEvent[] = [];
  for (const e of macroEvents()) {
    if (e.releaseMs <= fromMs) continue;
    if (e.releaseMs > toMs) break;
    if (e.kind === "fomc" || e.kind === "cpi") out.push({ kind: e.kind, label: LABELS[e.kind], at: isoUtc(e.releaseMs) });
  }
  return out;
}
