import type { Bench } from "tinybench";

/** One measured workload against its target (ms); `pass` is null where no target applies. */
export interface BenchRow {
  name: string;
  meanMs: number;
  p99Ms: number;
  targetMs: number | null;
  pass: boolean | null;
  detail: string;
}

/** The rows of a finished tinybench run, each against its target (mean <= target). */
export function benchRows(bench: Bench, targets: Record<string, number | null>, detailOf: (name: string) => string): BenchRow[] {
  return bench.tasks.map((t) => {
    const r = t.result as unknown as { latency?: { mean: number; p99: number }; mean?: number; p99?: number };
    const mean = r.latency?.mean ?? r.mean ?? Number.NaN;
    const p99 = r.latency?.p99 ?? r.p99 ?? Number.NaN;
    const target = targets[t.name] ?? null;
    return { name: t.name, meanMs: mean, p99Ms: p99, targetMs: target, pass: target === null ? null : mean <= target, detail: detailOf(t.name) };
  });
}
