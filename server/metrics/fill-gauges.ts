/**
 * The background daily fill (server/daily-store/filler.ts: one niced worker thread) as metric
 * families: whether it is filling, and per kind the rows done out of those planned (what is
 * left is its queue). See docs/operations.md#metrics.
 */
import type { FillProgress } from "../daily-store/progress";
import type { MetricCollector } from "./registry";

/**
 * The fill's families from its progress now.
 * @example registry.register(dailyFillCollector(() => dailyStore.fill.snapshot()));
 */
export function dailyFillCollector(read: () => FillProgress): MetricCollector {
  return () => {
    const p = read();
    const kinds = Object.entries(p.kinds);
    return [
      {
        name: "optionscope_daily_fill_running",
        help: "1 while the background fill's worker is computing rows, else 0.",
        type: "gauge",
        samples: [{ value: p.running ? 1 : 0 }],
      },
      {
        name: "optionscope_daily_fill_rows_done",
        help: "Rows of the fill plan computed or found stored, per kind.",
        type: "gauge",
        samples: kinds.map(([kind, k]) => ({ labels: { kind }, value: k.done })),
      },
      {
        name: "optionscope_daily_fill_rows_planned",
        help: "Rows in the fill plan, per kind (planned - done is the fill's queue).",
        type: "gauge",
        samples: kinds.map(([kind, k]) => ({ labels: { kind }, value: k.total })),
      },
    ];
  };
}
