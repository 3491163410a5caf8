// Issue 4, "Done when": the positioning functions run on simulated SPXW, SPY, QQQ, AAPL and NVDA
// chains at any minute since 2023-03-28 and the numbers look like a real market's.
//
// A deterministic sample of minutes from the first simulated minute (2023-03-28 09:30 ET) to a
// pinned "now" (2026-11-20), plus the days that break naive code: an early close, both DST
// changes, an SPX AM-settled monthly expiry, and AAPL/NVDA earnings. Every assertion is a market
// property or a bound derived from Black-Scholes-Merton and the chain's own inputs, never an
// output copied from a run.
//
// Dollar bound on exposure (docs/methodology.md#exposure). A contract's gamma exposure is
// Gamma * OI * 100 * S^2 * 0.01 with Gamma = e^{-qT} phi(d1) / (S sigma sqrt T), so
//   |contract exposure| = OI * 100 * S * 0.01 * e^{-qT} * phi(d1) / (sigma sqrt T).
// With phi(d1) <= phi(0), the gross exposure (every contract counted positive, i.e. the sign
// model calls +1, puts +1) is at most U = sum OI * S * e^{-qT} phi(0) / (sigma sqrt T); and since
// phi(d1) >= phi(1) whenever |d1| <= 1, it is at least L = the same sum over |d1| <= 1 with
// phi(1). |net exposure| <= gross. So L <= gross <= U and |net| <= U: a plausible dollar range
// set only by spot, open interest, IV and time to settlement, which a unit slip (S vs S^2, the
// x100 multiplier, the 1% scaling) or a wrong T would leave.
import { describe, expect, it } from "vitest";
import { loadKernelsSync } from "../../lib/kernels";
import type { ChainSnapshot } from "../../lib/market";
import { bsmPrice, impliedVol, normPdf } from "../../lib/math";
import { exposureGrid, keyLevels, type ExposureGrid } from "../../lib/positioning";
import { etInstant, isEarlyClose, nextTradingDay, previousTradingDay, sessionBounds, sessionMinuteCount, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const NOW_MS = Date.parse("2026-11-20T21:30:00Z"); // Friday 2026-11-20, 16:30 EST: the pinned clock
const FIRST_DAY = "2023-03-28";
const LAST_DAY = "2026-11-20";
const market = simulatedMarketAt(42, NOW_MS);
const engine = loadKernelsSync();
const SYMBOLS = ["SPXW", "SPY", "QQQ", "AAPL", "NVDA"] as const;
const INDEX_ETF = new Set<string>(["SPXW", "SPY", "QQQ"]);
const YEAR_MS = 365 * 86_400_000;
const MINUTE_MS = 60_000;

/** Why a minute is in the sample. */
interface Sample {
  date: string;
  atMs: number;
  why: string;
}

const at = (date: string, hm: string, why: string): Sample => ({ date, atMs: etInstant(date, hm), why });

/**
 * Spread minutes: `n` trading days evenly spaced over the whole range, each at a minute of its
 * session drawn from a fixed linear congruential sequence (deterministic, no tuning).
 */
function spreadSamples(n: number): Sample[] {
  const days = tradingDaysBetween(FIRST_DAY, LAST_DAY);
  let u = 20230328;
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const date = days[Math.round((i * (days.length - 1)) / (n - 1))];
    u = (Math.imul(u, 1664525) + 1013904223) >>> 0;
    const minute = Math.floor((u / 2 ** 32) * sessionMinuteCount(date));
    out.push({ date, atMs: sessionBounds(date).openMs + minute * MINUTE_MS, why: "spread" });
  }
  return out;
}

const SAMPLES: Sample[] = [
  at(FIRST_DAY, "09:30", "first simulated minute"),
  ...spreadSamples(14),
  at("2023-11-24", "12:59", "early close (13:00), last minute"),
  at("2024-12-24", "10:00", "early close"),
  at("2023-11-06", "09:30", "first EST session after DST ends"),
  at("2024-03-11", "09:30", "first EDT session after DST starts"),
  at("2025-03-10", "15:59", "first EDT session after DST starts, last minute"),
  at("2024-06-20", "15:59", "day before an SPX AM monthly/quarterly expiry"),
  at("2024-06-21", "09:30", "SPX AM monthly expiry: settles at this instant"),
  at("2025-01-17", "09:31", "SPX AM monthly expiry"),
  at(LAST_DAY, "15:59", "last minute before the pinned now"),
];

