/**
 * The Massive (formerly Polygon.io) live feed: the chain snapshot of each configured symbol's
 * underlying polled once a minute, option trades and quotes from the `options` cluster, minute
 * aggregates of the underlyings from the `stocks` and `indices` clusters, all written into a
 * `LiveMarket`. Gaps the vendor lets us fill (minute bars, over REST) are filled after a
 * reconnect; the rest (trades, a missed board) are recorded as gaps, never interpolated.
 * @see docs/data.md#massive-live-feed
 */
import type { Clock, MarketData } from "../../../lib/market/market-data";
import { expectedBoardMs, DEFAULT_STALE_AFTER_MS } from "../../../lib/market/freshness";
import { contractOfTicker } from "../../../lib/market/massive/snapshot-board";
import { printFromTrade, type QuoteAtPrint } from "../../../lib/market/massive/trade-print";
import type { MassiveEvent } from "../../../lib/market/massive/wire";
import { DEFAULT_FILE_RATE } from "../../../lib/market/files/file-market-builder";
import type { SymbolInfo } from "../../../lib/market/schemas";
import { symbolSpecs, toSymbolInfo } from "../../../lib/market/universe";
import { sessionDateAt } from "../../../lib/time";
import { createLiveMarket, type LiveMarket } from "../live-market";
import { FeedError, type FeedGap, type FeedPartStatus, type FeedState, type FeedStatus, type MarketFeed } from "../market-feed";
import { openClusterSocket, type ClusterSocket } from "./cluster-socket";
import { spawnSiblingWorker } from "../../spawn-sibling-worker";
import { createWorkerPool, WorkerPoolUnavailable } from "../../workers/worker-pool";
import { fetchMinuteAggs, MassiveHttpError, type MassiveRestOptions } from "./rest";
import { takeSnapshot, type SnapshotContracts, type SnapshotOutcome, type SnapshotTask } from "./snapshot-task";

/** Options of `createMassiveFeed`. */
export interface MassiveFeedOptions {
  /** The key (from `MASSIVE_API_KEY`); never logged. */
  apiKey: string;
  /** Our symbols to follow (`SPY`, `SPXW`): each must be in the universe. */
  symbols: readonly string[];
  /** Default `https://api.massive.com`. */
  restBaseUrl?: string;
  /** Default `wss://socket.massive.com`. */
  wsBaseUrl?: string;
  /** The market clock (board instants). */
  clock: Clock;
  /** Wall clock, ms (lag, last message); default `Date.now`. */
  wallNowMs?: () => number;
  /** Instants before the feed started (the recorded store). */
  history?: MarketData;
  /** Snapshot period, ms; default 60000. */
  pollIntervalMs?: number;
  /** A board this far behind the newest expected one makes the feed `down` when its polls fail; default 20 min. */
  staleAfterMs?: number;
  /**
   * Underlyings paged at once (each one's pages are sequential: the cursor): default 4, which keeps
   * the request rate far below the vendor's 100 requests per second guidance.
   */
  maxConcurrentPolls?: number;
  /** Quote subscriptions (`Q.`) per connection: the vendor allows 1,000. */
  maxQuoteContracts?: number;
  /** A snapshot quote older than this is not used as the NBBO of a print, ms; default 60000. */
  snapshotQuoteMaxAgeMs?: number;
  /** REST retry tuning (tests shorten it). */
  rest?: Pick<MassiveRestOptions, "backoffMs" | "maxAttempts" | "timeoutMs" | "pageLimit" | "fetch">;
  /** Take snapshots in a worker thread (default true); false: on this thread. */
  snapshotWorker?: boolean;
  /** Socket reconnect backoff, ms; default 1000. */
  socketBackoffMs?: number;
  log?: (line: Record<string, unknown>) => void;
}

const MAX_GAPS = 50;
/** Polls start this long after the minute boundary (the vendor's snapshot then includes the boundary's quotes). */
const POLL_OFFSET_MS = 1000;

/** The vendor's ticker of an underlying: `I:SPX` for an index, the ticker itself otherwise. */
function vendorTicker(info: SymbolInfo): string {
  return info.type === "index" ? `I:${info.underlying}` : info.underlying;
}

