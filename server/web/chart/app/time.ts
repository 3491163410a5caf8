// Time on the chart: lightweight-charts draws UTC, so intraday bars are shifted to New York wall time.

const etParts = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** Unix seconds -> the same New York wall-clock time read as UTC, in seconds. */
export function etWallSeconds(sec: number): number {
  const p: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const x of etParts.formatToParts(new Date(sec * 1000))) p[x.type] = x.value;
  return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour! % 24, +p.minute!, +p.second!) / 1000;
}

/** Index of the last bar starting at or before `sec` (-1 when none): the bar a mark belongs to. */
export function barIndexOf(times: readonly number[], sec: number): number {
  let lo = 0;
  let hi = times.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= sec) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return at;
}
