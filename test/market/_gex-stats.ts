// Prints dealer-gamma statistics of simulated SPXW and SPY boards over many sampled days (the
// numbers behind docs/methodology.md#open-interest-and-volume): npx tsx test/market/_gex-stats.ts [days] [seed]
import { loadKernelsSync } from "../../lib/kernels";
import { createSimulatedMarket, fixedClock, type ChainSnapshot } from "../../lib/market";
import { exposureGrid, keyLevels } from "../../lib/positioning";
import { etInstant, tradingDaysBetween } from "../../lib/time";

const nDays = Number(process.argv[2] ?? 120);
const seed = Number(process.argv[3] ?? 42);
const m = createSimulatedMarket({ seed, clock: fixedClock(Date.parse("2026-11-20T21:30:00Z")) });
const engine = loadKernelsSync();
const days = tradingDaysBetween("2023-05-01", "2026-11-20");
const sample = Array.from({ length: nDays }, (_, i) => days[Math.round((i * (days.length - 1)) / (nDays - 1))]);

/** Put/call open interest ratio by contracts. */
function pcRatio(c: ChainSnapshot): number {
  let p = 0;
  let k = 0;
  for (let i = 0; i < c.oi.length; i++) {
    if (c.right[i] === 0) p += c.oi[i];
    else k += c.oi[i];
  }
  return p / k;
}

/** ATM IV of the first expiration at least 25 days out. */
function atmIv30(c: ChainSnapshot): number {
  const e = c.expirySettleMs.findIndex((s) => s - c.asOfMs > 25 * 86_400_000);
  let best = -1;
  for (let i = 0; i < c.iv.length; i++) {
    if (c.expIndex[i] !== e || c.right[i] !== 1) continue;
    if (best < 0 || Math.abs(c.strikes[c.strikeIndex[i]] - c.spot) < Math.abs(c.strikes[c.strikeIndex[best]] - c.spot)) best = i;
  }
  return c.iv[best];
}

const median = (x: number[]) => (x.length ? [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)] : Number.NaN);
for (const sym of ["SPXW", "SPY"]) {
  const rows: { net: number; all: number; zg: number | null; pc: number; iv: number; dd: number }[] = [];
  for (const d of sample) {
    const c = m.chainSync(sym, etInstant(d, "12:00"))!;
    const lv = keyLevels(c, {}, engine);
    const all = exposureGrid(c, { maxExpirations: "all", maxStrikes: "all", includeEmpty: true }, engine).total;
    const closes = tradingDaysBetween("2023-03-28", d)
      .slice(-21, -1)
      .map((x) => m.spotSync(sym, etInstant(x, "15:59"))!);
    const dd = c.spot / Math.max(c.spot, ...closes) - 1;
    rows.push({ net: lv.summary.netExposure, all, zg: lv.summary.zeroGamma.distancePct, pc: pcRatio(c), iv: atmIv30(c), dd });
  }
  const pos = rows.filter((r) => r.net > 0);
  const posAll = rows.filter((r) => r.all > 0);
  const zgPos = pos.filter((r) => r.zg !== null);
  const corr = (xs: number[], ys: number[]) => {
    const mx = xs.reduce((a, b) => a + b) / xs.length;
    const my = ys.reduce((a, b) => a + b) / ys.length;
    let sxy = 0,
      sxx = 0,
      syy = 0;
    for (let i = 0; i < xs.length; i++) [sxy, sxx, syy] = [sxy + (xs[i] - mx) * (ys[i] - my), sxx + (xs[i] - mx) ** 2, syy + (ys[i] - my) ** 2];
    return sxy / Math.sqrt(sxx * syy);
  };
  const sign = rows.map((r) => Math.sign(r.net));
  console.log(
    `${sym} days ${rows.length}: net>0 (5 exp, 92 strikes) ${pos.length} (${((100 * pos.length) / rows.length).toFixed(0)}%), all-exp net>0 ${posAll.length}; ` +
      `median net ${(median(rows.map((r) => r.net)) / 1e9).toFixed(2)}B, all ${(median(rows.map((r) => r.all)) / 1e9).toFixed(2)}B; ` +
      `zero gamma median ${median(rows.filter((r) => r.zg !== null).map((r) => r.zg!)).toFixed(2)}% (positive days: ${median(zgPos.map((r) => r.zg!)).toFixed(2)}%, below spot on ${zgPos.filter((r) => r.zg! < 0).length}/${pos.length}); ` +
      `P/C OI median ${median(rows.map((r) => r.pc)).toFixed(2)}; corr(sign, ATM IV) ${corr(
        sign,
        rows.map((r) => r.iv),
      ).toFixed(2)}, corr(sign, drawdown) ${corr(
        sign,
        rows.map((r) => r.dd),
      ).toFixed(2)}`,
  );
}
