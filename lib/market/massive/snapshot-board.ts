/**
 * One Massive chain snapshot (every page of `GET /v3/snapshot/options/{underlyingAsset}`) as our
 * columnar board: the contracts of the asked roots, their quote, open interest, implied vol and
 * session volume. Pure: the poller (server/feeds/massive) fetches, this maps.
 * @see docs/data.md#massive-live-feed
 * @see docs/methodology.md#live-feed-boards
 */
import { parseOptionSymbol } from "../../symbols/parse-option-symbol";
import { settlementInstantMs } from "../../symbols/settlement";
import type { ChainSnapshot, IsoDate } from "../market-data";
import type { MassiveSnapshotContract } from "./wire";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const num = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** Settlement instant of (root, expiry), or -1 when the root or the date is not a valid one. */
function settlementOrInvalid(root: string, expiry: IsoDate): number {
  try {
    return settlementInstantMs(root, expiry);
  } catch {
    return -1;
  }
}

/** The contract of an option ticker as Massive writes it (`O:SPXW251219C06500000`), or null. */
export function contractOfTicker(ticker: string): { root: string; expiry: IsoDate; strike: number; right: "C" | "P" } | null {
  if (!ticker.startsWith("O:")) return null;
  try {
    const c = parseOptionSymbol(ticker.slice(2));
    return { root: c.root, expiry: c.expiry, strike: c.strike, right: c.right };
  } catch {
    return null;
  }
}

/** What the board was made of and what was left out (the feed status reports it). */
export interface SnapshotCounts {
  /** Results that failed the contract schema or whose ticker does not parse. */
  malformed: number;
  /** Contracts of other roots (SPX's snapshot lists both SPX and SPXW). */
  otherRoot: number;
  /** Contracts settled at or before the board's instant. */
  expired: number;
  /** Contracts without a usable implied volatility (the vendor leaves it out when it cannot solve it). */
  noIv: number;
  /** Contracts on the board. */
  kept: number;
}

/** The board's header: what the snapshot does not say (or says per contract). */
export interface BoardHeader {
  symbol: string;
  underlying: string;
  /** The roots whose contracts belong on this board (`optionRoots` of the symbol). */
  roots: readonly string[];
  /** The minute boundary the board describes. */
  asOfMs: number;
  sessionDate: IsoDate;
  rate: number;
  dividendYield: number;
  /** Underlying price when the snapshot carries none (`underlying_asset.price` wins). */
  spot?: number;
}

interface Row {
  expiry: IsoDate;
  root: string;
  strike: number;
  right: 0 | 1;
  oi: number;
  bid: number;
  ask: number;
  last: number;
  iv: number;
  volume: number;
}

/**
 * The board of `header.symbol` from the snapshot's `results` (every page concatenated), or null when
 * no contract of its roots is left or no underlying price is known.
 * - `bid`/`ask` from `last_quote` (0 when absent), `last` from `day.close` else `last_trade.price` else 0;
 * - `oi` from `open_interest` (the vendor's figure is the previous session's OCC count, which is
 *   what our boards mean by "as of the session's start"); `volume` from `day.volume`;
 * - `iv` from `implied_volatility`; a contract without one is left out (counted as `noIv`), never
 *   given a guessed vol.
 * @example const { board } = boardFromSnapshot(results, { symbol: "SPY", underlying: "SPY", roots: ["SPY"], asOfMs, sessionDate, rate: 0.045, dividendYield: 0.013 });
 */
