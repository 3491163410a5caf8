/**
 * The scheduled macro calendar the simulated market trades around: FOMC decisions (14:00 ET),
 * CPI releases (08:30 ET, before the open) and the 2024 US election (results overnight). The
 * published dates for 2023-2026 (FOMC) and 2023-2025 (CPI), a rule after that.
 * @see docs/methodology.md#event-calendar
 */
import { etInstant, isTradingDay, nextTradingDay } from "../../time";
import { MACRO_EVENTS } from "./params";

/** One scheduled event: when the news lands and the sd of the market's move it brings. */
export interface MacroEvent {
  kind: "fomc" | "cpi" | "election";
  /** Session date the move belongs to (CPI and election: that session's open gap). */
  date: string;
  /** Instant the news lands, ms. */
  releaseMs: number;
  /** "pre": before that session's open (lands in the overnight return); "intraday": during it. */
  when: "pre" | "intraday";
  /** Sd of the S&P 500's extra log return. */
  sd: number;
}

/** FOMC decision days (second day of the meeting), Federal Reserve calendars 2023-2026. */
const FOMC: readonly string[] = [
  "2023-05-03",
  "2023-06-14",
  "2023-07-26",
  "2023-09-20",
  "2023-11-01",
  "2023-12-13",
  "2024-01-31",
  "2024-03-20",
  "2024-05-01",
  "2024-06-12",
  "2024-07-31",
  "2024-09-18",
  "2024-11-07",
  "2024-12-18",
  "2025-01-29",
  "2025-03-19",
  "2025-05-07",
  "2025-06-18",
  "2025-07-30",
  "2025-09-17",
  "2025-10-29",
  "2025-12-10",
  "2026-01-28",
  "2026-03-18",
  "2026-04-29",
  "2026-06-17",
  "2026-07-29",
  "2026-09-16",
  "2026-10-28",
  "2026-12-09",
];

/** CPI release days, BLS schedules 2023-2025 (October 2025's was delayed to the 24th). */
const CPI: readonly string[] = [
  "2023-04-12",
  "2023-05-10",
  "2023-06-13",
  "2023-07-12",
  "2023-08-10",
  "2023-09-13",
  "2023-10-12",
  "2023-11-14",
  "2023-12-12",
  "2024-01-11",
  "2024-02-13",
  "2024-03-12",
  "2024-04-10",
  "2024-05-15",
  "2024-06-12",
  "2024-07-11",
  "2024-08-14",
  "2024-09-11",
  "2024-10-10",
  "2024-11-13",
  "2024-12-11",
  "2025-01-15",
  "2025-02-12",
  "2025-03-12",
  "2025-04-10",
  "2025-05-13",
  "2025-06-11",
  "2025-07-15",
  "2025-08-12",
  "2025-09-11",
  "2025-10-24",
];

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The n-th given weekday (0 Sunday) of a month on or after day `from`. */
function weekdayOnOrAfter(year: number, month: number, from: number, weekday: number): string {
  const start = Date.UTC(year, month - 1, from);
  const dow = new Date(start).getUTCDay();
  return iso(start + ((weekday - dow + 7) % 7) * DAY_MS);
}

function onTradingDay(date: string): string {
  return isTradingDay(date) ? date : nextTradingDay(date);
}

let cache: MacroEvent[] | undefined;

/**
 * Every macro event from 2023-03-28 to the calendar's end, by release time. After the published
 * schedules: FOMC on the Wednesday on or after the 15th of Jan, Mar, Apr/May (May 1st), Jun, Jul,
 * Sep, Oct/Nov (Oct 28th), Dec 9th; CPI on the Wednesday on or after the 10th of every month.
 * @example
 * macroEvents().find((e) => e.kind === "fomc")?.date; // "2023-05-03"
 */
export function macroEvents(): readonly MacroEvent[] {
  if (cache) return cache;
  const out: MacroEvent[] = [];
  const add = (kind: MacroEvent["kind"], date: string) => {
    const d = onTradingDay(date);
    if (kind === "fomc") out.push({ kind, date: d, releaseMs: etInstant(d, "14:00"), when: "intraday", sd: MACRO_EVENTS.fomcSd });
    else if (kind === "cpi") out.push({ kind, date: d, releaseMs: etInstant(d, "08:30"), when: "pre", sd: MACRO_EVENTS.cpiSd });
    else out.push({ kind, date: d, releaseMs: etInstant(d, "00:30"), when: "pre", sd: MACRO_EVENTS.electionSd });
  };
  for (const d of FOMC) add("fomc", d);
  for (const d of CPI) add("cpi", d);
  add("election", "2024-11-06");
  for (let y = 2027; y <= 2030; y++) {
    for (const [m, from] of [
      [1, 25],
      [3, 15],
      [5, 1],
      [6, 15],
      [7, 25],
      [9, 15],
      [10, 28],
      [12, 9],
    ] as const) {
      add("fomc", weekdayOnOrAfter(y, m, from, 3));
    }
  }
  for (let y = 2025; y <= 2030; y++) {
    for (let m = 1; m <= 12; m++) if (y > 2025 || m > 10) add("cpi", weekdayOnOrAfter(y, m, 10, 3));
  }
  out.sort((a, b) => a.releaseMs - b.releaseMs);
  cache = out.filter((e) => e.date >= "2023-03-28" && e.date <= "2030-12-31");
  return cache;
}

/** Macro events by session date (the session whose return carries the move). */
export function macroEventsByDate(): ReadonlyMap<string, MacroEvent[]> {
  const m = new Map<string, MacroEvent[]>();
  for (const e of macroEvents()) m.set(e.date, [...(m.get(e.date) ?? []), e]);
  return m;
}