/** Earnings sessions of the stocks: the last minute before the report and the first after it. */
function earningsSamples(ticker: string, from: string, to: string) {
  return market.earningsSync(ticker, from, to).map((ev) => {
    const reaction = ev.timing === "amc" ? nextTradingDay(ev.date) : ev.date;
    return {
      ev,
      pre: at(previousTradingDay(reaction), "15:59", `${ticker} ${ev.fiscalQuarter} before`),
      post: at(reaction, "09:31", `${ticker} ${ev.fiscalQuarter} after`),
    };
  });
}

const EARNINGS = Object.fromEntries(["AAPL", "NVDA"].map((t) => [t, earningsSamples(t, "2023-04-01", "2026-10-31")]));

function tYears(c: ChainSnapshot, e: number): number {
  return Math.max(c.expirySettleMs[e] - c.asOfMs, MINUTE_MS) / YEAR_MS;
}

/** Rows of the chain whose expiration is in `exps` and strike in [lo, hi]. */
function rowsOf(c: ChainSnapshot, exps: readonly string[], lo: number, hi: number): number[] {
  // Which expiration indices are wanted, looked up once rather than by name for every row.
  const want = c.expirations.map((x) => exps.includes(x));
  const rows: number[] = [];
  for (let i = 0; i < c.right.length; i++) {
    const k = c.strikes[c.strikeIndex[i]];
    if (want[c.expIndex[i]] && k >= lo && k <= hi) rows.push(i);
  }
  return rows;
}

/** The BSM bounds L and U of the file header over the given rows (contracts with OI and IV). */
function grossBounds(c: ChainSnapshot, rows: number[]): { lower: number; upper: number } {
  let lower = 0;
  let upper = 0;
  for (const i of rows) {
    if (!(c.oi[i] > 0) || !(c.iv[i] > 0)) continue;
    const t = tYears(c, c.expIndex[i]);
    const sd = c.iv[i] * Math.sqrt(t);
    const k = c.strikes[c.strikeIndex[i]];
    const scale = (c.oi[i] * 100 * c.spot * 0.01 * Math.exp(-c.dividendYield * t)) / sd;
    upper += scale * normPdf(0);
    const d1 = (Math.log(c.spot / k) + (c.rate - c.dividendYield) * t) / sd + sd / 2;
    if (Math.abs(d1) <= 1) lower += scale * normPdf(1);
  }
  return { lower, upper };
}

/** IV solved from the bid/ask mid of row i. */
function midIv(c: ChainSnapshot, i: number): number {
  const r = impliedVol({
    price: (c.bid[i] + c.ask[i]) / 2,
    spot: c.spot,
    strike: c.strikes[c.strikeIndex[i]],
    tYears: tYears(c, c.expIndex[i]),
    rate: c.rate,
    dividendYield: c.dividendYield,
    right: c.right[i] === 1 ? "C" : "P",
  });
  return r.ok ? r.vol : Number.NaN;
}

const smileCache = new WeakMap<ChainSnapshot, Map<number, { k: number; i: number }[]>>();
const rowsByExpCache = new WeakMap<ChainSnapshot, number[][]>();

/** Out-of-the-money rows of expiration e as (forward log-moneyness, row), ascending in k. */
function otmSmile(c: ChainSnapshot, e: number): { k: number; i: number }[] {
  // Memoised per (chain, expiration): the skew and IV-crush checks ask for every expiration, some
  // twice, and a scan of the whole chain per expiration costs more than the checks themselves.
  let smiles = smileCache.get(c);
  if (!smiles) {
    smiles = new Map();
    smileCache.set(c, smiles);
  }
  const hit = smiles.get(e);
  if (hit) return hit;
  const t = tYears(c, e);
  const fwd = c.spot * Math.exp((c.rate - c.dividendYield) * t);
  const out: { k: number; i: number }[] = [];
  for (const i of rowsByExpiration(c)[e] ?? []) {
    const k = Math.log(c.strikes[c.strikeIndex[i]] / fwd);
    if ((k < 0 && c.right[i] === 0) || (k > 0 && c.right[i] === 1)) out.push({ k, i });
  }
  out.sort((a, b) => a.k - b.k);
  smiles.set(e, out);
  return out;
}

/** Row numbers of each expiration of the chain, ascending (one pass per chain, memoised). */
function rowsByExpiration(c: ChainSnapshot): number[][] {
  let rows = rowsByExpCache.get(c);
  if (!rows) {
    rows = c.expirations.map(() => []);
    for (let i = 0; i < c.right.length; i++) rows[c.expIndex[i]].push(i);
    rowsByExpCache.set(c, rows);
  }
  return rows;
}

