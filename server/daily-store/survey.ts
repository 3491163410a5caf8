// A fill plan's progress read from the store alone (nothing computed): what an instance that does
// not hold the fill lease reports while another process fills, so its vol warm-up waits for the
// window and then loads it from disk instead of building the same boards.
// See docs/operations.md#one-filler-per-store.
import { DAILY_KINDS, type DailyKind } from "./kinds";
import { fillPlan, plannedRows, type FillScope } from "./plan";
import type { KindProgress } from "./progress";
import type { DailyDataStore } from "./store";

/** Per kind: planned rows already stored, out of planned; finished when all are. */
export function surveyFill(store: DailyDataStore, scope: FillScope, nowMs: number): Record<DailyKind, KindProgress> {
  const steps = fillPlan(scope, nowMs);
  const totals = plannedRows(steps);
  const done = Object.fromEntries(DAILY_KINDS.map((k) => [k, 0])) as Record<DailyKind, number>;
  for (const step of steps) {
    const have = store.symbolsAt(step.kind, step.session);
    for (const s of step.symbols) if (have.has(s)) done[step.kind]++;
  }
  return Object.fromEntries(DAILY_KINDS.map((k) => [k, { done: done[k], total: totals[k], finished: done[k] === totals[k] }])) as Record<DailyKind, KindProgress>;
}
