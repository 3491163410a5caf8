// ET date and minute labels of the page, from the browser's own Intl (one formatter each, made on
// first use): the page's first paint must not wait for lib/time's trading calendar, which builds
// its tables on first call (it is used later, for replay instants and session bounds).

let hhmm: Intl.DateTimeFormat | undefined;
let ymd: Intl.DateTimeFormat | undefined;

/** ET "HH:MM" (24 h) of an instant. */
export function etHhmm(ms: number): string {
  hhmm ??= new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return hhmm.format(ms);
}

/** ET calendar date "YYYY-MM-DD" of an instant (lib/time's etDateOf, without its tables). */
export function etYmd(ms: number): string {
  ymd ??= new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });
  const part = (type: string) => ymd!.formatToParts(ms).find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}
