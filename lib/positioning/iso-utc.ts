/**
 * ISO-8601 UTC text of an instant, without a fractional part when it is whole seconds
 * (`2026-05-22T14:31:00Z`, as the API's examples print it).
 *
 * @example isoUtc(Date.UTC(2026, 4, 22, 14, 31)) // "2026-05-22T14:31:00Z"
 */
export function isoUtc(tsMs: number): string {
  const s = new Date(tsMs).toISOString();
  return s.endsWith(".000Z") ? `${s.slice(0, -5)}Z` : s;
}
