/**
 * One snapshot poll of one underlying, as a task a worker thread runs (server/feeds/massive/
 * snapshot-worker.ts) or, when the worker cannot start, the feed's own thread: every page fetched
 * and parsed, each symbol's board built, and the contracts' quotes and strikes returned by column
 * (the feed subscribes them and prices prints with them). The HTTP paging, the JSON parse of about
 * 8 MiB and the mapping of an SPXW-sized chain stay off the request loop (bench/README.md).
 * @see docs/data.md#massive-live-feed
 */
import type { ChainSnapshot } from "../../../lib/market/market-data";
import { boardFromSnapshot, type BoardHeader, type SnapshotCounts } from "../../../lib/market/massive/snapshot-board";
import { fetchChainSnapshot, MassiveHttpError, type MassiveRestOptions } from "./rest";

/** What a poll needs: the vendor underlying, the minute, the boards to build, how to call the vendor. */
export interface SnapshotTask {
  vendor: string;
  boards: BoardHeader[];
  rest: Pick<MassiveRestOptions, "baseUrl" | "apiKey" | "pageLimit" | "maxAttempts" | "backoffMs" | "timeoutMs">;
}

/** The contracts of a snapshot by column: NaN where the snapshot has no quote. */
export interface SnapshotContracts {
  sym: string[];
  strike: Float64Array;
  bid: Float64Array;
  ask: Float64Array;
  /** Quote instant, ms. */
  quoteMs: Float64Array;
}

/** A poll's outcome (a value, not a thrown error: the HTTP status must survive the thread boundary). */
export type SnapshotOutcome =
  | {
      ok: true;
      boards: Array<{ symbol: string; board: ChainSnapshot | null; counts: SnapshotCounts }>;
      contracts: SnapshotContracts;
      pages: number;
      retries: number;
      rate429: number;
    }
  | { ok: false; status: number | null; message: string; retries: number; rate429: number };

/**
 * Take one snapshot (every page) and build its boards.
 * @example const out = await takeSnapshot({ vendor: "SPY", boards: [header], rest: { baseUrl, apiKey } });
 */
export async function takeSnapshot(task: SnapshotTask, signal?: AbortSignal): Promise<SnapshotOutcome> {
  let retries = 0;
  let rate429 = 0;
  const rest: MassiveRestOptions = {
    ...task.rest,
    signal,
    onRetry: ({ status }) => {
      retries++;
      if (status === 429) rate429++;
    },
  };
  let results: unknown[];
  let pages: number;
  try {
    ({ results, pages } = await fetchChainSnapshot(task.vendor, rest));
  } catch (error) {
    const status = error instanceof MassiveHttpError ? error.status : null;
    return { ok: false, status, message: String((error as Error)?.message ?? error).slice(0, 300), retries, rate429 };
  }
  const boards = task.boards.map((header) => ({ symbol: header.symbol, ...boardFromSnapshot(results, header) }));
  const n = results.length;
  const contracts: SnapshotContracts = {
    sym: [],
    strike: new Float64Array(n),
    bid: new Float64Array(n),
    ask: new Float64Array(n),
    quoteMs: new Float64Array(n),
  };
  let k = 0;
  for (const raw of results as Array<{ details?: { ticker?: unknown; strike_price?: unknown }; last_quote?: { bid?: unknown; ask?: unknown; last_updated?: unknown } }>) {
    const sym = raw?.details?.ticker;
    const strike = raw?.details?.strike_price;
    if (typeof sym !== "string" || typeof strike !== "number") continue;
    const q = raw.last_quote;
    const quoted = q && typeof q.bid === "number" && typeof q.ask === "number" && typeof q.last_updated === "number";
    contracts.sym.push(sym);
    contracts.strike[k] = strike;
    contracts.bid[k] = quoted ? (q.bid as number) : Number.NaN;
    contracts.ask[k] = quoted ? (q.ask as number) : Number.NaN;
    // The vendor stamps quotes in nanoseconds.
    contracts.quoteMs[k] = quoted ? Math.floor((q.last_updated as number) / 1e6) : Number.NaN;
    k++;
  }
  contracts.strike = contracts.strike.slice(0, k);
  contracts.bid = contracts.bid.slice(0, k);
  contracts.ask = contracts.ask.slice(0, k);
  contracts.quoteMs = contracts.quoteMs.slice(0, k);
  return { ok: true, boards, contracts, pages, retries, rate429 };
}
