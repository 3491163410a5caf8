import { describe, expect, it } from "vitest";
// Modules, not the lib/market and lib/math indexes: loading the file-market and API code this file
// never calls was over half of its import time.
import { bsmPrice } from "../../lib/math/black-scholes";
import { impliedVol } from "../../lib/math/implied-vol";
import { optionTickRule } from "../../lib/market/tick-size";
import { chainRows } from "../../lib/market/chain-rows";
import type { ChainSnapshot } from "../../lib/market/market-data";
import { ChainContractRowSchema } from "../../lib/market/schemas";
import { monthlyExpiration } from "../../lib/symbols";
import { etInstant, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { violations } from "../_helpers/violations";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2025-06-02T20:30:00Z"));
const YEAR_MS = 365 * 86_400_000;
const AT = Date.parse("2024-05-01T17:03:00Z"); // 13:03 ET
const spxw = market.chainSync("SPXW", AT)!;

/**
 * Rows of one expiration, as arrays by right. Quotes only: reading `oi` or `volume` makes the
 * board's tape (a session of prints), so a test that wants them reads `c.oi[row.i]`.
 */
function byExpiry(c: ChainSnapshot, e: number) {
  const rows: { k: number; right: number; bid: number; ask: number; iv: number; i: number }[] = [];
  for (let i = 0; i < c.right.length; i++)
    if (c.expIndex[i] === e) rows.push({ k: c.strikes[c.strikeIndex[i]], right: c.right[i], bid: c.bid[i], ask: c.ask[i], iv: c.iv[i], i });
  return rows;
}

function tYears(c: ChainSnapshot, e: number): number {
  return Math.max(c.expirySettleMs[e] - c.asOfMs, 60_000) / YEAR_MS;
}

/** Black-Scholes-Merton value of row i at its own IV (the surface's value the quotes are built around). */
function modelPrice(c: ChainSnapshot, i: number): number {
  const t = tYears(c, c.expIndex[i]);
  return bsmPrice({
    spot: c.spot,
    strike: c.strikes[c.strikeIndex[i]],
    tYears: t,
    vol: c.iv[i],
    rate: c.rate,
    dividendYield: c.dividendYield,
    right: c.right[i] === 1 ? "C" : "P",
  });
}

describe("simulated chain snapshot shape", () => {
  it("is columnar, labelled simulated, with consistent columns and sorted strikes/expirations", () => {
    expect(spxw.simulated).toBe(true);
    expect(spxw.symbol).toBe("SPXW");
    expect(spxw.underlying).toBe("SPX");
    const n = spxw.right.length;
    expect(n).toBeGreaterThan(15_000);
    for (const col of [spxw.strikeIndex, spxw.expIndex, spxw.oi, spxw.bid, spxw.ask, spxw.last, spxw.iv, spxw.volume]) expect(col.length).toBe(n);
    const v = violations();
    for (let i = 1; i < spxw.strikes.length; i++)
      v.check(spxw.strikes[i] > spxw.strikes[i - 1], () => `strike ${i}: ${spxw.strikes[i]} not above ${spxw.strikes[i - 1]}`);
    v.expectNone("strikes ascending");
    expect([...spxw.expirations].sort()).toEqual(spxw.expirations);
    expect(spxw.asOfMs % 60_000).toBe(0);
    expect(spxw.asOfMs).toBeLessThanOrEqual(AT);
  });

  it("has rows that validate against the contract-row schema", () => {
    const rows = chainRows(spxw);
    expect(rows.length).toBe(spxw.right.length);
    for (let i = 0; i < rows.length; i += 97) expect(ChainContractRowSchema.safeParse(rows[i]).success).toBe(true);
    expect(rows[0].root).toBe("SPXW");
  });

  it("is null before 2023-03-28 and for unknown symbols; between sessions it is the previous closing board", async () => {
    expect(await market.chain("SPXW", Date.parse("2023-03-27T18:00:00Z"))).toBeNull();
    expect(await market.chain("ZZZZ", AT)).toBeNull();
    const night = (await market.chain("SPXW", Date.parse("2024-05-02T02:00:00Z")))!;
    expect(night.asOfMs).toBe(sessionBounds("2024-05-01").closeMs);
    expect(night.expirations[0] > "2024-05-01").toBe(true); // the 0DTE settled at the close
  });

  it("never returns a board after the clock's now", () => {
    const now = Date.parse("2024-05-01T15:10:30Z");
    const m = simulatedMarketAt(42, now);
    expect(m.chainSync("SPY", Date.parse("2024-06-01T15:00:00Z"))!.asOfMs).toBe(Date.parse("2024-05-01T15:10:00Z"));
  });
});

describe("no-arbitrage on the simulated quotes", () => {
  const boards = [spxw, market.chainSync("SPY", AT)!, market.chainSync("AAPL", AT)!, market.chainSync("NVDA", Date.parse("2024-08-20T14:31:00Z"))!];

  it("quotes on the tick grid: 0 <= bid < ask, a zero bid only below one tick, last within the spread (docs/methodology.md#tick-grid)", () => {
    const onGrid = (x: number, cents: number) => Math.abs(x * 100 - Math.round(x * 100)) < 1e-9 && Math.round(x * 100) % cents === 0;
    for (const c of boards) {
      const rule = optionTickRule(c.expiryRoot[0]);
      const bad: number[] = [];
      for (let i = 0; i < c.bid.length; i++) {
        const ok =
          c.bid[i] >= 0 &&
          c.bid[i] < c.ask[i] &&
          onGrid(c.bid[i], c.bid[i] < 3 ? rule.belowCents : rule.aboveCents) &&
          onGrid(c.ask[i], c.ask[i] < 3 ? rule.belowCents : rule.aboveCents) &&
          // A zero bid only where the option is worth less than one tick.
          (c.bid[i] > 0 || modelPrice(c, i) < rule.aboveCents / 100) &&
          c.last[i] >= c.bid[i] &&
          c.last[i] <= c.ask[i];
        if (!ok) bad.push(i);
      }
      expect(bad.slice(0, 5).map((i) => [c.symbol, c.strikes[c.strikeIndex[i]], c.right[i], c.bid[i], c.ask[i], c.last[i]])).toEqual([]);
    }
  });

  it("respects put-call parity bounds: C_bid - P_ask <= S e^-qT - K e^-rT <= C_ask - P_bid", () => {
    // One assertion over all pairs: an expect per row costs more than the row (test/_helpers/violations.ts).
    const v = violations();
    for (const c of boards)
      for (let e = 0; e < c.expirations.length; e++) {
        const t = tYears(c, e);
        const rows = byExpiry(c, e);
        for (let j = 0; j + 1 < rows.length; j += 2) {
          const [put, call] = rows[j].right === 0 ? [rows[j], rows[j + 1]] : [rows[j + 1], rows[j]];
          const at = () => `${c.symbol} ${c.expirations[e]} rows ${put.i}/${call.i}`;
          v.check(Object.is(put.k, call.k), () => `${at()}: put strike ${put.k} vs call strike ${call.k}`);
          const parity = c.spot * Math.exp(-c.dividendYield * t) - put.k * Math.exp(-c.rate * t);
          const tol = 1e-9 * c.spot;
          v.check(call.bid - put.ask <= parity + tol, () => `${at()} K ${put.k}: C_bid - P_ask ${call.bid - put.ask} above parity ${parity}`);
          v.check(call.ask - put.bid >= parity - tol, () => `${at()} K ${put.k}: C_ask - P_bid ${call.ask - put.bid} below parity ${parity}`);
        }
      }
    v.expectNone("put-call parity");
  });

  it("has model values decreasing and convex in strike, and no tradable vertical or butterfly arbitrage at the quotes", () => {
    const v = violations();
    for (const c of boards)
      for (let e = 0; e < c.expirations.length; e++) {
        const calls = byExpiry(c, e).filter((r) => r.right === 1);
        const mid = calls.map((r) => modelPrice(c, r.i));
        const tol = 1e-9 * c.spot;
        const at = (j: number) => `${c.symbol} ${c.expirations[e]} K ${calls[j].k}`;
        for (let j = 1; j < calls.length; j++) {
          v.check(mid[j] <= mid[j - 1] + tol, () => `${at(j)}: model ${mid[j]} above ${mid[j - 1]} at the lower strike`);
          // Buying the lower strike at the ask never costs less than selling the higher at the bid.
          v.check(calls[j - 1].ask >= calls[j].bid - tol, () => `${at(j)}: bid ${calls[j].bid} above the lower strike's ask ${calls[j - 1].ask}`);
        }
        for (let j = 1; j + 1 < calls.length; j++) {
          const [k0, k1, k2] = [calls[j - 1].k, calls[j].k, calls[j + 1].k];
          const interp = mid[j - 1] + ((mid[j + 1] - mid[j - 1]) * (k1 - k0)) / (k2 - k0);
          v.check(mid[j] <= interp + tol, () => `${at(j)}: model ${mid[j]} above the chord ${interp}`);
          // A butterfly bought at the asks and sold at the bid never pays a credit.
          const w0 = (k2 - k1) / (k2 - k0);
          const debit = w0 * calls[j - 1].ask + (1 - w0) * calls[j + 1].ask - calls[j].bid;
          v.check(debit >= -tol, () => `${at(j)}: butterfly pays a credit ${-debit}`);
        }
      }
    v.expectNone("monotone, convex, no vertical or butterfly arbitrage");
  });

  it("has IVs that the library's solver recovers from the model values inside the quotes (to 1e-8 where vega is material)", () => {
    let checked = 0;
    const v = violations();
    for (const c of boards)
      for (let i = 0; i < c.bid.length; i += 7) {
        const e = c.expIndex[i];
        const t = tYears(c, e);
        const K = c.strikes[c.strikeIndex[i]];
        const value = modelPrice(c, i);
        v.check(c.bid[i] <= value + 1e-9 * c.spot, () => `${c.symbol} row ${i}: bid ${c.bid[i]} above the model value ${value}`);
        v.check(c.ask[i] >= value - 1e-9 * c.spot, () => `${c.symbol} row ${i}: ask ${c.ask[i]} below the model value ${value}`);
        // Skip where the price carries almost no vol information (deep ITM/OTM within doubles).
        const sd = c.iv[i] * Math.sqrt(t);
        if (Math.abs(Math.log(K / c.spot)) > 4 * sd || value < 1e-6 * c.spot) continue;
        const r = impliedVol({ price: value, spot: c.spot, strike: K, tYears: t, rate: c.rate, dividendYield: c.dividendYield, right: c.right[i] === 1 ? "C" : "P" });
        v.check(r.ok === true, () => `${c.symbol} row ${i}: solver found no vol for IV ${c.iv[i]}`);
        if (r.ok) v.check(Math.abs(r.vol - c.iv[i]) < 1e-8, () => `${c.symbol} row ${i}: solver gave ${r.vol} for IV ${c.iv[i]}`);
        checked++;
      }
    v.expectNone("quotes around the model value, IV recovered");
    expect(checked).toBeGreaterThan(1000);
  });
});

describe("expirations", () => {
  it("lists a 0DTE SPXW expiration on every trading day (sampled over the whole range)", () => {
    const days = tradingDaysBetween("2023-03-28", "2025-05-30");
    for (let i = 0; i < days.length; i += 23) {
      const c = market.chainSync("SPXW", etInstant(days[i], "10:00"))!;
      expect(c.expirations[0]).toBe(days[i]);
      expect(c.expirySettleMs[0]).toBe(sessionBounds(days[i]).closeMs);
    }
  });

  it("lists only AM-settled standard monthlies on SPX", () => {
    for (const day of ["2023-04-05", "2024-03-15", "2025-04-16"]) {
      const c = market.chainSync("SPX", etInstant(day, "11:00"))!;
      expect(c.expirations.length).toBeGreaterThan(10);
      c.expirations.forEach((exp, e) => {
        const [y, m] = exp.split("-").map(Number);
        expect(monthlyExpiration(y, m)).toBe(exp);
        expect(c.expirySettleMs[e]).toBe(sessionBounds(exp).openMs);
      });
    }
    // On a monthly expiration day the AM-settled series has settled at the open.
    expect(market.chainSync("SPX", etInstant("2024-03-15", "11:00"))!.expirations[0]).toBe("2024-04-19");
  });

  it("lists daily expirations on SPY and weekly Fridays on single names", () => {
    const spy = market.chainSync("SPY", AT)!;
    expect(spy.expirations.slice(0, 3)).toEqual(["2024-05-01", "2024-05-02", "2024-05-03"]);
    const aapl = market.chainSync("AAPL", AT)!;
    for (const exp of aapl.expirations.slice(0, 4)) expect(new Date(`${exp}T12:00:00Z`).getUTCDay()).toBe(5);
  });
});

describe("strikes, open interest and volume", () => {
  it("spaces SPX strikes by 5 near the money and SPY strikes by 1", () => {
    const near = (c: ChainSnapshot) => Array.from(c.strikes).filter((k) => Math.abs(k / c.spot - 1) < 0.01);
    const spxNear = near(spxw);
    expect(Math.min(...spxNear.slice(1).map((k, i) => k - spxNear[i]))).toBe(5);
    const spy = market.chainSync("SPY", AT)!;
    const spyNear = near(spy);
    expect(Math.min(...spyNear.slice(1).map((k, i) => k - spyNear[i]))).toBe(1);
  });

  it("concentrates open interest near the money and at round strikes", () => {
    let near = 0;
    let far = 0;
    const round: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < spxw.oi.length; i++) {
      const k = spxw.strikes[spxw.strikeIndex[i]];
      const m = Math.abs(k / spxw.spot - 1);
      if (m < 0.05) near += spxw.oi[i];
      else if (m > 0.15) far += spxw.oi[i];
      if (m < 0.05) (k % 100 === 0 ? round : k % 25 !== 0 ? plain : []).push(spxw.oi[i]);
    }
    expect(near).toBeGreaterThan(3 * far);
    const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
    expect(mean(round)).toBeGreaterThan(2 * mean(plain));
  });

  it("puts more open interest on monthly expirations than on neighbouring weeklies", () => {
    const total = (e: number) => byExpiry(spxw, e).reduce((s, r) => s + spxw.oi[r.i], 0);
    const monthly = spxw.expirations.indexOf("2024-06-21");
    const weekly = spxw.expirations.indexOf("2024-06-14");
    expect(monthly).toBeGreaterThan(0);
    expect(total(monthly)).toBeGreaterThan(1.5 * total(weekly));
  });

  it("keeps OI fixed through a session and volume non-decreasing, heavy on the 0DTE", () => {
    const early = market.chainSync("SPXW", Date.parse("2024-05-01T14:00:00Z"))!;
    const late = market.chainSync("SPXW", Date.parse("2024-05-01T19:30:00Z"))!;
    expect(Array.from(late.oi)).toEqual(Array.from(early.oi));
    let zero = 0;
    let all = 0;
    const v = violations();
    for (let i = 0; i < late.volume.length; i++) {
      v.check(late.volume[i] >= early.volume[i], () => `row ${i}: volume ${late.volume[i]} at 15:30 below ${early.volume[i]} at 10:00`);
      all += late.volume[i];
      if (late.expIndex[i] === 0) zero += late.volume[i];
    }
    v.expectNone("volume non-decreasing");
    expect(zero / all).toBeGreaterThan(0.35);
    const open = market.chainSync("SPXW", Date.parse("2024-05-01T13:30:00Z"))!;
    expect(open.volume.reduce((a, b) => a + b, 0)).toBe(0);
  });
});