export function boardFromSnapshot(results: readonly unknown[], header: BoardHeader): { board: ChainSnapshot | null; counts: SnapshotCounts } {
  const counts: SnapshotCounts = { malformed: 0, otherRoot: 0, expired: 0, noIv: 0, kept: 0 };
  const roots = new Set(header.roots);
  const rows: Row[] = [];
  // Per (root, expiration): its settlement instant, or -1 when the pair is not a valid one.
  const settle = new Map<string, number>();
  let spot: number | undefined;
  // Hand-read rather than schema-parsed: a 20,000-contract snapshot every minute per symbol is the
  // feed's hot path (bench/massive-board.bench.ts); the checks are the schema's (wire.ts).
  for (const raw of results) {
    const c = raw as MassiveSnapshotContract;
    const d = c?.details;
    const ticker = d?.ticker;
    const type = d?.contract_type;
    const strike = d?.strike_price;
    const expiry = d?.expiration_date;
    if (
      typeof ticker !== "string" ||
      ticker.length < 18 ||
      !ticker.startsWith("O:") ||
      (type !== "call" && type !== "put") ||
      !num(strike) ||
      !(strike > 0) ||
      typeof expiry !== "string" ||
      !ISO_DATE.test(expiry)
    ) {
      counts.malformed++;
      continue;
    }
    // The OCC root is what precedes YYMMDD, the right and the 8-digit strike (15 characters).
    const root = ticker.slice(2, ticker.length - 15);
    const px = c.underlying_asset?.price;
    if (spot === undefined && num(px) && px > 0) spot = px;
    if (!roots.has(root)) {
      counts.otherRoot++;
      continue;
    }
    const key = `${root}|${expiry}`;
    let settleMs = settle.get(key);
    if (settleMs === undefined) {
      settleMs = settlementOrInvalid(root, expiry);
      settle.set(key, settleMs);
    }
    if (settleMs < 0) {
      counts.malformed++;
      continue;
    }
    if (settleMs <= header.asOfMs) {
      counts.expired++;
      continue;
    }
    const iv = c.implied_volatility;
    if (!num(iv) || !(iv > 0)) {
      counts.noIv++;
      continue;
    }
    const q = c.last_quote;
    const bid = q && num(q.bid) && q.bid >= 0 ? q.bid : 0;
    const ask = q && num(q.ask) && q.ask >= 0 ? q.ask : 0;
    const close = c.day?.close;
    const lastTrade = c.last_trade?.price;
    const oi = c.open_interest;
    const volume = c.day?.volume;
    rows.push({
      expiry,
      root,
      strike,
      right: type === "call" ? 1 : 0,
      oi: num(oi) && oi >= 0 ? oi : 0,
      // A crossed quote is not a quote: both sides read 0 (no usable NBBO), as the file provider refuses it.
      bid: bid <= ask ? bid : 0,
      ask: bid <= ask ? ask : 0,
      last: num(close) ? close : num(lastTrade) ? lastTrade : 0,
      iv,
      volume: num(volume) && volume >= 0 ? volume : 0,
    });
  }
  spot ??= header.spot;
  if (rows.length === 0 || spot === undefined || !(spot > 0)) return { board: null, counts };
  // Rows sorted by expiration, then strike, then right (put before call), as every board is.
  rows.sort((a, b) => (a.expiry === b.expiry ? a.strike - b.strike || a.right - b.right : a.expiry < b.expiry ? -1 : 1));
  // One row per contract: a duplicate (a page boundary that moved) keeps its first occurrence.
  const unique: Row[] = [];
  for (const r of rows) {
    const prev = unique[unique.length - 1];
    if (prev && prev.expiry === r.expiry && prev.strike === r.strike && prev.right === r.right) continue;
    unique.push(r);
  }
  counts.kept = unique.length;
  const expirations: IsoDate[] = [];
  const expiryRoot: string[] = [];
  for (const r of unique) {
    if (expirations[expirations.length - 1] !== r.expiry) {
      expirations.push(r.expiry);
      expiryRoot.push(r.root);
    }
  }
  const strikes = Float64Array.from(new Set(unique.map((r) => r.strike))).sort();
  const strikePos = new Map<number, number>();
  for (let i = 0; i < strikes.length; i++) strikePos.set(strikes[i], i);
  const expPos = new Map(expirations.map((e, i) => [e, i]));
  const col = (f: (r: Row) => number) => Float64Array.from(unique, f);
  const board: ChainSnapshot = {
    symbol: header.symbol,
    underlying: header.underlying,
    asOfMs: header.asOfMs,
    sessionDate: header.sessionDate,
    spot,
    rate: header.rate,
    dividendYield: header.dividendYield,
    simulated: false,
    expirations,
    expirySettleMs: expirations.map((e, i) => settle.get(`${expiryRoot[i]}|${e}`) as number),
    expiryRoot,
    strikes,
    strikeIndex: Int32Array.from(unique, (r) => strikePos.get(r.strike) as number),
    expIndex: Int32Array.from(unique, (r) => expPos.get(r.expiry) as number),
    right: Uint8Array.from(unique, (r) => r.right),
    oi: col((r) => r.oi),
    bid: col((r) => r.bid),
    ask: col((r) => r.ask),
    last: col((r) => r.last),
    iv: col((r) => r.iv),
    volume: col((r) => r.volume),
  };
  return { board, counts };
}
