import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  OffExchangePrintSchema,
  OptionPrintSchema,
  isMultiLegPrint,
  isSweepPrint,
  optionPrintProfile,
  optionPrintsForMinute,
  simulatedOffExchangePrints,
  simulatedOptionPrints,
  type OptionPrint,
} from "../../lib/market/prints";
import { parseOptionSymbol } from "../../lib/symbols/parse-option-symbol";
import { sessionBounds } from "../../lib/time";
import { SPXW_SPEC, syntheticBoard, syntheticContext } from "./prints-synthetic-board";
import { violations } from "../_helpers/violations";

const DAY = "2024-03-15"; // a Friday with a monthly expiration and a regular session
const session = sessionBounds(DAY);
const AFTER = session.closeMs + 3_600_000;

/** One full regular session of a ticker's prints from the synthetic context. */
function dayOf(ticker: string, seed = 11): OptionPrint[] {
  const { ctx } = syntheticContext(seed, AFTER);
  return simulatedOptionPrints(ctx, ticker, session.openMs, session.closeMs);
}

const spy = dayOf("SPY");
const spxw = dayOf("SPXW");
const aapl = dayOf("AAPL");

const digest = (x: unknown) => createHash("sha256").update(JSON.stringify(x)).digest("hex");

describe("simulated option prints: determinism", () => {
  it("gives the same bytes for the same minute, whatever was generated before", () => {
    const board = syntheticBoard(SPXW_SPEC, DAY, session.openMs);
    const profile = optionPrintProfile("SPXW", "index");
    const at = (minuteMs: number) => optionPrintsForMinute({ seed: 3, root: "SPXW", minuteMs, session, chain: board, spotUsd: 5004, profile });
    const a = at(session.openMs + 60 * 60_000);
    at(session.openMs + 61 * 60_000);
    at(session.openMs);
    const b = at(session.openMs + 60 * 60_000);
    expect(a.length).toBeGreaterThan(0);
    expect(digest(b)).toBe(digest(a));
    // A fresh board object (no memo) gives the same prints too.
    const fresh = optionPrintsForMinute({
      seed: 3,
      root: "SPXW",
      minuteMs: session.openMs + 60 * 60_000,
      session,
      chain: syntheticBoard(SPXW_SPEC, DAY, session.openMs),
      spotUsd: 5004,
      profile,
    });
    expect(digest(fresh)).toBe(digest(a));
  });

  it("does not depend on the range a minute was asked in", () => {
    const { ctx } = syntheticContext(11, AFTER);
    const mid = session.openMs + 97 * 60_000 + 12_345; // mid-minute split point
    const left = simulatedOptionPrints(ctx, "SPY", session.openMs + 90 * 60_000, mid);
    const right = simulatedOptionPrints(ctx, "SPY", mid, session.openMs + 100 * 60_000);
    const whole = spy.filter((p) => p.tsMs >= session.openMs + 90 * 60_000 && p.tsMs < session.openMs + 100 * 60_000);
    expect(digest([...left, ...right])).toBe(digest(whole));
  });

  it("changes with the seed", () => {
    expect(digest(dayOf("AAPL", 12))).not.toBe(digest(aapl));
  });

  it("never returns prints at or after the clock's now", () => {
    const now = session.openMs + 30 * 60_000 + 17_500;
    const { ctx } = syntheticContext(11, now);
    const prints = simulatedOptionPrints(ctx, "SPY", session.openMs, session.closeMs);
    expect(prints.length).toBeGreaterThan(0);
    expect(prints.every((p) => p.tsMs < now)).toBe(true);
    expect(digest(prints)).toBe(digest(spy.filter((p) => p.tsMs < now)));
  });
});

describe("simulated option prints: records", () => {
  it("validate against the schema, are time-ordered and inside the session", () => {
    for (const day of [spy, spxw, aapl]) {
      for (const p of day) OptionPrintSchema.parse(p);
      // One assertion per day: an expect per print costs more than the print (test/_helpers/violations.ts).
      const v = violations();
      for (let i = 1; i < day.length; i++)
        v.check(BigInt(day[i].tsNs) >= BigInt(day[i - 1].tsNs), () => `${day[i].root} print ${i}: ${day[i].tsNs} before ${day[i - 1].tsNs}`);
      v.expectNone("time order");
      expect(day[0].tsMs).toBeGreaterThanOrEqual(session.openMs);
      expect(day[day.length - 1].tsMs).toBeLessThan(session.closeMs);
    }
  });

  it("carry contract symbols that parse back to the record's fields", () => {
    for (const p of [...spy.slice(0, 300), ...spxw.slice(0, 300)]) {
      const c = parseOptionSymbol(p.symbol);
      expect([c.root, c.expiry, c.strike, c.right]).toEqual([p.root, p.expiry, p.strike, p.right]);
    }
  });

  it("have unique ids", () => {
    expect(new Set(spy.map((p) => p.id)).size).toBe(spy.length);
  });
});

