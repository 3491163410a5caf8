/**
 * Simulated earnings calendar: one report per calendar quarter for every stock, 4-6 weeks after
 * the quarter ends, on a trading day, before the open or after the close.
 * @see docs/methodology.md#earnings-calendar
 */
import { isTradingDay, nextTradingDay } from "../../time";
import type { IsoDate } from "../market-data";
import { createRng, hashText } from "./_rng";
import type { EarningsEvent } from "./schemas";

const DAY_MS = 86_400_000;

/** Parameters of the calendar. @see docs/methodology.md#earnings-calendar */
export const EARNINGS_PARAMS = {
  /** Per-ticker base delay after quarter end, calendar days (uniform integer range). */
  baseDelayDays: [28, 38] as const,
  /** Extra delay for the fourth quarter (annual reports take longer), calendar days. */
  q4ExtraDays: 7,
  /** Per-quarter jitter, calendar days (uniform integer range). */
  jitterDays: [-3, 3] as const,
  /** Probability that a ticker without a known timing reports after the close. */
  amcShare: 0.6,
} as const;

/** Known report timings of widely followed names (as they have reported in 2023-2024). */
const KNOWN_TIMING: Readonly<Record<string, "bmo" | "amc">> = {
  AAPL: "amc",
  MSFT: "amc",
  NVDA: "amc",
  AMZN: "amc",
  GOOGL: "amc",
  GOOG: "amc",
  META: "amc",
  TSLA: "amc",
  NFLX: "amc",
  AMD: "amc",
  INTC: "amc",
  CRM: "amc",
  ORCL: "amc",
  ADBE: "amc",
  AVGO: "amc",
  COST: "amc",
  V: "amc",
  QCOM: "amc",
  PLTR: "amc",
  COIN: "amc",
  SMCI: "amc",
  JPM: "bmo",
  BAC: "bmo",
  WFC: "bmo",
  C: "bmo",
  GS: "bmo",
  MS: "bmo",
  WMT: "bmo",
  JNJ: "bmo",
  XOM: "bmo",
  CVX: "bmo",
  UNH: "bmo",
  PG: "bmo",
  KO: "bmo",
  PEP: "bmo",
  MCD: "bmo",
  MA: "bmo",
  HD: "bmo",
  LLY: "bmo",
  PFE: "bmo",
  MRK: "bmo",
  CAT: "bmo",
  BA: "bmo",
  DIS: "bmo",
  MU: "amc",
  NKE: "amc",
  SNOW: "amc",
  CRWD: "amc",
  PANW: "amc",
  AMAT: "amc",
  CSCO: "amc",
  LOW: "bmo",
  PDD: "bmo",
  BABA: "bmo",
  NIO: "bmo",
};

/**
 * Real reporting cadence of widely followed names (2023-2025 releases): the weekday they report on
 * (0 Sunday) and the days after the calendar quarter's end it lands near; `q4` adds days for
 * the quarter that closes their fiscal year where that report comes later. The report is the
 * nearest such weekday to quarter end + `days`. @see docs/methodology.md#earnings-calendar
 */
export const KNOWN_CADENCE: Readonly<Record<string, { weekday: number; days: number | readonly [number, number, number, number]; q4?: number }>> = {
  AAPL: { weekday: 4, days: 32 },
  MSFT: { weekday: 3, days: 28 },
  GOOGL: { weekday: 2, days: 29 },
  AMZN: { weekday: 4, days: 31 },
  META: { weekday: 3, days: 30 },
  TSLA: { weekday: 3, days: 23 },
  NFLX: { weekday: 4, days: 17 },
  NVDA: { weekday: 3, days: 55 },
  AMD: { weekday: 2, days: 30 },
  INTC: { weekday: 4, days: 27 },
  JPM: { weekday: 5, days: 13 },
  BAC: { weekday: 2, days: 15 },
  WFC: { weekday: 5, days: 13 },
  C: { weekday: 5, days: 13 },
  GS: { weekday: 2, days: 15 },
  MS: { weekday: 2, days: 16 },
  UNH: { weekday: 2, days: 15 },
  JNJ: { weekday: 2, days: 16 },
  KO: { weekday: 2, days: 24, q4: 20 },
  PG: { weekday: 5, days: 20 },
  XOM: { weekday: 5, days: 31 },
  CVX: { weekday: 5, days: 31 },
  WMT: { weekday: 4, days: 47 },
  // Fiscal years off the calendar: the report lands 1.5-3 months after the calendar quarter's end.
  ORCL: { weekday: 2, days: 71 },
  ADBE: { weekday: 4, days: 73 },
  AVGO: { weekday: 4, days: [73, 66, 72, 65] },
  MU: { weekday: 3, days: [86, 85, 79, 79] },
  NKE: { weekday: 4, days: [87, 92, 80, 79] },
  COST: { weekday: 4, days: [59, 87, 72, 65] },
  CRM: { weekday: 3, days: 61 },
  SNOW: { weekday: 3, days: 54 },
  CRWD: { weekday: 2, days: 60 },
  PANW: { weekday: 2, days: 49 },
  HD: { weekday: 2, days: 50, q4: 6 },
  LOW: { weekday: 3, days: 51, q4: 6 },
  AMAT: { weekday: 4, days: 45 },
  CSCO: { weekday: 3, days: 44 },
  PDD: { weekday: 2, days: 56, q4: 22 },
  BABA: { weekday: 4, days: 50 },
  NIO: { weekday: 2, days: 60, q4: 20 },
};

