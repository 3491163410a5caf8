import { describe, expect, it } from "vitest";
import { nextTradingDay, previousTradingDay, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { chainTerms, curveState, skew30, svxAll, termStructure } from "../../lib/vol";
import { simulatedMarketAt } from "../_helpers/simulated-market";

// What a vol trader looks at first, read with lib/vol on the simulated market over many days
// (issue 15's realism list). Sampled every 10th session 2023-05 to 2026-10, at 15:59 ET.
const market = simulatedMarketAt(42, Date.parse("2027-01-01T00:00:00Z"));
const at = (d: string) => sessionBounds(d).closeMs - 60_000;

describe("index volatility on the simulated market", () => {
  const days = tradingDaysBetween("2023-05-01", "2026-10-30");
  const closes = days.map((d) => market.spotSync("SPY", at(d))!);
  const rows: { dd: number; curve: string | null; rr: number; svx30: number; rvNext: number }[] = [];
  for (let i = 25; i < days.length; i += 10) {
    const chain = market.chainSync("SPY", at(days[i]))!;
    const terms = chainTerms(chain);
    const a = svxAll(terms);
    const fut = closes.slice(i, i + 21);
    let ss = 0;
    for (let j = 1; j < fut.length; j++) ss += Math.log(fut[j] / fut[j - 1]) ** 2;
    rows.push({
      dd: closes[i] / Math.max(...closes.slice(i - 20, i + 1)) - 1,
      curve: curveState({ svx9: a.svx9?.value ?? null, svx30: a.svx30?.value ?? null, svx3m: a.svx3m?.value ?? null }),
      rr: skew30(chain, terms)!.rr25_30,
      svx30: a.svx30!.value,
      rvNext: fut.length === 21 ? 100 * Math.sqrt((ss / 20) * 252) : Number.NaN,
    });
  }

  it("has put skew every day", () => {
    expect(rows.length).toBeGreaterThan(80);
    expect(rows.filter((r) => r.rr < 0).length / rows.length).toBeGreaterThanOrEqual(0.95);
  });

  it("inverts the term structure in selloffs far more often than in calm markets", () => {
    const share = (xs: typeof rows) => xs.filter((r) => r.curve === "backwardation").length / xs.length;
    const selloff = rows.filter((r) => r.dd < -0.04);
    const calm = rows.filter((r) => r.dd > -0.01);
    expect(selloff.length).toBeGreaterThan(5);
    expect(calm.length).toBeGreaterThan(5);
    expect(share(selloff)).toBeGreaterThan(2 * share(calm));
  });

  it("prices SVX30 above the next 20 sessions' realized vol on most days (positive VRP)", () => {
    const known = rows.filter((r) => Number.isFinite(r.rvNext));
    expect(known.filter((r) => r.svx30 > r.rvNext).length / known.length).toBeGreaterThan(0.6);
  });
});

describe("single-name earnings in the term structure", () => {
  it("bumps the expiration spanning the report and crushes it after", () => {
    const events = market.earningsSync("AAPL", "2024-01-01", "2025-12-31");
    expect(events.length).toBeGreaterThan(4);
    let bumps = 0;
    let crushes = 0;
    for (const e of events) {
      const before = e.timing === "bmo" ? previousTradingDay(e.date) : e.date;
      const after = nextTradingDay(before);
      const reportMs = e.timing === "bmo" ? sessionBounds(e.date).openMs : sessionBounds(e.date).closeMs;
      const board = market.chainSync("AAPL", at(before))!;
      const rows = termStructure(board);
      const span = rows.findIndex((r) => board.asOfMs + r.tMinutes * 60_000 > reportMs);
      // The expiration spanning the report carries the event variance: its ATM IV stands well
      // above the next expiration's.
      if (span >= 0 && span + 1 < rows.length && rows[span].atmIvDecimal > 1.1 * rows[span + 1].atmIvDecimal) bumps++;
      const svxBefore = svxAll(market.chainSync("AAPL", at(before))!).svx9!.value;
      const svxAfter = svxAll(market.chainSync("AAPL", at(after))!).svx9!.value;
      if (svxAfter < svxBefore) crushes++;
    }
    expect(bumps / events.length).toBeGreaterThanOrEqual(0.8);
    expect(crushes / events.length).toBeGreaterThanOrEqual(0.8);
  });
});