/** Our symbol records for `symbols`, or a `FeedError` naming the unknown ones and the allowed values. */
function feedUniverse(symbols: readonly string[]): SymbolInfo[] {
  const all = new Map(symbolSpecs().map((s) => [s.ticker, s]));
  const unknown = symbols.filter((s) => !all.has(s));
  if (unknown.length > 0) {
    throw new FeedError(
      "unknown_underlying",
      `Unknown underlying ${unknown.join(", ")}: expected symbols of the universe (${[...all.keys()].slice(0, 12).join(", ")}, ...; \`GET /v1/symbols\` lists them all)`,
    );
  }
  return symbols.map((s) => ({ ...toSymbolInfo(all.get(s)!), simulated: false }));
}

/** The Massive feed: a `MarketFeed` that can also be told to poll at once (tests, an operator's nudge). */
export interface MassiveFeed extends MarketFeed {
  /** Take every underlying's snapshot now (resolves when done; failures are recorded as usual). */
  pollNow(): Promise<void>;
}

/**
 * A Massive feed over `options.symbols`; call `start()`.
 * @example const feed = createMassiveFeed({ apiKey: process.env.MASSIVE_API_KEY!, symbols: ["SPY"], clock: systemClock }); await feed.start();
 */
export function createMassiveFeed(options: MassiveFeedOptions): MassiveFeed {
  const log = options.log ?? (() => {});
  const wallNow = options.wallNowMs ?? (() => Date.now());
  const universe = feedUniverse(options.symbols);
  const restBase = options.restBaseUrl ?? "https://api.massive.com";
  const wsBase = options.wsBaseUrl ?? "wss://socket.massive.com";
  const pollMs = options.pollIntervalMs ?? 60_000;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const maxQuotes = options.maxQuoteContracts ?? 1000;
  const quoteMaxAgeMs = options.snapshotQuoteMaxAgeMs ?? 60_000;
  const counters: Record<string, number> = {
    polls: 0,
    pages: 0,
    rest429: 0,
    restRetries: 0,
    pollFailures: 0,
    messages: 0,
    malformed: 0,
    prints: 0,
    printsWithoutNbbo: 0,
    unknownExchange: 0,
    quotes: 0,
    bars: 0,
    barsBackfilled: 0,
    snapshotNoIv: 0,
    snapshotMalformed: 0,
    snapshotsInWorker: 0,
  };
  const gaps: FeedGap[] = [];
  const addGap = (gap: FeedGap) => {
    const prev = gaps.findLast((g) => g.kind === gap.kind && g.source === gap.source);
    // Consecutive missed minutes of one source are one gap.
    if (prev && prev.toMs >= gap.fromMs) prev.toMs = Math.max(prev.toMs, gap.toMs);
    else gaps.push(gap);
    if (gaps.length > MAX_GAPS) gaps.splice(0, gaps.length - MAX_GAPS);
    log({ ts: new Date().toISOString(), level: "warn", msg: "feed_gap", feed: "massive", ...gap });
  };

  // Symbols grouped by the vendor underlying whose one snapshot serves them all (SPX serves SPX and SPXW).
  const byVendor = new Map<string, SymbolInfo[]>();
  for (const info of universe) {
    const v = vendorTicker(info);
    byVendor.set(v, [...(byVendor.get(v) ?? []), info]);
  }
  const underlyingOfRoot = new Map<string, string>();
  for (const info of universe) for (const r of info.optionRoots) underlyingOfRoot.set(r, info.underlying);
  const lastPx = new Map<string, number>();
  const quotes = new Map<string, QuoteAtPrint & { tMs: number }>();
  const tradeSubs = new Set<string>();
  const quoteSubs = new Set<string>();
  let restState: FeedState = "connecting";
  let restLastMs: number | null = null;
  let restError: string | null = null;
  let restFailuresInARow = 0;
  let started = false;
  let stopped = false;
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  const inFlight = new Set<string>();
  // A small semaphore: at most `maxConcurrentPolls` snapshots paging at once, the rest queued in order.
  const lanes = { free: options.maxConcurrentPolls ?? 4, queue: [] as Array<() => void> };
  const takeLane = (): Promise<void> => {
    if (lanes.free > 0) {
      lanes.free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => lanes.queue.push(resolve));
  };
  const releaseLane = () => {
    const next = lanes.queue.shift();
    if (next) next();
    else lanes.free++;
  };
  const stop = new AbortController();
  let down = false;

  const market: LiveMarket = createLiveMarket({ universe, clock: options.clock, history: options.history });
  // While the feed is down and a board is past the limit, a live read is 503 data_unavailable (the
  // market guard's answer, refunded) instead of an old board passed off as live.
  const liveChain = market.chain.bind(market);
  (market as { chain: LiveMarket["chain"] }).chain = async (symbol, atMs, opts) => {
    const board = await liveChain(symbol, atMs, opts);
    const now = options.clock.now();
    if (down && atMs >= now - 60_000 && (!board || expectedBoardMs(now) - board.asOfMs > staleAfterMs)) {
      throw new Error(`the Massive feed is down and ${symbol}'s newest board is older than the limit`);
    }
    return board;
  };

  const restTask: SnapshotTask["rest"] = {
    baseUrl: restBase,
    apiKey: options.apiKey,
    pageLimit: options.rest?.pageLimit,
    maxAttempts: options.rest?.maxAttempts,
    backoffMs: options.rest?.backoffMs,
    timeoutMs: options.rest?.timeoutMs,
  };
  // Snapshots are taken in a worker thread (paging, an 8 MiB parse, the board build: the feed's heavy
  // work); when it cannot start, here, with the same result.
  const pool =
    options.snapshotWorker === false
      ? null
      : createWorkerPool<SnapshotTask, SnapshotOutcome>({
          name: "massive-snapshots",
          size: 1,
          pipelineDepth: 8,
          spawn: () => spawnSiblingWorker(import.meta.url, { source: "./snapshot-worker.ts", built: "./massive-snapshot-worker.js" }, null),
        });
  const runSnapshot = (task: SnapshotTask): Promise<SnapshotOutcome> =>
    pool
      ? pool.run(task).then(
          (out) => {
            counters.snapshotsInWorker++;
            return out;
          },
          (error: unknown) => {
            if (error instanceof WorkerPoolUnavailable) return takeSnapshot(task, stop.signal);
            throw error;
          },
        )
      : takeSnapshot(task, stop.signal);
  const rest: MassiveRestOptions = {
    baseUrl: restBase,
    apiKey: options.apiKey,
    ...options.rest,
    signal: stop.signal,
    onRetry: ({ status, attempt, waitMs }) => {
      counters.restRetries++;
      if (status === 429) counters.rest429++;
      log({ ts: new Date().toISOString(), level: "warn", msg: "feed_rest_retry", feed: "massive", status, attempt, waitMs: Math.round(waitMs) });
    },
  };

  const sockets: { opt: ClusterSocket | null; stocks: ClusterSocket | null; indices: ClusterSocket | null } = { opt: null, stocks: null, indices: null };
  const lastBoardMs = new Map<string, number>();

  const fatal = (error: MassiveHttpError, vendor: string): FeedError | null => {
    if (error.status === 401) return new FeedError("bad_key", "Massive refused the key (HTTP 401): check MASSIVE_API_KEY.");
    if (error.status === 403)
      return new FeedError("not_entitled", `Massive refused the option chain snapshot of ${vendor} (HTTP 403): the key's plan does not include it.`);
    if (error.status === 404) return new FeedError("unknown_underlying", `Massive has no option chain for ${vendor} (HTTP 404).`);
    return null;
  };

  /** One snapshot of `vendor`: boards for its symbols at the current board instant. */
  async function poll(vendor: string): Promise<void> {
    if (inFlight.has(vendor) || stopped) return; // a slow answer: the next minute does not pile on
    inFlight.add(vendor);
    const asOfMs = expectedBoardMs(options.clock.now());
    const symbols = byVendor.get(vendor)!;
    await takeLane();
    try {
      counters.polls++;
      const task: SnapshotTask = {
        vendor,
        rest: restTask,
        boards: symbols.map((info) => ({
          symbol: info.ticker,
          underlying: info.underlying,
          roots: info.optionRoots,
          asOfMs,
          sessionDate: sessionDateAt(asOfMs),
          rate: DEFAULT_FILE_RATE,
          dividendYield: info.dividendYield,
          spot: lastPx.get(info.underlying),
        })),
      };
      const out = await runSnapshot(task);
      counters.restRetries += out.retries;
      counters.rest429 += out.rate429;
      if (out.retries > 0)
        log({ ts: new Date().toISOString(), level: "warn", msg: "feed_rest_retry", feed: "massive", underlying: vendor, retries: out.retries, rate429: out.rate429 });
      if (!out.ok) throw new MassiveHttpError(out.status, out.message);
      counters.pages += out.pages;
      restLastMs = wallNow();
      restFailuresInARow = 0;
      restError = null;
      restState = "live";
      down = false;
      for (const { symbol, board, counts } of out.boards) {
        const info = symbols.find((s) => s.ticker === symbol)!;
        counters.snapshotNoIv += counts.noIv;
        counters.snapshotMalformed += counts.malformed;
        if (!board) {
          if (!started)
            throw new FeedError(
              "unknown_underlying",
              `Massive's snapshot of ${vendor} lists no contract of ${info.optionRoots.join(", ")} (unknown underlying, or no plan access to it).`,
            );
          addGap({ kind: "boards", source: info.ticker, fromMs: asOfMs, toMs: asOfMs + 60_000, reason: "snapshot without contracts" });
          continue;
        }
        market.putBoard(board);
        lastBoardMs.set(info.ticker, board.asOfMs);
        lastPx.set(info.underlying, board.spot);
      }
      noteSnapshotQuotes(out.contracts);
      subscribeContracts(out.contracts);
    } catch (error) {
      if (error instanceof FeedError) throw error;
      const e = error instanceof MassiveHttpError ? error : new MassiveHttpError(null, String((error as Error)?.message ?? error));
      const f = fatal(e, vendor);
      if (f && !started) throw f;
      if (stopped) return;
      counters.pollFailures++;
      restFailuresInARow++;
      restError = e.message.slice(0, 300);
      restState = f ? "down" : restFailuresInARow >= 3 ? "down" : "degraded";
      down = restState === "down";
      for (const info of symbols)
        addGap({ kind: "boards", source: info.ticker, fromMs: asOfMs, toMs: asOfMs + 60_000, reason: `snapshot failed: ${e.status ?? "network"}` });
      log({ ts: new Date().toISOString(), level: "error", msg: "feed_poll_failed", feed: "massive", underlying: vendor, status: e.status, error: restError });
      if (!started) throw new FeedError(e.status === 429 ? "quota_exceeded" : "unreachable", `Massive's snapshot of ${vendor} failed: ${restError}`);
    } finally {
      releaseLane();
      inFlight.delete(vendor);
    }
  }

  function noteSnapshotQuotes(c: SnapshotContracts) {
    for (let i = 0; i < c.sym.length; i++) {
      const tMs = c.quoteMs[i];
      if (Number.isNaN(tMs)) continue;
      const known = quotes.get(c.sym[i]);
      if (!known || known.tMs < tMs) quotes.set(c.sym[i], { bid: c.bid[i], ask: c.ask[i], tMs });
    }
  }

  /** Trades of every listed contract; quotes for the `maxQuotes` contracts nearest the money. */
  function subscribeContracts(c: SnapshotContracts) {
    const opt = sockets.opt;
    if (!opt) return;
    const fresh: string[] = [];
    const candidates: Array<{ sym: string; dist: number }> = [];
    for (let i = 0; i < c.sym.length; i++) {
      const sym = c.sym[i];
      const strike = c.strike[i];
      if (sym.length < 18 || !(strike > 0)) continue;
      // The OCC root precedes the 15-character tail (YYMMDD, right, strike): no full parse per contract.
      const underlying = underlyingOfRoot.get(sym.slice(2, sym.length - 15));
      if (!underlying) continue;
      if (!tradeSubs.has(sym)) {
        tradeSubs.add(sym);
        fresh.push(`T.${sym}`);
      }
      if (quoteSubs.size < maxQuotes) {
        const px = lastPx.get(underlying) ?? strike;
        candidates.push({ sym, dist: Math.abs(strike / px - 1) });
      }
    }
    if (quoteSubs.size < maxQuotes) {
      candidates.sort((a, b) => a.dist - b.dist);
      for (const { sym } of candidates) {
        if (quoteSubs.size >= maxQuotes) break;
        if (quoteSubs.has(sym)) continue;
        quoteSubs.add(sym);
        fresh.push(`Q.${sym}`);
      }
    }
    if (fresh.length > 0) opt.subscribe(fresh);
  }

  let tradeSeq = 0;
  function onOptionEvents(events: MassiveEvent[]) {
    counters.messages += events.length;
    for (const e of events) {
      if (e.ev === "Q") {
        counters.quotes++;
        const known = quotes.get(e.sym);
        if (!known || known.tMs <= e.t) quotes.set(e.sym, { bid: e.bp, ask: e.ap, tMs: e.t });
      } else if (e.ev === "T") {
        const c = contractOfTicker(e.sym);
        const underlying = c ? underlyingOfRoot.get(c.root) : undefined;
        if (!c || !underlying) continue;
        const q = quotes.get(e.sym);
        // A `Q` quote at or before the print is the NBBO at the print; a snapshot quote only while recent.
        const usable = q && q.tMs <= e.t + 1 && e.t - q.tMs <= quoteMaxAgeMs ? q : null;
        const px = lastPx.get(underlying);
        if (px === undefined) continue; // no underlying price yet: the first snapshot has not landed
        const r = printFromTrade(e, usable, px, underlying, tradeSeq++);
        if (!r.ok) {
          counters.malformed++;
          continue;
        }
        if (r.unknownExchange) counters.unknownExchange++;
        if (r.print.nbboAsk === 0) counters.printsWithoutNbbo++;
        counters.prints++;
        market.putPrint(r.print);
      }
    }
  }

  const tickerOfVendor = new Map<string, string>();
  for (const info of universe) tickerOfVendor.set(vendorTicker(info), info.underlying);
  function onAggEvents(events: MassiveEvent[]) {
    counters.messages += events.length;
    for (const e of events) {
      if (e.ev !== "AM") continue;
      const ticker = tickerOfVendor.get(e.sym);
      if (!ticker) continue;
      counters.bars++;
      market.putBar(ticker, { t: e.s, o: e.o, h: e.h, l: e.l, c: e.c, v: e.v });
      lastPx.set(ticker, e.c);
    }
  }

  const onMalformed = (count: number, sample: string) => {
    counters.malformed += count;
    // The first and then every 100th: a vendor sending garbage must not flood the log.
    if (counters.malformed === count || counters.malformed % 100 < count)
      log({ ts: new Date().toISOString(), level: "warn", msg: "feed_malformed_message", feed: "massive", count, total: counters.malformed, sample });
  };

  /** A reconnected aggregates stream: the bars it missed, over REST (the vendor keeps them). */
  function backfillBars(cluster: "stocks" | "indices", fromMs: number, toMs: number) {
    const tickers = [...tickerOfVendor.keys()].filter((v) => (cluster === "indices") === v.startsWith("I:"));
    for (const vendor of tickers) {
      const ticker = tickerOfVendor.get(vendor)!;
      fetchMinuteAggs(vendor, Math.floor(fromMs / 60_000) * 60_000 - 60_000, toMs, rest).then(
        (rows) => {
          for (const r of rows) market.putBar(ticker, r);
          counters.barsBackfilled += rows.length;
          log({ ts: new Date().toISOString(), level: "info", msg: "feed_bars_backfilled", feed: "massive", ticker, bars: rows.length, fromMs, toMs });
        },
        (error: unknown) => addGap({ kind: "bars", source: ticker, fromMs, toMs, reason: `backfill failed: ${(error as Error).message}`.slice(0, 300) }),
      );
    }
  }

  function socket(name: "options" | "stocks" | "indices", onEvents: (e: MassiveEvent[]) => void): ClusterSocket {
    return openClusterSocket({
      url: `${wsBase}/${name}`,
      name,
      apiKey: options.apiKey,
      now: wallNow,
      dataNow: () => options.clock.now(),
      onEvents,
      onMalformed,
      log,
      backoffMs: options.socketBackoffMs,
      onResumed: (fromMs, toMs) => {
        // Trades and quotes sent while we were away are not replayed by the stream: a gap on record.
        if (name === "options") addGap({ kind: "trades", source: "options", fromMs, toMs, reason: "stream reconnected" });
        else backfillBars(name, fromMs, toMs);
      },
    });
  }

  const hasStocks = [...byVendor.keys()].some((v) => !v.startsWith("I:"));
  const hasIndices = [...byVendor.keys()].some((v) => v.startsWith("I:"));

  const partStatuses = (): FeedPartStatus[] => [
    { name: "snapshots", state: restState, lastMessageMs: restLastMs, lastError: restError, reconnects: 0 },
    ...[sockets.opt, sockets.stocks, sockets.indices].filter((s): s is ClusterSocket => s !== null).map((s) => s.status()),
  ];

  return {
    name: "massive",
    market,
    async start() {
      sockets.opt = socket("options", onOptionEvents);
      if (hasStocks) {
        sockets.stocks = socket("stocks", onAggEvents);
        sockets.stocks.subscribe([...tickerOfVendor.keys()].filter((v) => !v.startsWith("I:")).map((v) => `AM.${v}`));
      }
      if (hasIndices) {
        sockets.indices = socket("indices", onAggEvents);
        sockets.indices.subscribe([...tickerOfVendor.keys()].filter((v) => v.startsWith("I:")).map((v) => `AM.${v}`));
      }
      try {
        // The key is checked on the socket and by the first snapshot of every underlying.
        const authed = await sockets.opt.authenticated(15_000);
        if (!authed && sockets.opt.status().lastError?.startsWith("auth_failed"))
          throw new FeedError("bad_key", "Massive refused the key on the options stream (auth_failed): check MASSIVE_API_KEY.");
        await Promise.all([...byVendor.keys()].map((v) => poll(v)));
      } catch (error) {
        await this.stop();
        throw error;
      }
      started = true;
      // Polls start just after each wall-clock period boundary (the minute), so a board stamped with
      // minute m describes the chain a moment after m, not up to a minute later; re-aligned every time.
      const schedule = () => {
        if (stopped) return;
        pollTimer = setTimeout(
          () => {
            for (const v of byVendor.keys()) void poll(v).catch(() => {});
            schedule();
          },
          pollMs - (wallNow() % pollMs) + POLL_OFFSET_MS,
        );
        pollTimer.unref?.();
      };
      schedule();
      log({ ts: new Date().toISOString(), level: "info", msg: "feed_started", feed: "massive", symbols: universe.map((s) => s.ticker), pollMs });
    },
    async pollNow() {
      await Promise.all([...byVendor.keys()].map((v) => poll(v).catch(() => {})));
    },
    status(): FeedStatus {
      const now = wallNow();
      const parts = partStatuses();
      const boards: Record<string, number | null> = {};
      let oldest: number | null = null;
      for (const info of universe) {
        const newest = lastBoardMs.get(info.ticker) ?? null;
        boards[info.ticker] = newest;
        if (newest !== null) oldest = oldest === null ? newest : Math.min(oldest, newest);
      }
      const lastMessageMs = parts.reduce<number | null>((m, p) => (p.lastMessageMs !== null && (m === null || p.lastMessageMs > m) ? p.lastMessageMs : m), null);
      const state: FeedState = !started ? "connecting" : down ? "down" : parts.every((p) => p.state === "live") ? "live" : "degraded";
      return {
        feed: "massive",
        state,
        atMs: now,
        boards,
        lagS: oldest === null ? null : Math.max(0, Math.round((expectedBoardMs(options.clock.now()) - oldest) / 1000)),
        lastMessageMs,
        parts,
        counters: { ...counters },
        gaps: gaps.map((g) => ({ ...g })),
      };
    },
    async stop() {
      stopped = true;
      stop.abort();
      if (pollTimer) clearTimeout(pollTimer);
      sockets.opt?.close();
      sockets.stocks?.close();
      sockets.indices?.close();
      await pool?.close();
    },
  };
}