/** Linear interpolation of the mid-solved IV at log-moneyness x among `pts`; NaN when x is not bracketed. */
function ivAt(c: ChainSnapshot, pts: { k: number; i: number }[], x: number): number {
  for (let j = 1; j < pts.length; j++) {
    const a = pts[j - 1];
    const b = pts[j];
    if (a.k <= x && x <= b.k) {
      const va = midIv(c, a.i);
      const vb = midIv(c, b.i);
      return b.k === a.k ? va : va + ((vb - va) * (x - a.k)) / (b.k - a.k);
    }
  }
  return Number.NaN;
}

/** ATM IV of expiration e: the chain's IV interpolated at forward log-moneyness 0; NaN unless strikes bracket the forward. */
function atmIv(c: ChainSnapshot, e: number): number {
  const pts = otmSmile(c, e);
  const below = pts.filter((p) => p.k < 0).at(-1);
  const above = pts.find((p) => p.k > 0);
  if (!below || !above) return Number.NaN;
  return c.iv[below.i] + ((c.iv[above.i] - c.iv[below.i]) * -below.k) / (above.k - below.k);
}

function chainAt(symbol: string, s: Sample): ChainSnapshot {
  const c = market.chainSync(symbol, s.atMs);
  expect(c, `${symbol} ${s.why}`).not.toBeNull();
  return c!;
}

/** The market-sanity properties every (symbol, minute) must have. */
function checkBoard(symbol: string, s: Sample): { grid: ExposureGrid; c: ChainSnapshot } {
  const label = `${symbol} ${new Date(s.atMs).toISOString()} (${s.why})`;
  const c = chainAt(symbol, s);
  expect(c.simulated, label).toBe(true);
  expect(c.asOfMs, label).toBe(s.atMs);
  expect(c.sessionDate, label).toBe(s.date);
  expect(c.spot > 0 && Number.isFinite(c.spot), label).toBe(true);
  // Every listed expiration is still alive at the board's instant.
  expect(
    c.expirations.filter((_, e) => !(c.expirySettleMs[e] > c.asOfMs)),
    label,
  ).toEqual([]);

  // Exposure grid: a non-empty window around spot that contains it, all values finite.
  const grid = exposureGrid(c, {}, engine);
  const n = grid.strikes.length;
  expect(n, label).toBeGreaterThan(4);
  expect(grid.strikes[0], label).toBeLessThanOrEqual(c.spot);
  expect(grid.strikes[n - 1], label).toBeGreaterThanOrEqual(c.spot);
  expect(grid.expirations.length, label).toBe(5);
  expect(grid.expirations[0] >= s.date, label).toBe(true);
  expect([...grid.matrix, ...grid.net, grid.total].every(Number.isFinite), label).toBe(true);
  expect(grid.meta.engine).toBe("wasm");
  expect(grid.meta.contracts.ivMissing, label).toBe(0);

  // Dollar range from spot, OI, IV and T (file header): L <= gross <= U and |net| <= U.
  const all = { includeEmpty: true } as const;
  const gross = exposureGrid(c, { ...all, signModel: { calls: 1, puts: 1 } }, engine).total;
  const calls = exposureGrid(c, { ...all, signModel: { calls: 1, puts: 0 } }, engine).total;
  const puts = exposureGrid(c, { ...all, signModel: { calls: 0, puts: 1 } }, engine).total;
  const net = exposureGrid(c, all, engine).total;
  const { lower, upper } = grossBounds(c, rowsOf(c, grid.expirations, grid.strikes[0], grid.strikes[n - 1]));
  expect(lower, label).toBeGreaterThan(0);
  expect(gross, label).toBeGreaterThanOrEqual(lower * (1 - 1e-9));
  expect(gross, label).toBeLessThanOrEqual(upper * (1 + 1e-9));
  expect(Math.abs(net), label).toBeLessThanOrEqual(gross * (1 + 1e-12));
  // The default sign model is calls +1, puts -1: net = calls - puts.
  expect(Math.abs(net - (calls - puts)), label).toBeLessThanOrEqual(1e-9 * gross);
  // Dropping empty interior strikes moves the net by under $50 per dropped cell.
  expect(Math.abs(grid.total - net), label).toBeLessThanOrEqual(50 * grid.expirations.length * (grid.meta.window.strikesInWindow - n) + 1e-6 * gross);

  // Key levels: a king (the largest |net|), zero gamma null or within +-10% of spot.
  const lv = keyLevels(c, {}, engine);
  expect(lv.kingNode, label).not.toBeNull();
  const maxAbs = Math.max(...Array.from(grid.net, Math.abs));
  expect(Math.abs(lv.kingNode!.value), label).toBe(maxAbs);
  expect(
    lv.levels.filter((l) => l.nodeType === "king"),
    label,
  ).toHaveLength(1);
  const zg = lv.summary.zeroGamma;
  expect(zg.method).toBe("spot_profile");
  if (zg.level !== null) {
    expect(Math.abs(zg.level / c.spot - 1), label).toBeLessThanOrEqual(0.1 + 1e-12);
    expect(zg.distancePct!).toBeCloseTo((100 * (zg.level - c.spot)) / c.spot, 9);
  }
  if (lv.summary.flip) {
    expect(lv.summary.flip.level, label).toBeGreaterThanOrEqual(grid.strikes[0]);
    expect(lv.summary.flip.level, label).toBeLessThanOrEqual(grid.strikes[n - 1]);
  }
  expect(Number.isFinite(lv.summary.netExposure), label).toBe(true);
  return { grid, c };
}