describe("simulated option prints: realism", () => {
  it("follow a U-shaped intraday curve (print counts by half hour)", () => {
    const counts = new Array(13).fill(0);
    for (const day of [spy, spxw, aapl]) for (const p of day) counts[Math.floor((p.tsMs - session.openMs) / 1_800_000)]++;
    const middle = counts.slice(3, 10);
    expect(counts[0]).toBeGreaterThan(1.5 * Math.max(...middle));
    expect(counts[12]).toBeGreaterThan(1.2 * Math.max(...middle));
    expect(Math.min(...counts)).toBe(Math.min(...middle));
  });

  it("put most SPXW activity on the 0DTE expiration", () => {
    const share = spxw.filter((p) => p.expiry === DAY).length / spxw.length;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.8);
    // A single name without a same-day expiration has none.
    expect(aapl.some((p) => p.expiry === DAY)).toBe(false);
  });

  it("print at the ask, bid, mid and elsewhere in realistic shares", () => {
    const singles = [...spy, ...spxw, ...aapl].filter((p) => p.conditions[0] === "AUTO");
    let ask = 0,
      bid = 0,
      mid = 0,
      other = 0;
    for (const p of singles) {
      const m = Math.round(((p.nbboBid + p.nbboAsk) / 2) * 100) / 100;
      if (p.price === p.nbboAsk) ask++;
      else if (p.price === p.nbboBid) bid++;
      else if (Math.abs(p.price - m) < 0.006) mid++;
      else other++;
    }
    const n = singles.length;
    expect(n).toBeGreaterThan(20_000);
    // Bands around the commonly quoted split (roughly a third each side, a fifth at the mid).
    expect(ask / n).toBeGreaterThan(0.28);
    expect(ask / n).toBeLessThan(0.45);
    expect(bid / n).toBeGreaterThan(0.25);
    expect(bid / n).toBeLessThan(0.42);
    expect(mid / n).toBeGreaterThan(0.12);
    expect(mid / n).toBeLessThan(0.3);
    expect(other / n).toBeGreaterThan(0.03);
    expect(other / n).toBeLessThan(0.15);
  });

  it("have mostly small sizes with a heavy tail and occasional large blocks", () => {
    const sizes = [...spy, ...aapl].map((p) => p.size).sort((a, b) => a - b);
    const small = sizes.filter((s) => s <= 10).length / sizes.length;
    expect(small).toBeGreaterThan(0.7);
    expect(sizes[Math.floor(sizes.length / 2)]).toBeLessThanOrEqual(5);
    expect(sizes[sizes.length - 1]).toBeGreaterThanOrEqual(500);
    const premiums = [...spy, ...spxw].map((p) => p.price * p.size * 100);
    expect(Math.max(...premiums)).toBeGreaterThan(1_000_000);
  });

  it("contain intermarket sweeps: one side, several exchanges, walking price, within 5 ms", () => {
    const isos = spy.filter(isSweepPrint);
    const sweepShare = isos.length / spy.length;
    expect(sweepShare).toBeGreaterThan(0.05);
    expect(sweepShare).toBeLessThan(0.3);
    // Group consecutive sweep prints of one contract that start within 5 ms of the group's first.
    const groups: OptionPrint[][] = [];
    const open = new Map<string, OptionPrint[]>();
    for (const p of isos) {
      const g = open.get(p.symbol);
      if (g && BigInt(p.tsNs) - BigInt(g[0].tsNs) <= 5_000_000n) g.push(p);
      else {
        const fresh = [p];
        open.set(p.symbol, fresh);
        groups.push(fresh);
      }
    }
    const multi = groups.filter((g) => g.length >= 3);
    expect(multi.length / groups.length).toBeGreaterThan(0.9);
    for (const g of multi) {
      expect(new Set(g.map((p) => p.exchange)).size).toBe(g.length);
      const buy = g[0].price >= g[0].nbboAsk;
      for (let i = 1; i < g.length; i++) {
        if (buy) expect(g[i].price).toBeGreaterThanOrEqual(g[i - 1].price);
        else expect(g[i].price).toBeLessThanOrEqual(g[i - 1].price);
      }
    }
    // Single-listed SPXW cannot be swept across exchanges: its sweeps take the one book, level by level.
    expect(new Set(spxw.map((p) => p.exchange))).toEqual(new Set(["CBOE"]));
    const spxwSweeps = spxw.filter(isSweepPrint);
    expect(spxwSweeps.length / spxw.length).toBeGreaterThan(0.02);
    expect(spxwSweeps.length / spxw.length).toBeLessThan(0.2);
  });

  it("contain multi-leg packages printed together on one exchange", () => {
    for (const day of [spy, spxw]) {
      const legs = day.filter(isMultiLegPrint);
      expect(legs.length / day.length).toBeGreaterThan(0.05);
      const byMs = new Map<string, OptionPrint[]>();
      for (const p of legs) {
        const key = `${p.tsNs.slice(0, -3)}`; // same microsecond
        byMs.set(key, [...(byMs.get(key) ?? []), p]);
      }
      const packages = [...byMs.values()].filter((g) => g.length >= 2);
      expect(packages.length).toBeGreaterThan(50);
      for (const g of packages.slice(0, 50)) {
        expect(new Set(g.map((p) => p.exchange)).size).toBe(1);
        expect(new Set(g.map((p) => p.symbol)).size).toBe(g.length);
      }
    }
  });
});

