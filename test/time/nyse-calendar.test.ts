import { describe, expect, it } from "vitest";
import {
  CALENDAR_FIRST_YEAR,
  CALENDAR_LAST_YEAR,
  CalendarError,
  countTradingDays,
  earlyClosesOfYear,
  holidayName,
  holidaysOfYear,
  isEarlyClose,
  isTradingDay,
  IsoDateSchema,
} from "../../lib/time";
import { easterSundayEpochDay } from "../../lib/time/_easter";
import { formatEpochDay } from "../../lib/time/_civil";
import { codeOf } from "../_helpers/thrown";

/**
 * Full-day closures and 13:00 ET early closes as published by NYSE ("Holidays & Trading Hours",
 * https://www.nyse.com/markets/hours-calendars, and NYSE's yearly holiday announcements) for
 * 2020-2027, and for 2028-2030 worked out by hand from NYSE Rule 7.2 with a printed calendar
 * (NYSE has not published those years yet). Written independently of lib/time's rules.
 */
const PUBLISHED: Record<number, { holidays: string[]; early: string[] }> = {
  2020: {
    holidays: ["01-01", "01-20", "02-17", "04-10", "05-25", "07-03", "09-07", "11-26", "12-25"],
    early: ["11-27", "12-24"],
  },
  2021: {
    holidays: ["01-01", "01-18", "02-15", "04-02", "05-31", "07-05", "09-06", "11-25", "12-24"],
    early: ["11-26"],
  },
  2022: {
    holidays: ["01-17", "02-21", "04-15", "05-30", "06-20", "07-04", "09-05", "11-24", "12-26"],
    early: ["11-25"],
  },
  2023: {
    holidays: ["01-02", "01-16", "02-20", "04-07", "05-29", "06-19", "07-04", "09-04", "11-23", "12-25"],
    early: ["07-03", "11-24"],
  },
  2024: {
    holidays: ["01-01", "01-15", "02-19", "03-29", "05-27", "06-19", "07-04", "09-02", "11-28", "12-25"],
    early: ["07-03", "11-29", "12-24"],
  },
  2025: {
    holidays: ["01-01", "01-09", "01-20", "02-17", "04-18", "05-26", "06-19", "07-04", "09-01", "11-27", "12-25"],
    early: ["07-03", "11-28", "12-24"],
  },
  2026: {
    holidays: ["01-01", "01-19", "02-16", "04-03", "05-25", "06-19", "07-03", "09-07", "11-26", "12-25"],
    early: ["11-27", "12-24"],
  },
  2027: {
    holidays: ["01-01", "01-18", "02-15", "03-26", "05-31", "06-18", "07-05", "09-06", "11-25", "12-24"],
    early: ["11-26"],
  },
  2028: {
    holidays: ["01-17", "02-21", "04-14", "05-29", "06-19", "07-04", "09-04", "11-23", "12-25"],
    early: ["07-03", "11-24"],
  },
  2029: {
    holidays: ["01-01", "01-15", "02-19", "03-30", "05-28", "06-19", "07-04", "09-03", "11-22", "12-25"],
    early: ["07-03", "11-23", "12-24"],
  },
  2030: {
    holidays: ["01-01", "01-21", "02-18", "04-19", "05-27", "06-19", "07-04", "09-02", "11-28", "12-25"],
    early: ["07-03", "11-29", "12-24"],
  },
};

/** Trading days per year as widely reported for NYSE (e.g. NYSE/Nasdaq annual statistics). */
const TRADING_DAYS_PER_YEAR: Record<number, number> = { 2020: 253, 2021: 252, 2022: 251, 2023: 250, 2024: 252, 2025: 250 };

/** Western Easter Sunday, from the US Naval Observatory's table of Easter dates. */
const EASTER: Record<number, string> = {
  2020: "2020-04-12",
  2021: "2021-04-04",
  2022: "2022-04-17",
  2023: "2023-04-09",
  2024: "2024-03-31",
  2025: "2025-04-20",
  2026: "2026-04-05",
  2027: "2027-03-28",
  2028: "2028-04-16",
  2029: "2029-04-01",
  2030: "2030-04-21",
  2038: "2038-04-25",
  2285: "2285-03-22",
};

