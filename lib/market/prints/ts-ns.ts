/**
 * Nanosecond timestamps without bigint: `tsNs` is a decimal string of nanoseconds since the Unix
 * epoch (exact), and every record also carries `tsMs`, its millisecond floor, for arithmetic and
 * binary search. @see docs/methodology.md#timestamps
 */

const NS_PATTERN = /^(0|[1-9][0-9]{0,19})$/;

/**
 * Builds the exact nanosecond string from a whole-millisecond instant and the nanoseconds inside
 * that millisecond.
 * @param tsMs whole milliseconds since the epoch (integer, >= 0)
 * @param subMsNs nanoseconds within the millisecond, integer 0..999_999
 * @example
 * composeTsNs(1_710_509_400_000, 1_250); // "1710509400000001250"
 */
export function composeTsNs(tsMs: number, subMsNs: number): string {
  if (tsMs === 0) return String(subMsNs);
  return String(tsMs) + String(subMsNs).padStart(6, "0");
}

/**
 * The millisecond floor of a nanosecond string.
 * @example
 * tsNsToMs("1710509400000001250"); // 1710509400000
 */
export function tsNsToMs(tsNs: string): number {
  return tsNs.length <= 6 ? 0 : Number(tsNs.slice(0, -6));
}

/** True when `text` is a canonical nanosecond string (digits, no leading zeros). */
export function isTsNs(text: string): boolean {
  return NS_PATTERN.test(text);
}

/**
 * Orders two canonical nanosecond strings (negative, zero, positive like `Array.sort`).
 * @example
 * compareTsNs("999", "1000"); // -1
 */
export function compareTsNs(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Parses an ISO-8601 instant with an explicit zone (`Z` or `±HH:MM`) and up to nine fraction
 * digits into `{tsMs, tsNs}`; returns `null` for anything else (including impossible dates).
 * @example
 * parseIsoInstantNs("2024-03-15T13:30:00.000001250Z"); // {tsMs: 1710509400000, tsNs: "1710509400000001250"}
 */
export function parseIsoInstantNs(text: string): { tsMs: number; tsNs: string } | null {
  const m = ISO_PATTERN.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "00", frac = "", zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const baseMs = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2024-02-30 into March; a real calendar date must survive the round trip.
  if (new Date(baseMs).getUTCDate() !== day) return null;
  let offsetMin = 0;
  if (zone !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4));
    if (oh > 23 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  }
  const fracNs = Number(frac.padEnd(9, "0"));
  const tsMs = baseMs - offsetMin * 60_000 + Math.floor(fracNs / 1_000_000);
  if (tsMs < 0) return null;
  return { tsMs, tsNs: composeTsNs(tsMs, fracNs % 1_000_000) };
}

/**
 * Formats a nanosecond string as ISO-8601 UTC with nine fraction digits.
 * @example
 * formatTsNsIso("1710509400000001250"); // "2024-03-15T13:30:00.000001250Z"
 */
export function formatTsNsIso(tsNs: string): string {
  const tsMs = tsNsToMs(tsNs);
  const subMs = tsNs.length <= 6 ? tsNs.padStart(6, "0") : tsNs.slice(-6);
  const iso = new Date(tsMs).toISOString(); // ...SS.mmmZ
  return `${iso.slice(0, 23)}${subMs}Z`;
}
