/**
 * `Cache-Control` of a `/v1/history` answer, from how fresh the newest session it can reach is.
 * @see docs/methodology.md#cache-control
 */
import { resolutionMinutes, type Resolution } from "./resolution";
import { lowerBound, sessionIndex, upperBound } from "./_sessions";

/** Freshness class of a window: reaches today's (or a future) session, the prior session, or only older ones. */
export type HistoryFreshness = "today" | "prior" | "final";

/** The header value of each class. `private`: every answer is keyed and charged (docs/api.md). */
export const HISTORY_CACHE_CONTROL: Readonly<Record<HistoryFreshness, string>> = Object.freeze({
  today: "private, max-age=2",
  prior: "private, max-age=60",
  final: "private, max-age=31536000, immutable",
});

const ET_DAY_AFTER_EXT_OPEN_MS = 20 * 3_600_000; // 04:00 ET to the next ET midnight (no DST switch on a session day)

/**
 * The freshness class of a window ending at `toSec` (exclusive). The newest session it reaches:
 * intraday, the last session opening before `to`; `D`, the last session dated before `to`; `W`,
 * the last session of that session's week. "Today" is the ET date of `nowMs` once its session's
 * pre-market has opened (04:00 ET); "prior" the session before it (or, when there is no today,
 * the latest session). A window reaching a later session than today is `today` too.
 *
 * @example historyFreshness("D", Date.parse("2024-03-01T00:00:00Z") / 1000, Date.parse("2024-03-06T15:00:00Z")) // "final"
 * @see docs/methodology.md#cache-control
 */
export function historyFreshness(resolution: Resolution, toSec: number, nowMs: number): HistoryFreshness {
  const idx = sessionIndex();
  const toMs = toSec * 1000;
  let last: number;
  if (resolutionMinutes(resolution) !== null) {
    last = lowerBound(idx.extOpenMs, toMs) - 1;
  } else {
    last = lowerBound(idx.midnightMs, toMs) - 1;
    if (resolution === "W" && last >= 0) {
      while (last + 1 < idx.dates.length && idx.week[last + 1] === idx.week[last]) last++;
    }
  }
  if (last < 0) return "final";
  const latest = upperBound(idx.extOpenMs, nowMs) - 1;
  const hasToday = latest >= 0 && nowMs < idx.extOpenMs[latest] + ET_DAY_AFTER_EXT_OPEN_MS;
  const today = hasToday ? latest : latest + 1; // with no today session, the next one stands in for it
  if (last >= today) return "today";
  if (last === today - 1) return "prior";
  return "final";
}

/**
 * The `Cache-Control` value of a successful history answer (errors are `no-store`).
 * @example historyCacheControl("5", Date.parse("2024-03-06T15:00:00Z") / 1000, Date.parse("2024-03-06T15:00:00Z")) // "private, max-age=2"
 */
export function historyCacheControl(resolution: Resolution, toSec: number, nowMs: number): string {
  return HISTORY_CACHE_CONTROL[historyFreshness(resolution, toSec, nowMs)];
}
