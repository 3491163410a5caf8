// Dealer gamma of simulated index/ETF chains behaves like the real market's (calls +1, puts -1):
// positive on most days in calm regimes with zero gamma some 1-3% below spot, negative mainly after
// selloffs and when volatility is high; put/call open interest about 1.3-1.8 by contracts.
// Bands are the stylised facts of SPX/SPY positioning (docs/methodology.md#open-interest-and-volume
// lists them with the model), not outputs of a run. Deterministic: seed 42, a fixed sample of days.
import { correlation } from "./_realism-stats";
import { describe, expect, it } from "vitest";
import { loadKernelsSync } from "../../lib/kernels";
import type { ChainSnapshot } from "../../lib/market";
import { keyLevels } from "../../lib/positioning";
import { etInstant, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-11-20T21:30:00Z"));
const engine = loadKernelsSync();
const ALL_DAYS = tradingDaysBetween("2023-03-28", "2026-11-20");
const N_DAYS = 100;
// Evenly spaced sessions from 2023-05-01 (20 sessions of history for the drawdown), at 12:00 ET.
const FIRST = ALL_DAYS.indexOf("2023-05-01");
const SAMPLE = Array.from({ length: N_DAYS }, (_, i) => FIRST + Math.round((i * (ALL_DAYS.length - 1 - FIRST)) / (N_DAYS - 1)));

/** ATM IV (nearest-strike call) of the first expiration at least 25 days out: the implied-vol regime. */
function atmIv30(c: ChainSnapshot): number {
  const e = c.expirySettleMs.findIndex((s) => s - c.asOfMs > 25 * 86_400_000);
  let best = -1;
  for (let i = 0; i < c.iv.length; i++) {
    if (c.expIndex[i] !== e || c.right[i] !== 1) continue;
    if (best < 0 || Math.abs(c.strikes[c.strikeIndex[i]] - c.spot) < Math.abs(c.strikes[c.strikeIndex[best]] - c.spot)) best = i;
  }
  return c.iv[best];
}

const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];

interface Day {
  net: number;
  zeroGammaPct: number | null;
  putCall: number;
  iv: number;
  /** Spot over the highest of the 20 previous closes, minus 1 (<= 0). */
  drawdown: number;
}

function sampleDays(symbol: string): Day[] {
  return SAMPLE.map((d) => {
    const date = ALL_DAYS[d];
    const c = market.chainSync(symbol, etInstant(date, "12:00"))!;
    const lv = keyLevels(c, {}, engine);
    let puts = 0;
    let calls = 0;
    for (let i = 0; i < c.oi.length; i++) {
      if (c.right[i] === 0) puts += c.oi[i];
      else calls += c.oi[i];
    }
    const closes = ALL_DAYS.slice(d - 20, d).map((x) => market.spotSync(symbol, sessionBounds(x).closeMs)!);
    return {
      net: lv.summary.netExposure,
      zeroGammaPct: lv.summary.zeroGamma.distancePct,
      putCall: puts / calls,
      iv: atmIv30(c),
      drawdown: Math.min(0, c.spot / Math.max(...closes) - 1),
    };
  });
}

describe.each(["SPXW", "SPY"])(`%s dealer gamma over ${N_DAYS} sampled sessions`, (symbol) => {
  const days = sampleDays(symbol);
  const positive = days.filter((x) => x.net > 0);

  it("is positive on most days, but not all (55-85%)", () => {
    expect(positive.length / days.length).toBeGreaterThanOrEqual(0.55);
    expect(positive.length / days.length).toBeLessThanOrEqual(0.85);
  });

  it("has zero gamma below spot on most positive days, typically 1-3.5% below", () => {
    const below = positive.filter((x) => x.zeroGammaPct !== null && x.zeroGammaPct < 0);
    expect(below.length / positive.length).toBeGreaterThanOrEqual(0.85);
    const m = median(below.map((x) => x.zeroGammaPct!));
    expect(m).toBeLessThanOrEqual(-1);
    expect(m).toBeGreaterThanOrEqual(-3.5);
  });

  it("turns negative in high-vol regimes and after selloffs", () => {
    const sign = days.map((x) => Math.sign(x.net));
    expect(
      correlation(
        sign,
        days.map((x) => x.iv),
      ),
    ).toBeLessThan(-0.2);
    expect(
      correlation(
        sign,
        days.map((x) => x.drawdown),
      ),
    ).toBeGreaterThan(0.3);
    // By implied-vol tercile: the calmest third is positive more often than the most volatile third.
    const byIv = [...days].sort((a, b) => a.iv - b.iv);
    const third = Math.floor(days.length / 3);
    const share = (xs: Day[]) => xs.filter((x) => x.net > 0).length / xs.length;
    expect(share(byIv.slice(0, third))).toBeGreaterThan(share(byIv.slice(-third)) + 0.2);
  });

  it("has a put/call open interest ratio of about 1.3-1.8 by contracts", () => {
    const m = median(days.map((x) => x.putCall));
    expect(m).toBeGreaterThanOrEqual(1.3);
    expect(m).toBeLessThanOrEqual(1.8);
  });
});
