import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EarningsEventSchema, compareTsNs, composeTsNs, formatTsNsIso, parseIsoInstantNs, simulatedEarnings, tsNsToMs } from "../../lib/market/prints";
import { KNOWN_CADENCE } from "../../lib/market/prints/simulated-earnings";
import { isTradingDay } from "../../lib/time";

const DAY_MS = 86_400_000;
const addDaysIso = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

describe("simulated earnings calendar", () => {
  const tickers = ["AAPL", "NVDA", "JPM", "ZZZQ", "ABCD", "KO"];

  it("has one report per calendar quarter, on a trading day, on the name's real cadence or 4-7 weeks after the quarter ends", () => {
    for (const ticker of tickers) {
      const events = simulatedEarnings(42, ticker, "2023-04-01", "2025-03-31");
      expect(events.length).toBe(8);
      for (const e of events) {
        EarningsEventSchema.parse(e);
        expect(isTradingDay(e.date)).toBe(true);
        const year = Number(e.fiscalQuarter!.slice(0, 4));
        const q = Number(e.fiscalQuarter!.slice(5));
        const quarterEnd = Date.UTC(year, q * 3, 0);
        const lagDays = (Date.parse(`${e.date}T00:00:00Z`) - quarterEnd) / DAY_MS;
        const known = KNOWN_CADENCE[ticker];
        if (known) {
          // The report weekday nearest quarter end + the name's lag (+-3 days), up to 4 days to a trading day.
          const lag = (typeof known.days === "number" ? known.days : known.days[q - 1]) + (q === 4 ? (known.q4 ?? 0) : 0);
          expect(new Date(`${e.date}T12:00:00Z`).getUTCDay() === known.weekday || !isTradingDay(addDaysIso(e.date, -1))).toBe(true);
          expect(lagDays).toBeGreaterThanOrEqual(lag - 3);
          expect(lagDays).toBeLessThanOrEqual(lag + 7);
        } else {
          // 28-38 base, +-3 jitter, +7 for Q4, up to 4 days to reach a trading day.
          expect(lagDays).toBeGreaterThanOrEqual(25);
          expect(lagDays).toBeLessThanOrEqual(52);
        }
      }
      const quarters = events.map((e) => e.fiscalQuarter);
      expect(new Set(quarters).size).toBe(8);
      expect(events.map((e) => e.date)).toEqual([...events.map((e) => e.date)].sort());
    }
  });

  it("keeps one timing per ticker and uses real timings for known names", () => {
    for (const ticker of tickers) {
      const timings = new Set(simulatedEarnings(1, ticker, "2023-01-01", "2026-12-31").map((e) => e.timing));
      expect(timings.size).toBe(1);
    }
    expect(simulatedEarnings(1, "AAPL", "2024-01-01", "2024-12-31")[0].timing).toBe("amc");
    expect(simulatedEarnings(1, "JPM", "2024-01-01", "2024-12-31")[0].timing).toBe("bmo");
  });

  it("is deterministic and consistent across overlapping ranges", () => {
    const all = simulatedEarnings(9, "ABCD", "2023-01-01", "2025-12-31");
    expect(simulatedEarnings(9, "ABCD", "2023-01-01", "2025-12-31")).toEqual(all);
    const part = simulatedEarnings(9, "ABCD", "2024-02-01", "2024-09-30");
    expect(part).toEqual(all.filter((e) => e.date >= "2024-02-01" && e.date <= "2024-09-30"));
    expect(simulatedEarnings(9, "ABCD", "2024-05-01", "2024-04-01")).toEqual([]);
  });
});

describe("nanosecond timestamps", () => {
  it("compose and split exactly (checked with BigInt)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 0, max: 999_999 }), (ms, ns) => {
        const s = composeTsNs(ms, ns);
        expect(BigInt(s)).toBe(BigInt(ms) * 1_000_000n + BigInt(ns));
        expect(tsNsToMs(s)).toBe(ms);
      }),
    );
  });

  it("order like BigInt", () => {
    const ns = fc.bigInt({ min: 0n, max: 4_102_444_800_000_000_000n });
    fc.assert(
      fc.property(ns, ns, (a, b) => {
        expect(Math.sign(compareTsNs(a.toString(), b.toString()))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });

  it("parse ISO-8601 with zones and nine fraction digits, and format back", () => {
    expect(parseIsoInstantNs("2024-03-15T13:30:00.000001250Z")).toEqual({
      tsMs: Date.UTC(2024, 2, 15, 13, 30),
      tsNs: "1710509400000001250",
    });
    expect(parseIsoInstantNs("2024-03-15T09:30:00-04:00")?.tsMs).toBe(Date.UTC(2024, 2, 15, 13, 30));
    expect(parseIsoInstantNs("2024-03-15T09:30:00.5+0100")?.tsMs).toBe(Date.UTC(2024, 2, 15, 8, 30, 0, 500));
    for (const bad of ["2024-02-30T00:00:00Z", "2024-03-15T13:30:00", "2024-03-15", "abc", "2024-03-15T24:00:00Z"]) {
      expect(parseIsoInstantNs(bad)).toBeNull();
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 0, max: 999_999 }), (ms, ns) => {
        const s = composeTsNs(ms, ns);
        expect(parseIsoInstantNs(formatTsNsIso(s))?.tsNs).toBe(s);
      }),
    );
  });
});