describe("NYSE calendar against the published tables", () => {
  it("covers 2020 through 2030", () => {
    expect(CALENDAR_FIRST_YEAR).toBeLessThanOrEqual(2023);
    expect(CALENDAR_LAST_YEAR).toBeGreaterThanOrEqual(2030);
  });

  for (const [year, { holidays, early }] of Object.entries(PUBLISHED)) {
    it(`${year}: holidays and early closes`, () => {
      expect(holidaysOfYear(Number(year)).map((h) => h.date)).toEqual(holidays.map((d) => `${year}-${d}`));
      expect(earlyClosesOfYear(Number(year))).toEqual(early.map((d) => `${year}-${d}`));
      for (const d of holidays) expect(isTradingDay(`${year}-${d}`)).toBe(false);
      for (const d of early) {
        expect(isTradingDay(`${year}-${d}`)).toBe(true);
        expect(isEarlyClose(`${year}-${d}`)).toBe(true);
      }
    });
  }

  it("trading days per year match the reported counts", () => {
    for (const [year, n] of Object.entries(TRADING_DAYS_PER_YEAR)) {
      expect(countTradingDays(`${year}-01-01`, `${year}-12-31`)).toBe(n);
    }
  });

  it("Easter Sunday matches the USNO table", () => {
    for (const [year, date] of Object.entries(EASTER)) expect(formatEpochDay(easterSundayEpochDay(Number(year)))).toBe(date);
  });

  it("every weekday is either a holiday or a trading day, and every trading day is a weekday", () => {
    for (let y = CALENDAR_FIRST_YEAR; y <= CALENDAR_LAST_YEAR; y++) {
      const holidays = new Set(holidaysOfYear(y).map((h) => h.date));
      const early = new Set(earlyClosesOfYear(y));
      for (let t = Date.UTC(y, 0, 1); t < Date.UTC(y + 1, 0, 1); t += 86_400_000) {
        const date = new Date(t).toISOString().slice(0, 10);
        const weekday = new Date(t).getUTCDay();
        const weekend = weekday === 0 || weekday === 6;
        expect(isTradingDay(date)).toBe(!weekend && !holidays.has(date));
        expect(isEarlyClose(date)).toBe(early.has(date));
        if (early.has(date)) expect(isTradingDay(date)).toBe(true);
        expect(holidayName(date) !== null).toBe(holidays.has(date));
      }
    }
  });
});

describe("holiday rules", () => {
  it("names closures and returns null on trading days and weekends", () => {
    expect(holidayName("2025-01-09")).toBe("National Day of Mourning for President Jimmy Carter");
    expect(holidayName("2026-07-03")).toBe("Independence Day");
    expect(holidayName("2024-03-29")).toBe("Good Friday");
    expect(holidayName("2022-06-20")).toBe("Juneteenth National Independence Day");
    expect(holidayName("2026-07-04")).toBeNull(); // Saturday: observed the day before
    expect(holidayName("2024-07-05")).toBeNull();
  });

  it("Juneteenth is a closure only from 2022 (first observed by NYSE in 2022)", () => {
    expect(isTradingDay("2021-06-18")).toBe(true);
    expect(holidaysOfYear(2021).some((h) => h.name.startsWith("Juneteenth"))).toBe(false);
    for (let y = 2022; y <= CALENDAR_LAST_YEAR; y++) {
      expect(holidaysOfYear(y).filter((h) => h.name.startsWith("Juneteenth"))).toHaveLength(1);
    }
  });

  it("a Saturday New Year's Day closes nothing on the Friday before (NYSE Rule 7.2)", () => {
    expect(isTradingDay("2021-12-31")).toBe(true); // 2022-01-01 is a Saturday
    expect(isTradingDay("2027-12-31")).toBe(true); // 2028-01-01 is a Saturday
    expect(isTradingDay("2023-01-02")).toBe(false); // 2023-01-01 Sunday -> Monday closed
  });

  it("no early close before a weekend or observed Independence Day", () => {
    expect(isEarlyClose("2026-07-02")).toBe(false); // July 3 2026 (Fri) is the holiday
    expect(isEarlyClose("2027-07-02")).toBe(false); // July 4 2027 is a Sunday
    expect(isEarlyClose("2023-12-22")).toBe(false); // Dec 24 2023 is a Sunday
  });

  it("holiday tables are memoized and frozen", () => {
    expect(holidaysOfYear(2024)).toBe(holidaysOfYear(2024));
    expect(Object.isFrozen(holidaysOfYear(2024))).toBe(true);
  });

  it("throws typed errors for malformed and uncovered input", () => {
    expect(codeOf(CalendarError, () => isTradingDay("2024-02-30"))).toBe("invalid_date");
    expect(codeOf(CalendarError, () => isTradingDay("2024-2-03"))).toBe("invalid_date");
    expect(codeOf(CalendarError, () => isTradingDay("2024-02-03T00:00"))).toBe("invalid_date");
    expect(codeOf(CalendarError, () => isTradingDay(20240203 as unknown as string))).toBe("invalid_date");
    expect(codeOf(CalendarError, () => isTradingDay("2019-12-31"))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => isTradingDay("2031-01-02"))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => holidaysOfYear(2031))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => holidaysOfYear(2024.5))).toBe("invalid_argument");
    expect(codeOf(CalendarError, () => holidayName("2024-13-01"))).toBe("invalid_date");
  });

  it("IsoDateSchema accepts exactly real YYYY-MM-DD dates", () => {
    expect(IsoDateSchema.safeParse("2024-02-29").success).toBe(true);
    expect(IsoDateSchema.safeParse("2023-02-29").success).toBe(false);
    expect(IsoDateSchema.safeParse("2024-2-29").success).toBe(false);
  });
});