function addDays(date: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The date itself when it is a trading day, else the next one (weekdays only outside the calendar's years). */
function onTradingDay(date: IsoDate): IsoDate {
  try {
    return isTradingDay(date) ? date : nextTradingDay(date);
  } catch {
    let d = date;
    for (let dow = new Date(`${d}T12:00:00Z`).getUTCDay(); dow === 0 || dow === 6; dow = (dow + 1) % 7) d = addDays(d, 1);
    return d;
  }
}

/** Whether a ticker reports before the open or after the close (fixed per ticker and seed). */
export function earningsTiming(seed: number, ticker: string): "bmo" | "amc" {
  const known = KNOWN_TIMING[ticker];
  if (known) return known;
  return createRng(hashText(`${seed}|${ticker}|earnings`), 0).next() < EARNINGS_PARAMS.amcShare ? "amc" : "bmo";
}

/**
 * Earnings reports of a stock with `fromDate <= date <= toDate`, in date order. Pure in its
 * arguments (no market access), so the spot paths can read it for earnings gaps. Call it for
 * stocks only: indices and ETFs do not report.
 * @example
 * simulatedEarnings(42, "AAPL", "2024-01-01", "2024-12-31").length; // 4
 * @see docs/methodology.md#earnings-calendar
 */
export function simulatedEarnings(seed: number, ticker: string, fromDate: IsoDate, toDate: IsoDate): EarningsEvent[] {
  if (!(fromDate <= toDate)) return [];
  const P = EARNINGS_PARAMS;
  const base = createRng(hashText(`${seed}|${ticker}|earnings`), 1).int(P.baseDelayDays[0], P.baseDelayDays[1]);
  const timing = earningsTiming(seed, ticker);
  const out: EarningsEvent[] = [];
  // A quarter ending up to ~2 months before fromDate can still report inside the range.
  for (let year = Number(fromDate.slice(0, 4)) - 1; year <= Number(toDate.slice(0, 4)); year++) {
    for (let q = 1; q <= 4; q++) {
      const quarterEnd = new Date(Date.UTC(year, q * 3, 0)).toISOString().slice(0, 10);
      const known = KNOWN_CADENCE[ticker];
      let date: IsoDate;
      if (known) {
        // The report weekday nearest quarter end + its usual lag.
        const lag = typeof known.days === "number" ? known.days : known.days[q - 1];
        const target = addDays(quarterEnd, lag + (q === 4 ? (known.q4 ?? 0) : 0));
        const dow = new Date(`${target}T12:00:00Z`).getUTCDay();
        const shift = ((known.weekday - dow + 10) % 7) - 3; // in [-3, 3]
        date = onTradingDay(addDays(target, shift));
      } else {
        const jitter = createRng(hashText(`${seed}|${ticker}|earnings`), year * 4 + q).int(P.jitterDays[0], P.jitterDays[1]);
        date = onTradingDay(addDays(quarterEnd, base + jitter + (q === 4 ? P.q4ExtraDays : 0)));
      }
      if (date >= fromDate && date <= toDate) out.push({ ticker, date, timing, fiscalQuarter: `${year}Q${q}` });
    }
  }
  return out;
}
