// One pass of the fill: every planned row the store lacks is computed and written, in small
// transactions (a crash loses at most the rows of one unfinished batch, never half a row). The
// pass yields its event loop after each computed row and between sessions, so a stop, an abort
// (lease lost) or a lease renewal is seen within one row. See docs/operations.md#daily-store.
import type { DailyProducer } from "./compute";
import { contractVolumesOf, type ContractVolumes } from "../modules/flow/sessions/contract-volumes";
import type { SessionSummary } from "../modules/flow/sessions/session-summary";
import { CONTRACT_VOLUME, FLOW_SUMMARY, VOL_READING, type DailyKind } from "./kinds";
import { fillPlan, plannedRows, type FillScope } from "./plan";
import type { KindProgress } from "./progress";
import type { DailyDataStore, DailyRow } from "./store";

/**
 * Rows written per transaction: small enough that a stop or crash loses little work, large enough
 * that commits (each one a sync to disk) are not most of the fill's own thread. A closing reading
 * is ~1 ms of work and 0.3 KB: a whole step of them per commit (a step is one session's symbols).
 */
const FILL_BATCH_ROWS = 8;
const FILL_BATCH_ROWS_BY_KIND: Partial<Record<DailyKind, number>> = { [VOL_READING]: 256 };
/** A batch is also written once it holds this much work (an index's summary is seconds of CPU). */
const FILL_BATCH_MS = 2_000;

export interface RunFillOptions {
  store: DailyDataStore;
  produce: DailyProducer;
  scope: FillScope;
  nowMs: number;
  /** Checked between rows: true ends the pass early. */
  stopped?: () => boolean;
  onProgress?: (kind: DailyKind, p: KindProgress) => void;
  /**
   * Rows of one step computed at a time, per kind (default 1): a producer that runs rows in a pool
   * of threads gets as many in flight as it has threads (docs/operations.md#daily-fill-threads).
   */
  concurrency?: (kind: DailyKind) => number;
}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The contract-volume rows of summary rows (written with them: they have no fill step of their
 * own). A value that is not a summary (a test's stand-in producer) has none.
 */
function volumeRowsOf(rows: readonly DailyRow[]): DailyRow<ContractVolumes>[] {
  const out: DailyRow<ContractVolumes>[] = [];
  for (const r of rows) {
    const contracts = (r.value as Partial<SessionSummary> | null)?.contracts;
    if (Array.isArray(contracts)) out.push({ symbol: r.symbol, session: r.session, value: contractVolumesOf({ contracts }) });
  }
  return out;
}

/**
 * Volumes of the session's stored summaries that lack them (a store filled before the kind
 * existed), read from those summaries; in batches, yielding between rows like the fill itself.
 */
async function backfillVolumes(o: RunFillOptions, session: string, summaries: ReadonlySet<string>): Promise<void> {
  const have = o.store.symbolsAt(CONTRACT_VOLUME, session);
  let rows: DailyRow[] = [];
  const flush = () => {
    if (rows.length > 0) o.store.putMany(CONTRACT_VOLUME, volumeRowsOf(rows));
    rows = [];
  };
  for (const symbol of summaries) {
    if (o.stopped?.()) break;
    if (have.has(symbol)) continue;
    const value = o.store.get<SessionSummary>(FLOW_SUMMARY, symbol, session);
    if (value !== undefined) rows.push({ symbol, session, value });
    if (rows.length >= FILL_BATCH_ROWS) flush();
    await yieldLoop();
  }
  flush();
}

/** Runs one pass; resolves to the number of rows computed. */
export async function runFill(o: RunFillOptions): Promise<number> {
  const steps = fillPlan(o.scope, o.nowMs);
  const totals = plannedRows(steps);
  const done: Record<string, number> = {};
  const left: Record<string, number> = {};
  for (const s of steps) left[s.kind] = (left[s.kind] ?? 0) + 1;
  // A kind with no planned step has nothing left: finished from the start.
  const report = (kind: DailyKind) => o.onProgress?.(kind, { done: done[kind] ?? 0, total: totals[kind], finished: (left[kind] ?? 0) === 0 });
  for (const kind of Object.keys(totals) as DailyKind[]) if (!left[kind]) report(kind);
  let computed = 0;
  for (const step of steps) {
    const have = o.store.symbolsAt(step.kind, step.session);
    if (step.kind === FLOW_SUMMARY) await backfillVolumes(o, step.session, have);
    let batch: DailyRow[] = [];
    let since = performance.now();
    const flush = () => {
      if (batch.length > 0) {
        o.store.putMany(step.kind, batch);
        if (step.kind === FLOW_SUMMARY) o.store.putMany(CONTRACT_VOLUME, volumeRowsOf(batch));
      }
      batch = [];
      since = performance.now();
    };
    const missing = step.symbols.filter((symbol) => !have.has(symbol));
    done[step.kind] = (done[step.kind] ?? 0) + step.symbols.length - missing.length;
    // Each lane takes the next missing symbol until none is left or the pass is stopped; rows are
    // written in completion order (a row is keyed by symbol and session, so order is immaterial).
    let next = 0;
    const lane = async () => {
      while (next < missing.length && !o.stopped?.()) {
        const symbol = missing[next++];
        // Awaited before `batch` is read: another lane may flush (and replace) it meanwhile.
        const value = await o.produce(step.kind, symbol, step.session);
        batch.push({ symbol, session: step.session, value });
        computed++;
        done[step.kind]++;
        if (batch.length >= batchRows || performance.now() - since >= FILL_BATCH_MS) flush();
        await yieldLoop();
      }
    };
    const lanes = Math.max(1, Math.min(o.concurrency?.(step.kind) ?? 1, missing.length));
    const batchRows = FILL_BATCH_ROWS_BY_KIND[step.kind] ?? FILL_BATCH_ROWS;
    await Promise.all(Array.from({ length: lanes }, lane));
    if (o.stopped?.()) {
      flush();
      return computed;
    }
    flush();
    left[step.kind]--;
    report(step.kind);
    await yieldLoop();
  }
  return computed;
}