/**
 * The quotes straddle the surface and the solver recovers the chain's IV: for every informative
 * row of the grid's expirations, the Black-Scholes-Merton value at the row's IV lies within
 * [bid, ask] (quotes are on the tick grid around it, docs/methodology.md#quotes-and-spreads), and
 * the library's solver returns the row's IV from that value.
 */
function checkIvRecovery(c: ChainSnapshot, exps: readonly string[], label: string): number {
  let checked = 0;
  // Violations are collected and asserted once: an expect per row costs more than the row.
  const bad: string[] = [];
  for (const i of rowsOf(c, exps, 0, Infinity)) {
    const t = tYears(c, c.expIndex[i]);
    const k = c.strikes[c.strikeIndex[i]];
    const input = { spot: c.spot, strike: k, tYears: t, rate: c.rate, dividendYield: c.dividendYield, right: c.right[i] === 1 ? ("C" as const) : ("P" as const) };
    const model = bsmPrice({ ...input, vol: c.iv[i] });
    if (!(c.bid[i] <= model + 1e-9 * c.spot)) bad.push(`row ${i}: bid ${c.bid[i]} above the model value ${model}`);
    if (!(c.ask[i] >= model - 1e-9 * c.spot)) bad.push(`row ${i}: ask ${c.ask[i]} below the model value ${model}`);
    // Only where the price carries vol information in doubles (as test/market/chain.test.ts).
    if (Math.abs(Math.log(k / c.spot)) > 4 * c.iv[i] * Math.sqrt(t) || model < 1e-6 * c.spot) continue;
    const r = impliedVol({ ...input, price: model });
    if (!(r.ok && Math.abs(r.vol - c.iv[i]) < 1e-8)) bad.push(`row ${i}: solver gave ${r.ok ? r.vol : "no vol"} for IV ${c.iv[i]}`);
    checked++;
  }
  expect(bad, label).toEqual([]);
  return checked;
}

/** Put skew at |log-moneyness| = 0.5 and 1 ATM standard deviations, for expirations 7-120 days out. */
function checkPutSkew(c: ChainSnapshot, label: string): number {
  let compared = 0;
  for (let e = 0; e < c.expirations.length; e++) {
    const days = (c.expirySettleMs[e] - c.asOfMs) / 86_400_000;
    if (days < 7 || days > 120) continue;
    const pts = otmSmile(c, e);
    const sd = atmIv(c, e) * Math.sqrt(tYears(c, e));
    for (const m of [0.5, 1]) {
      const put = ivAt(c, pts, -m * sd);
      const call = ivAt(c, pts, m * sd);
      if (Number.isNaN(put) || Number.isNaN(call)) continue;
      expect(put, `${label} ${c.expirations[e]} at ${m} sd: put ${put} call ${call}`).toBeGreaterThan(call);
      compared++;
    }
  }
  return compared;
}

