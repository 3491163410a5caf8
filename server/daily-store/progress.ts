// Progress of the background fill, per kind: what `/v1/vol/status`, the flow `meta` and the logs
// show, and what the volatility warm-up waits on before it loads a year of readings.
import { DAILY_KINDS, type DailyKind } from "./kinds";

/** One kind's fill: (symbol, session) rows done out of planned; `finished` once the plan is done. */
export interface KindProgress {
  done: number;
  total: number;
  finished: boolean;
}

/** A failed pass waiting for its retry (docs/operations.md#daily-fill-retries). */
export interface FillRetry {
  /** Failures in a row (1 after the first). */
  attempt: number;
  /** When the next pass starts, ms since the epoch (wall clock). */
  nextAtMs: number;
  /** The error's code (`SQLITE_FULL`, ...) or `error`: no message, which may name paths. */
  reason: string;
}

export interface FillProgress {
  /** True while a worker is filling. */
  running: boolean;
  /** Set while the fill waits to retry after a failed pass; null otherwise. */
  retry: FillRetry | null;
  kinds: Record<DailyKind, KindProgress>;
}

/** Progress the filler updates and readers watch. */
export interface FillTracker {
  snapshot(): FillProgress;
  update(kind: DailyKind, p: KindProgress): void;
  setRunning(running: boolean): void;
  setRetry(retry: FillRetry | null): void;
  /**
   * Resolves when `kind`'s plan has finished once (at once if it has), or when the fill stops
   * without finishing it (a failed worker): waiting longer would wait for nothing.
   */
  ready(kind: DailyKind): Promise<void>;
}

export function createFillTracker(): FillTracker {
  const kinds = Object.fromEntries(DAILY_KINDS.map((k) => [k, { done: 0, total: 0, finished: false }])) as Record<DailyKind, KindProgress>;
  const waiters = new Map<DailyKind, (() => void)[]>();
  let running = false;
  let retry: FillRetry | null = null;
  return {
    snapshot: () => ({
      running,
      retry: retry && { ...retry },
      kinds: Object.fromEntries(DAILY_KINDS.map((k) => [k, { ...kinds[k] }])) as Record<DailyKind, KindProgress>,
    }),
    update(kind, p) {
      kinds[kind] = { ...p };
      if (p.finished) {
        for (const w of waiters.get(kind) ?? []) w();
        waiters.delete(kind);
      }
    },
    setRunning(r) {
      running = r;
      if (!r) {
        for (const list of waiters.values()) for (const w of list) w();
        waiters.clear();
      }
    },
    setRetry(r) {
      retry = r && { ...r };
    },
    ready(kind) {
      if (kinds[kind].finished) return Promise.resolve();
      return new Promise((resolve) => waiters.set(kind, [...(waiters.get(kind) ?? []), resolve]));
    },
  };
}
