// The optional trade-row fields of /v1/underlying/{ticker}/trades and /v1/contract/{symbol}/trades
// (bidSz/askSz, prevClose*, priceChange, nextIv, chain/contract bid and ask shares, premiumPercentile, agg*, strategy*,
// earnings*, sector, industry), each recomputed here from the
// raw prints and the market's calendars: nearest-rank bands of the previous session sorted by hand,
// sweep totals summed over the sweep's fills, multi-leg packages grouped by a plain walk, the next
// earnings date counted in calendar days.
import { beforeAll, describe, expect, it } from "vitest";
import { classifySide, groupSweeps } from "../../../../lib/flow";
import { simulatedQuoteSizes } from "../../../../lib/market/quote-sizes";
import { MULTI_LEG_WINDOW } from "../../../../lib/flow/params";
import type { OptionPrint } from "../../../../lib/market";
import { isMultiLegPrint } from "../../../../lib/market/prints/conditions";
import { formatOptionSymbol } from "../../../../lib/symbols";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, PRIOR, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
const OPEN = sessionBounds(TODAY).openMs;
const DAY = 86_400_000;
const premium = (p: OptionPrint) => p.price * p.size * 100;
const keyOfPrint = (p: OptionPrint) =>
  `${p.tsMs}|${formatOptionSymbol({ root: p.root, expiry: p.expiry, right: p.right, strike: p.strike }, "padded")}|${p.price}|${p.size}`;
const keyOfRow = (r: any) => `${r.tsEvent}|${r.rawSymbol}|${r.price}|${r.size}`;

/** Nearest-rank band of `x` among `sample` (0 below the median), by sorting. */
function bandOf(x: number, sample: readonly number[]): number {
  const sorted = [...sample].sort((a, b) => a - b);
  let band = 0;
  for (const p of [50, 75, 90, 95, 99]) if (x >= sorted[Math.max(0, Math.ceil((p * sorted.length) / 100) - 1)]) band = p;
  return band;
}