describe("positioning on simulated chains since 2023-03-28", () => {
  it("samples the whole range, including the special days", () => {
    const dates = SAMPLES.map((s) => s.date);
    expect(dates[0]).toBe(FIRST_DAY);
    expect(SAMPLES[0].atMs).toBe(sessionBounds(FIRST_DAY).openMs);
    expect(dates.at(-1)).toBe(LAST_DAY);
    expect(dates.some(isEarlyClose)).toBe(true);
    // Both DST transitions: the UTC open moves by an hour across them.
    expect(sessionBounds("2024-03-11").openMs - Date.parse("2024-03-11T00:00:00Z")).toBe(13.5 * 3_600_000);
    expect(sessionBounds("2023-11-06").openMs - Date.parse("2023-11-06T00:00:00Z")).toBe(14.5 * 3_600_000);
    const spread = SAMPLES.filter((s) => s.why === "spread");
    expect(new Set(spread.map((s) => s.date.slice(0, 4)))).toEqual(new Set(["2023", "2024", "2025", "2026"]));
    expect(EARNINGS.AAPL.length).toBeGreaterThanOrEqual(12);
    expect(EARNINGS.NVDA.length).toBeGreaterThanOrEqual(12);
  });

  for (const symbol of SYMBOLS) {
    it(`${symbol}: window around spot, finite values, a king, exposure in its dollar range, zero gamma near spot, quotes around the surface${INDEX_ETF.has(symbol) ? ", put skew" : ""}`, () => {
      const samples = [...SAMPLES];
      if (symbol in EARNINGS) for (const x of EARNINGS[symbol].filter((_, j) => j % 3 === 0)) samples.push(x.pre, x.post);
      let ivChecked = 0;
      let skewCompared = 0;
      for (const s of samples) {
        const { grid, c } = checkBoard(symbol, s);
        const label = `${symbol} ${s.date} (${s.why})`;
        ivChecked += checkIvRecovery(c, grid.expirations, label);
        if (INDEX_ETF.has(symbol)) skewCompared += checkPutSkew(c, label);
        if (symbol === "SPXW") {
          // A 0DTE on every sampled session, settling at that session's close (13:00 on early closes).
          expect(c.expirations[0], label).toBe(s.date);
          expect(c.expirySettleMs[0], label).toBe(sessionBounds(s.date).closeMs);
          expect(grid.expirations[0], label).toBe(s.date);
        }
      }
      expect(ivChecked).toBeGreaterThan(100 * samples.length);
      if (INDEX_ETF.has(symbol)) expect(skewCompared).toBeGreaterThan(4 * samples.length);
      // Each sampled session's open interest reads the previous session's tape
      // (docs/methodology.md#open-interest-carry-from-the-tape): SPXW's 25 samples make 25 of them.
    }, 240_000);
  }

  it("SPX AM-settled monthlies: settle at 09:30 ET and leave the board at that instant; the functions run either side", () => {
    for (const [before, on, exp] of [
      [at("2024-06-20", "15:59", ""), at("2024-06-21", "09:30", ""), "2024-06-21"],
      [at("2025-01-16", "15:59", ""), at("2025-01-17", "09:31", ""), "2025-01-17"],
    ] as const) {
      const pre = chainAt("SPX", before);
      const e = pre.expirations.indexOf(exp);
      expect(e).toBe(0);
      expect(pre.expiryRoot[e]).toBe("SPX");
      expect(pre.expirySettleMs[e]).toBe(sessionBounds(exp).openMs);
      // Overnight to a 09:30 settlement: 17.5 hours (in 365-day years) remain at 15:59.
      expect(tYears(pre, e)).toBeCloseTo((17.5 * 60 + 1) / (365 * 1440), 12);
      const post = chainAt("SPX", on);
      expect(post.expirations).not.toContain(exp);
      for (const s of [before, on]) checkBoard("SPX", { ...s, why: "SPX AM expiry" });
      // SPXW keeps its PM-settled expiration of the same date through the session.
      const w = chainAt("SPXW", on);
      expect(w.expirations[0]).toBe(exp);
      expect(w.expirySettleMs[0]).toBe(sessionBounds(exp).closeMs);
    }
  });

  it("AAPL and NVDA: earnings variance leaves the front IV once the report is out (IV crush)", () => {
    for (const [ticker, events] of Object.entries(EARNINGS))
      for (const { ev, pre, post } of events) {
        const a = chainAt(ticker, pre);
        const b = chainAt(ticker, post);
        // The first expiration settling after the report whose strikes bracket the forward on both
        // boards: the front one, since the grid covers the session's open as well as the previous
        // close (docs/methodology.md#strikes), so a gap never leaves it on one side of spot.
        const eb = b.expirations.findIndex((x, j) => !Number.isNaN(atmIv(b, j)) && !Number.isNaN(atmIv(a, a.expirations.indexOf(x))));
        expect(eb, `${ticker} ${ev.date}`).toBe(0);
        const ea = a.expirations.indexOf(b.expirations[eb]);
        expect(atmIv(a, ea), `${ticker} ${ev.date} ${ev.timing} ${b.expirations[eb]}`).toBeGreaterThan(atmIv(b, eb));
      }
  });
});