describe("implied volatility surface", () => {
  /** IV of a row at the strike nearest `spot * moneyness` for expiration e and right. */
  function ivAt(c: ChainSnapshot, e: number, moneyness: number, right: number): number {
    let best = -1;
    let dist = Infinity;
    for (let i = 0; i < c.iv.length; i++) {
      if (c.expIndex[i] !== e || c.right[i] !== right) continue;
      const d = Math.abs(c.strikes[c.strikeIndex[i]] / c.spot - moneyness);
      if (d < dist) [best, dist] = [i, d];
    }
    return c.iv[best];
  }

  it("has a negative skew on indices (OTM puts richer than OTM calls)", () => {
    const e = spxw.expirations.indexOf("2024-06-21");
    expect(ivAt(spxw, e, 0.9, 0)).toBeGreaterThan(ivAt(spxw, e, 1, 0) + 0.02);
    expect(ivAt(spxw, e, 0.9, 0)).toBeGreaterThan(ivAt(spxw, e, 1.1, 1));
  });

  it("has a smile on single names (both wings above the money)", () => {
    const c = market.chainSync("AAPL", AT)!;
    const e = c.expirySettleMs.findIndex((s) => s - c.asOfMs > 30 * 86_400_000);
    const atm = ivAt(c, e, 1, 1);
    expect(ivAt(c, e, 0.85, 0)).toBeGreaterThan(atm);
    expect(ivAt(c, e, 1.15, 1)).toBeGreaterThan(atm);
  });

  it("has ATM total variance increasing with expiry (no calendar arbitrage)", () => {
    let prev = 0;
    for (let e = 0; e < spxw.expirations.length; e++) {
      const w = ivAt(spxw, e, 1, 1) ** 2 * tYears(spxw, e);
      expect(w).toBeGreaterThan(prev * 0.98); // nearest strike differs slightly from the forward
      prev = w;
    }
  });

  it("raises short-dated IV after spot falls within a session (vol moves with spot), on most sessions", () => {
    const nearSpot = (k: Float64Array, spot: number) => ({ lo: k.findIndex((x) => x >= 0.97 * spot), hi: k.findLastIndex((x) => x <= 1.03 * spot) + 1 });
    const m = simulatedMarketAt(42, Date.parse("2025-06-02T20:30:00Z"));
    let agree = 0;
    let pairs = 0;
    for (const d of tradingDaysBetween("2024-07-01", "2024-09-30").filter((_, i) => i % 4 === 0)) {
      const atm = Array.from({ length: 13 }, (_, j) => {
        // The nearest 15 expirations (15 sessions of dailies reach past 10 days) and strikes within
        // 3% of spot: the call nearest spot is among them, with the value the full board gives it
        // (chainWindowSync), and a window quotes a few hundred of the board's 20,000 rows. Were the
        // expiration outside the window, e would be -1 and the IV check below would fail.
        const c = m.chainWindowSync("SPXW", etInstant(d, "09:31") + j * 30 * 60_000, { maxExpirations: 15, strikeWindow: nearSpot })!;
        const e = c.expirySettleMs.findIndex((s) => s - c.asOfMs > 10 * 86_400_000);
        return { spot: c.spot, iv: ivAt(c, e, 1, 1) };
      });
      expect(atm.every((x) => x.iv > 0.05 && x.iv < 1.5)).toBe(true);
      const lo = atm.reduce((a, b) => (b.spot < a.spot ? b : a));
      const hi = atm.reduce((a, b) => (b.spot > a.spot ? b : a));
      if (hi.spot / lo.spot < 1.006) continue;
      pairs++;
      if (lo.iv > hi.iv) agree++;
    }
    expect(pairs).toBeGreaterThan(5);
    expect(agree / pairs).toBeGreaterThan(0.75);
  });

  it("adds an earnings bump to expirations after a release", async () => {
    const events = await market.earnings("AAPL", "2024-01-01", "2024-12-31");
    expect(events.length).toBe(4);
    const ev = events[1];
    // A session a week before the release: expirations after it carry more ATM variance per year.
    const day = tradingDaysBetween("2024-01-01", ev.date).slice(-6)[0];
    const c = market.chainSync("AAPL", etInstant(day, "12:00"))!;
    const releaseMs = ev.timing === "bmo" ? etInstant(ev.date, "09:29") : etInstant(ev.date, "16:01");
    const before = c.expirySettleMs.findLastIndex((s) => s < releaseMs);
    const after = c.expirySettleMs.findIndex((s) => s > releaseMs);
    expect(before).toBeGreaterThanOrEqual(0);
    const jump = ivAt(c, after, 1, 1) ** 2 * tYears(c, after) - ivAt(c, before, 1, 1) ** 2 * tYears(c, before);
    const longRun = 0.27 ** 2 * (tYears(c, after) - tYears(c, before));
    expect(jump).toBeGreaterThan(longRun * 1.5);
  });
});