/** Multi-leg packages by a plain walk: same underlying and exchange, within the window of the first leg, no repeated contract. */
function packages(prints: readonly OptionPrint[]): Map<number, number[]> {
  const open = new Map<string, { first: number; members: number[]; symbols: Set<string> }>();
  const byFirst = new Map<number, number[]>();
  prints.forEach((p, i) => {
    if (!isMultiLegPrint(p)) return;
    const k = `${p.underlying}|${p.exchange}`;
    const o = open.get(k);
    if (o && p.tsMs - prints[o.first].tsMs <= MULTI_LEG_WINDOW.maxSpanMs && !o.symbols.has(p.symbol)) {
      o.members.push(i);
      o.symbols.add(p.symbol);
    } else {
      const fresh = { first: i, members: [i], symbols: new Set([p.symbol]) };
      open.set(k, fresh);
      byFirst.set(i, fresh.members);
    }
  });
  return byFirst;
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("trade-row extras", () => {
  it("XOM rows: premium band from the previous session, sweep totals, multi-leg packages, earnings and sector", async () => {
    const res = await h.get("/v1/underlying/XOM/trades?limit=500");
    expect(res.status).toBe(200);
    const rows = (await body(res)).data as any[];
    const prints = await h.sim.optionPrints("XOM", OPEN, NOW_MS);
    expect(rows.length).toBe(prints.length); // the whole half hour fits one page

    const prior = sessionBounds(PRIOR);
    const priorPremiums = (await h.sim.optionPrints("XOM", prior.openMs, prior.closeMs)).map(premium);
    const { groupOf } = groupSweeps(prints);
    const pk = packages(prints);
    const packageOf = new Map<number, number[]>();
    for (const members of pk.values()) for (const i of members) packageOf.set(i, members);

    const info = (await h.sim.universe()).find((s) => s.ticker === "XOM")!;
    const events = await h.sim.earnings("XOM", TODAY, "2025-03-06");
    const next = events
      .map((e) => e.date)
      .filter((d) => d >= TODAY)
      .sort()[0];
    expect(next).toBeDefined();
    const nextDay = Date.parse(`${next}T00:00:00Z`) / DAY;

    // Running bid/ask shares and next IVs by a plain walk over the raw prints.
    const walk: { chainBid: number; chainAsk: number; cBid: number; cAsk: number; next: number | null }[] = [];
    {
      let v = 0,
        b = 0,
        a = 0;
      const per = new Map<string, [number, number, number]>();
      prints.forEach((p, i) => {
        const side = classifySide(p.price, p.nbboBid, p.nbboAsk);
        const c = per.get(p.symbol) ?? [0, 0, 0];
        v += p.size;
        c[0] += p.size;
        if (side === "BB" || side === "B") {
          b += p.size;
          c[1] += p.size;
        }
        if (side === "A" || side === "AA") {
          a += p.size;
          c[2] += p.size;
        }
        per.set(p.symbol, c);
        const later = prints.slice(i + 1).find((x) => x.symbol === p.symbol);
        walk.push({ chainBid: (100 * b) / v, chainAsk: (100 * a) / v, cBid: (100 * c[1]) / c[0], cAsk: (100 * c[2]) / c[0], next: later ? later.iv : null });
      });
    }
    // Previous close: the last print of the nearest of the 3 earlier sessions the contract traded in.
    const earlier: OptionPrint[][] = [];
    for (let d = PRIOR; earlier.length < 3; d = previousTradingDay(d)) {
      const b = sessionBounds(d);
      earlier.push(await h.sim.optionPrints("XOM", b.openMs, b.closeMs));
    }
    const closeOf = (symbol: string) => {
      for (const [age, ps] of earlier.entries()) {
        const mine = ps.filter((x) => x.symbol === symbol);
        if (mine.length > 0) return { price: mine[mine.length - 1].price, age };
      }
      return null;
    };
    const ages = new Set<number | null>();
    const bands = new Set<number>();
    let sweepRows = 0;
    let legRows = 0;
    let quoted = 0;
    for (const [k, r] of rows.entries()) {
      // Newest first over the whole tape so far: row k is print n-1-k (keys can repeat across exchanges).
      const i = prints.length - 1 - k;
      const p = prints[i];
      expect(keyOfRow(r)).toBe(keyOfPrint(p));
      expect(r.premiumPercentile).toBe(bandOf(premium(p), priorPremiums));
      const close = closeOf(p.symbol);
      ages.add(close?.age ?? null);
      expect([r.prevClose, r.prevCloseAge]).toEqual(close ? [close.price, close.age] : [null, null]);
      if (close) expect(r.priceChange).toBeCloseTo(p.price - close.price, 12);
      else expect(r.priceChange).toBeNull();
      const w = walk[i];
      expect(r.nextIv).toBe(w.next);
      expect(r.chainBidPct).toBeCloseTo(w.chainBid, 9);
      expect(r.chainAskPct).toBeCloseTo(w.chainAsk, 9);
      expect(r.contractBidPct).toBeCloseTo(w.cBid, 9);
      expect(r.contractAskPct).toBeCloseTo(w.cAsk, 9);
      bands.add(r.premiumPercentile);
      if (groupOf[i] >= 0) {
        sweepRows++;
        const fills = prints.filter((_, j) => groupOf[j] === groupOf[i]);
        expect(r.aggCount).toBe(fills.length);
        expect(r.aggTotalSize).toBe(fills.reduce((s, x) => s + x.size, 0));
        expect(r.aggTotalPremium).toBeCloseTo(
          fills.reduce((s, x) => s + premium(x), 0),
          6,
        );
      } else {
        expect([r.aggCount, r.aggTotalSize]).toEqual([1, p.size]);
        expect(r.aggTotalPremium).toBeCloseTo(premium(p), 6);
      }
      const members = packageOf.get(i);
      expect(r.multiLeg).toBe(members !== undefined);
      if (members) {
        legRows++;
        expect(r.strategyLegCount).toBe(members.length);
        expect(r.strategyGroupId).toMatch(new RegExp(`^ml_${TODAY}_XOM_\\d+$`));
        if (members.length === 2) {
          const [a, b] = members.map((j) => prints[j]);
          const want =
            a.expiry === b.expiry
              ? a.right === b.right
                ? a.size === b.size
                  ? "vertical"
                  : "ratio_spread"
                : a.strike === b.strike
                  ? "straddle"
                  : "strangle"
              : a.strike === b.strike && a.right === b.right
                ? "calendar"
                : "diagonal";
          expect(r.strategyType).toBe(want);
        }
        if (members.length === 1) expect(r.strategyType).toBe("unpaired");
      } else {
        expect(r.strategyGroupId).toBeUndefined();
        expect(r.strategyType).toBeUndefined();
      }
      expect(r.nextEarningsDate).toBe(nextDay);
      expect(r.earningsDte).toBe(Math.round((Date.parse(`${next}T00:00:00Z`) - Date.parse(`${TODAY}T00:00:00Z`)) / DAY));
      expect([r.sector, r.industry]).toEqual([info.sector, info.industry]);
      // Simulated quote sizes of the print's contract, minute and NBBO; null without a quote.
      const sizes = classifySide(p.price, p.nbboBid, p.nbboAsk) === "N" ? null : simulatedQuoteSizes(p.symbol, p.tsMs, p.nbboBid, p.nbboAsk);
      expect([r.bidSz, r.askSz]).toEqual(sizes ? [sizes.bidSz, sizes.askSz] : [null, null]);
      if (sizes) quoted++;
    }
    expect(quoted).toBeGreaterThan(0);
    expect(ages.has(0)).toBe(true);
    expect(bands.size).toBeGreaterThan(2);
    expect(sweepRows).toBeGreaterThan(0);
    expect(legRows).toBeGreaterThan(0);
    // Legs of one package share an id, and the id's rows are exactly the package's members.
    const ids = new Map<string, number>();
    for (const r of rows) if (r.strategyGroupId) ids.set(r.strategyGroupId, (ids.get(r.strategyGroupId) ?? 0) + 1);
    expect(ids.size).toBe(pk.size);
    for (const r of rows) if (r.strategyGroupId) expect(ids.get(r.strategyGroupId)).toBe(r.strategyLegCount);
  });

  it("a fund has no earnings fields and its tracked sector; contract rows carry the same extras as the ticker's", async () => {
    const fund = (await body(await h.get("/v1/underlying/XLU/trades?limit=20"))).data as any[];
    expect(fund.length).toBe(20);
    const info = (await h.sim.universe()).find((s) => s.ticker === "XLU")!;
    expect(info.sector).toBe("Utilities");
    for (const r of fund) {
      expect(r.earningsDte).toBeUndefined();
      expect(r.nextEarningsDate).toBeUndefined();
      expect([r.sector, r.industry]).toEqual([info.sector, info.industry]);
    }
    const xom = (await body(await h.get("/v1/underlying/XOM/trades?limit=500"))).data as any[];
    const top = xom.reduce((a: any, b: any) => (b.totalPremium > a.totalPremium ? b : a));
    const symbol = encodeURIComponent(top.rawSymbol);
    const rows = (await body(await h.get(`/v1/contract/${symbol}/trades?limit=500`))).data as any[];
    const same = rows.filter((r) => keyOfRow(r) === keyOfRow(top) && r.publisherId === top.publisherId);
    expect(same).toHaveLength(1);
    const first = same[0];
    expect(first).toBeDefined();
    const fields = [
      "bidSz",
      "askSz",
      "prevClose",
      "prevCloseAge",
      "priceChange",
      "nextIv",
      "chainBidPct",
      "chainAskPct",
      "contractBidPct",
      "contractAskPct",
      "premiumPercentile",
      "aggCount",
      "aggTotalPremium",
      "aggTotalSize",
      "strategyGroupId",
      "strategyType",
      "strategyLegCount",
      "earningsDte",
      "nextEarningsDate",
      "sector",
      "industry",
    ];
    for (const f of fields) expect(first[f]).toEqual(top[f]);
  });
});