describe("simulated off-exchange prints", () => {
  const { ctx } = syntheticContext(11, AFTER);
  const ext = sessionBounds(DAY, { extended: true });
  const dark = simulatedOffExchangePrints(ctx, null, ext.openMs, ext.closeMs);
  const bars = ctx.minuteBarsSync("SPY", ext.openMs, ext.closeMs, { extended: true });

  it("validate, stay in time order and skip indices", () => {
    expect(dark.length).toBeGreaterThan(1_000);
    for (const p of dark) OffExchangePrintSchema.parse(p);
    const v = violations();
    for (let i = 1; i < dark.length; i++) v.check(dark[i].tsMs >= dark[i - 1].tsMs, () => `print ${i}: ${dark[i].tsMs} before ${dark[i - 1].tsMs}`);
    v.expectNone("time order");
    expect(new Set(dark.map((p) => p.ticker))).toEqual(new Set(["SPY", "AAPL"]));
  });

  it("use both venues, heavy-tailed block sizes and prices inside the minute's bar", () => {
    const venues = new Set(dark.map((p) => p.venue));
    expect(venues).toEqual(new Set(["FINN", "FINC"]));
    const spyDark = dark.filter((p) => p.ticker === "SPY");
    expect(spyDark.some((p) => p.price * p.size > 10_000_000)).toBe(true);
    const sizes = spyDark.map((p) => p.size).sort((a, b) => a - b);
    expect(sizes[sizes.length - 1] / sizes[Math.floor(sizes.length / 2)]).toBeGreaterThan(50);
    const v = violations();
    for (const p of spyDark.slice(0, 2_000)) {
      const i = bars.t.indexOf(Math.floor(p.tsMs / 60_000) * 60_000);
      v.check(i >= 0, () => `print at ${p.tsMs}: no bar for its minute`);
      const lo = Math.floor(bars.l[i] * 100) / 100 - 1e-9;
      const hi = Math.ceil(bars.h[i] * 100) / 100 + 0.005 + 1e-9;
      v.check(p.price >= lo, () => `print at ${p.tsMs}: price ${p.price} below the bar's low ${bars.l[i]}`);
      v.check(p.price <= hi, () => `print at ${p.tsMs}: price ${p.price} above the bar's high ${bars.h[i]}`);
    }
    v.expectNone("dark prints inside their minute's bar");
  });

  it("are the same per ticker whether asked alone or with others", () => {
    const alone = simulatedOffExchangePrints(ctx, ["AAPL"], ext.openMs, ext.closeMs);
    expect(digest(alone)).toBe(digest(dark.filter((p) => p.ticker === "AAPL")));
  });
});
