// The daily-statistics fast path is exact: the simulator's windowed boards (only the contracts of
// the nearest expirations inside the strike window, IV without prices) carry the very values of
// the full board, so exposure grids and statistics are identical; and /v1/stats/daily computed
// through it (in worker threads) equals statistics of the frames /v1/historical replays.
import { moduleStateOf, positioningModule } from "../../../../server/modules";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { jsKernels, loadKernelsSync } from "../../../../lib/kernels";
import { createSimulatedMarket, fixedClock } from "../../../../lib/market";
import type { ChainSnapshot } from "../../../../lib/market/market-data";
import { dailyStats, exposureGrid, POSITIONING_DEFAULTS, sessionFrameInstants, strikeWindow } from "../../../../lib/positioning";
import { etInstant } from "../../../../lib/time";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { violations } from "../../../_helpers/violations";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

const market = simulatedMarketAt(7, Date.parse("2024-04-01T00:00:00Z"));
// Sessions with an AM-settled monthly inside SPXW (2024-03-15), an early close (2023-11-24) and ordinary days.
const DATES = ["2023-11-24", "2024-03-14", "2024-03-15", "2024-03-18"];
const SYMBOLS = ["SPXW", "SPY", "AAPL", "TSLA"];

/** Contract key across snapshots: expiry, strike, right. */
const contractKey = (c: ChainSnapshot, i: number) => `${c.expirations[c.expIndex[i]]}|${c.strikes[c.strikeIndex[i]]}|${c.right[i]}`;

describe("windowed boards (lib/market/simulated quoteBoardWindow)", () => {
  it("hold exactly the full board's contracts inside the window, with identical strike, right, OI, expiry, IV and prices", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SYMBOLS),
        fc.constantFrom(...DATES),
        fc.nat(),
        fc.integer({ min: 1, max: 120 }),
        fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constant("all" as const)),
        fc.boolean(),
        (symbol, date, minuteSeed, maxStrikes, maxExpirations, prices) => {
          const stamps = sessionFrameInstants(date);
          const t = stamps[minuteSeed % stamps.length];
          const full = market.chainSync(symbol, t)!;
          const win = market.chainWindowSync(symbol, t, { maxExpirations, strikeWindow: (k, s) => strikeWindow(k, s, maxStrikes), prices })!;
          expect(win.asOfMs).toBe(full.asOfMs);
          expect(win.spot).toBe(full.spot);
          expect(win.expirations).toEqual(full.expirations);
          expect([...win.strikes]).toEqual([...full.strikes]);
          // Which contracts the window must hold, computed from the full board.
          const { lo, hi } = strikeWindow(full.strikes, full.spot, maxStrikes);
          const nExp = maxExpirations === "all" ? full.expirations.length : maxExpirations;
          const expected: number[] = [];
          for (let i = 0; i < full.oi.length; i++) {
            if (full.strikeIndex[i] >= lo && full.strikeIndex[i] < hi && full.expIndex[i] < nExp) expected.push(i);
          }
          expect(win.oi.length).toBe(expected.length);
          // One assertion for every contract (an expect per contract cost more than the check).
          const v = violations();
          const same = (a: number, b: number) => Object.is(a, b);
          expected.forEach((i, j) => {
            const at = () => `${symbol} ${date} row ${j} (${contractKey(full, i)})`;
            v.check(contractKey(win, j) === contractKey(full, i), () => `${at()}: contract ${contractKey(win, j)}`);
            v.check(same(win.oi[j], full.oi[i]) && same(win.iv[j], full.iv[i]), () => `${at()}: oi/iv ${win.oi[j]}/${win.iv[j]} vs ${full.oi[i]}/${full.iv[i]}`);
            if (prices) {
              const ok = same(win.bid[j], full.bid[i]) && same(win.ask[j], full.ask[i]) && same(win.last[j], full.last[i]) && same(win.volume[j], full.volume[i]);
              v.check(ok, () => `${at()}: prices ${[win.bid[j], win.ask[j], win.last[j], win.volume[j]]} vs ${[full.bid[i], full.ask[i], full.last[i], full.volume[i]]}`);
            } else {
              v.check(Number.isNaN(win.bid[j]) && Number.isNaN(win.ask[j]), () => `${at()}: a price on a board without prices`);
            }
          });
          v.expectNone();
        },
      ),
      { numRuns: 40 },
    );
  });

  it("give exposure grids identical to the full board's (gamma and vanna, both kernel engines)", () => {
    const engines = [loadKernelsSync(), jsKernels];
    fc.assert(
      fc.property(
        fc.constantFrom(...SYMBOLS),
        fc.constantFrom(...DATES),
        fc.nat(),
        fc.constantFrom("gamma" as const, "vanna" as const),
        fc.nat(1),
        (symbol, date, minuteSeed, metric, e) => {
          const stamps = sessionFrameInstants(date);
          const t = stamps[minuteSeed % stamps.length];
          const options = { metric, maxStrikes: POSITIONING_DEFAULTS.maxStrikes, maxExpirations: POSITIONING_DEFAULTS.maxExpirations, layout: "matrix" as const };
          const win = market.chainWindowSync(symbol, t, {
            maxExpirations: options.maxExpirations,
            strikeWindow: (k, s) => strikeWindow(k, s, options.maxStrikes),
          })!;
          const a = exposureGrid(market.chainSync(symbol, t)!, options, engines[e]);
          const b = exposureGrid(win, options, engines[e]);
          expect([...b.strikes]).toEqual([...a.strikes]);
          expect(b.expirations).toEqual(a.expirations);
          expect([...b.matrix]).toEqual([...a.matrix]);
          expect([...b.net]).toEqual([...a.net]);
          expect(b.meta.contracts).toEqual(a.meta.contracts);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe("/v1/stats/daily over the simulated market (statistics workers)", () => {
  // 2024-03-15 11:00 ET: the session so far has 91 frames, and the AM-settled monthly expired at 09:30.
  const date = "2024-03-15";
  const nowMs = etInstant(date, "11:00");
  const clock = fixedClock(nowMs);
  const sim = createSimulatedMarket({ seed: 11, clock });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { key } = accounts.createAccount({ plan: "top", credits: 100_000, dailyCapCredits: null, requestsPerMinute: 10_000 });
  const app = createApp({ market: sim, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock, requestTimeoutMs: 60_000 });
  const get = async (path: string) => {
    const res = await app.request(path, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    return res.json();
  };
  afterAll(() => accounts.close());

  it("equals the statistics of the frames /v1/historical replays, minute by minute", async () => {
    for (const [symbol, metric] of [
      ["SPY", "gamma"],
      ["SPXW", "vanna"],
    ] as const) {
      const body = await get(`/v1/stats/daily?symbols=${symbol}&from=${date}&to=${date}&metric=${metric}`);
      const day = body.data.symbols[0].days[0];
      const frames = [];
      for (const t of sessionFrameInstants(date).filter((x) => x <= nowMs)) {
        const entry = (await get(`/v1/historical?symbols=${symbol}&at=${new Date(t).toISOString()}&metric=${metric}&layout=matrix`)).data.symbols[0];
        if (Date.parse(entry.asOf) !== t) continue;
        frames.push({ asOfMs: t, spot: entry.spot, values: Float64Array.from((entry.matrix as number[][]).flat()) });
      }
      expect(frames.length).toBe(91);
      expect(day).toEqual(dailyStats(frames, { date, nowMs }));
      expect(day.frames).toBe(91);
    }
    // It ran in the statistics workers (not the in-thread fallback).
    expect(moduleStateOf(app.services, positioningModule).statsPool()?.size).toBeGreaterThan(0);
  });
});
