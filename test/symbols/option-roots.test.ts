import { describe, expect, it } from "vitest";
import { isMonthlyExpiration, KNOWN_OPTION_ROOTS, monthlyExpiration, optionRoot, OptionSymbolError, settlementInstantMs } from "../../lib/symbols";
import { CalendarError } from "../../lib/time";

const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

describe("optionRoot", () => {
  it("index roots: PM-settled weeklies/dailies vs AM-settled monthlies (Cboe/Nasdaq product specs)", () => {
    expect(optionRoot("SPXW")).toEqual({ root: "SPXW", underlying: "SPX", settlement: "PM", cycle: "daily", exercise: "european", known: true });
    expect(optionRoot("SPX")).toMatchObject({ underlying: "SPX", settlement: "AM", cycle: "monthly" });
    expect(optionRoot("NDXP")).toMatchObject({ underlying: "NDX", settlement: "PM" });
    expect(optionRoot("NDX")).toMatchObject({ underlying: "NDX", settlement: "AM" });
    expect(optionRoot("RUTW")).toMatchObject({ underlying: "RUT", settlement: "PM" });
    expect(optionRoot("RUT")).toMatchObject({ underlying: "RUT", settlement: "AM" });
    expect(optionRoot("XSP")).toMatchObject({ settlement: "PM", exercise: "european" });
    expect(optionRoot("VIXW")).toMatchObject({ underlying: "VIX", settlement: "AM" });
    expect(KNOWN_OPTION_ROOTS).toEqual(expect.arrayContaining(["SPX", "SPXW", "NDX", "NDXP", "RUT", "RUTW"]));
  });

  it("anything else is an equity/ETF: PM-settled, American, underlying = root", () => {
    expect(optionRoot("AAPL")).toEqual({ root: "AAPL", underlying: "AAPL", settlement: "PM", cycle: "weekly", exercise: "american", known: false });
    expect(optionRoot("SPY")).toMatchObject({ underlying: "SPY", settlement: "PM", exercise: "american", known: true });
    expect(() => optionRoot("aapl")).toThrow(OptionSymbolError);
    expect(() => optionRoot("toString")).toThrow(OptionSymbolError);
  });
});

describe("settlementInstantMs", () => {
  it("AM roots settle at 09:30 ET, PM roots at 16:00 ET (hand-computed UTC)", () => {
    expect(settlementInstantMs("SPX", "2025-06-20")).toBe(utc(2025, 6, 20, 13, 30)); // EDT
    expect(settlementInstantMs("SPXW", "2025-06-20")).toBe(utc(2025, 6, 20, 20, 0));
    expect(settlementInstantMs("SPX", "2025-01-17")).toBe(utc(2025, 1, 17, 14, 30)); // EST
    expect(settlementInstantMs("SPXW", "2025-01-17")).toBe(utc(2025, 1, 17, 21, 0));
    expect(settlementInstantMs("AAPL", "2026-01-16")).toBe(utc(2026, 1, 16, 21, 0));
    expect(settlementInstantMs("NDX", "2024-03-15")).toBe(utc(2024, 3, 15, 13, 30)); // after the 2024-03-10 change
  });

  it("PM settlement follows an early close; a holiday expiry settles the trading day before", () => {
    expect(settlementInstantMs("SPXW", "2024-11-29")).toBe(utc(2024, 11, 29, 18, 0)); // 13:00 EST
    expect(settlementInstantMs("SPX", "2025-04-18")).toBe(utc(2025, 4, 17, 13, 30)); // Good Friday -> Thursday open
    expect(settlementInstantMs("SPXW", "2025-04-18")).toBe(utc(2025, 4, 17, 20, 0));
    expect(settlementInstantMs("SPXW", "2024-03-09")).toBe(utc(2024, 3, 8, 21, 0)); // a Saturday
  });

  it("propagates calendar errors", () => {
    expect(() => settlementInstantMs("SPXW", "2031-01-17")).toThrow(CalendarError);
    expect(() => settlementInstantMs("SPXW", "2025-02-30")).toThrow(CalendarError);
  });
});

describe("monthly expirations", () => {
  it("third Fridays (hand-checked on a printed calendar)", () => {
    expect(monthlyExpiration(2024, 1)).toBe("2024-01-19");
    expect(monthlyExpiration(2024, 3)).toBe("2024-03-15");
    expect(monthlyExpiration(2025, 6)).toBe("2025-06-20");
    expect(monthlyExpiration(2025, 8)).toBe("2025-08-15"); // Aug 1 2025 is a Friday
    expect(monthlyExpiration(2026, 5)).toBe("2026-05-15");
    expect(monthlyExpiration(2030, 12)).toBe("2030-12-20");
  });

  it("a holiday third Friday moves to the trading day before", () => {
    expect(monthlyExpiration(2025, 4)).toBe("2025-04-17"); // Good Friday 2025-04-18
    expect(monthlyExpiration(2022, 4)).toBe("2022-04-14"); // Good Friday 2022-04-15
    expect(monthlyExpiration(2027, 6)).toBe("2027-06-17"); // Juneteenth observed Friday 2027-06-18
    expect(isMonthlyExpiration("2025-04-17")).toBe(true);
    expect(isMonthlyExpiration("2025-04-18")).toBe(false);
  });

  it("exactly one per month, always a Thursday or Friday trading day in days 14-21", () => {
    for (let y = 2020; y <= 2030; y++) {
      for (let m = 1; m <= 12; m++) {
        const days = Array.from(
          { length: new Date(Date.UTC(y, m, 0)).getUTCDate() },
          (_, i) => `${y}-${String(m).padStart(2, "0")}-${String(i + 1).padStart(2, "0")}`,
        ).filter(isMonthlyExpiration);
        expect(days).toEqual([monthlyExpiration(y, m)]);
        const d = new Date(`${days[0]}T00:00:00Z`);
        expect([4, 5]).toContain(d.getUTCDay());
        expect(d.getUTCDate()).toBeGreaterThanOrEqual(14);
        expect(d.getUTCDate()).toBeLessThanOrEqual(21);
      }
    }
  });

  it("rejects bad months", () => {
    expect(() => monthlyExpiration(2025, 13)).toThrow(CalendarError);
    expect(() => monthlyExpiration(2025, 0)).toThrow(CalendarError);
    expect(() => isMonthlyExpiration("2025-04")).toThrow(CalendarError);
  });
});
