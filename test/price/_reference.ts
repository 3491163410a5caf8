// Slow, readable references for the price module, written against lib/time's public calendar
// functions only (no binary searches, no shared session table), to check lib/price against.
import type { MinuteBarColumns, PriceBars } from "../../lib/price";
import { etDateOf, isTradingDay, minutesOfSession, sessionBounds } from "../../lib/time";
import { mulberry32 } from "../../bench/_mulberry32";

export interface RefBar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  bv?: number;
  sv?: number;
  uv?: number;
}

const MIN = 60_000;

function addTo(groups: Map<number, RefBar>, key: number, m: MinuteBarColumns, j: number): void {
  const sided = !!(m.bv && m.sv && m.uv);
  const g = groups.get(key);
  if (!g) {
    groups.set(key, {
      t: key,
      o: m.o[j],
      h: m.h[j],
      l: m.l[j],
      c: m.c[j],
      v: m.v[j],
      ...(sided ? { bv: m.bv![j], sv: m.sv![j], uv: m.uv![j] } : {}),
    });
    return;
  }
  g.h = Math.max(g.h, m.h[j]);
  g.l = Math.min(g.l, m.l[j]);
  g.c = m.c[j];
  g.v += m.v[j];
  if (sided) {
    g.bv! += m.bv![j];
    g.sv! += m.sv![j];
    g.uv! += m.uv![j];
  }
}

/** Intraday reference: each minute's session looked up by its ET date; bucket = open + k * res. */
export function refIntraday(m: MinuteBarColumns, minutes: number, extended: boolean): RefBar[] {
  const groups = new Map<number, RefBar>();
  for (let j = 0; j < m.t.length; j++) {
    const date = etDateOf(m.t[j]);
    if (!isTradingDay(date)) continue;
    const { openMs, closeMs } = sessionBounds(date, { extended });
    if (m.t[j] < openMs || m.t[j] >= closeMs) continue;
    const key = openMs + Math.floor((m.t[j] - openMs) / (minutes * MIN)) * minutes * MIN;
    addTo(groups, key, m, j);
  }
  return [...groups.values()].sort((a, b) => a.t - b.t);
}

/** `YYYY-MM-DD` at 00:00 UTC, ms. */
export function utcMidnight(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Daily reference: regular-session minutes grouped by ET date, keyed at 00:00 UTC of that date. */
export function refDaily(m: MinuteBarColumns): RefBar[] {
  const groups = new Map<number, RefBar>();
  for (let j = 0; j < m.t.length; j++) {
    const date = etDateOf(m.t[j]);
    if (!isTradingDay(date)) continue;
    const { openMs, closeMs } = sessionBounds(date);
    if (m.t[j] < openMs || m.t[j] >= closeMs) continue;
    addTo(groups, utcMidnight(date), m, j);
  }
  return [...groups.values()].sort((a, b) => a.t - b.t);
}

/** Monday (00:00 UTC, ms) of the week of a UTC-midnight instant. */
export function mondayOf(ms: number): number {
  const dow = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0
  return ms - dow * 86_400_000;
}

/** Weekly reference from the daily reference: grouped by Monday, keyed at the first day's time. */
export function refWeekly(daily: RefBar[]): RefBar[] {
  const out: RefBar[] = [];
  let week = Number.NaN;
  for (const d of daily) {
    const w = mondayOf(d.t);
    if (w !== week) {
      out.push({ ...d });
      week = w;
      continue;
    }
    const g = out[out.length - 1];
    g.h = Math.max(g.h, d.h);
    g.l = Math.min(g.l, d.l);
    g.c = d.c;
    g.v += d.v;
    if (g.bv !== undefined) {
      g.bv += d.bv!;
      g.sv! += d.sv!;
      g.uv! += d.uv!;
    }
  }
  return out;
}

/** Bars as rows (for toEqual against the references). */
export function rows(b: PriceBars): RefBar[] {
  const out: RefBar[] = [];
  for (let i = 0; i < b.t.length; i++) {
    const r: RefBar = { t: b.t[i], o: b.o[i], h: b.h[i], l: b.l[i], c: b.c[i], v: b.v[i] };
    if (b.bv && b.sv && b.uv) {
      r.bv = b.bv[i];
      r.sv = b.sv[i];
      r.uv = b.uv[i];
    }
    out.push(r);
  }
  return out;
}

/**
 * Synthetic one-minute bars over the extended sessions of `dates` (plus a few off-session minutes
 * on non-trading days), with a fraction of minutes dropped. Integer volumes, sided when `sided`.
 */
export function syntheticMinutes(dates: string[], seed: number, options: { drop?: number; sided?: boolean } = {}): MinuteBarColumns {
  const r = mulberry32(seed);
  const t: number[] = [];
  for (const d of dates) {
    if (!isTradingDay(d)) {
      t.push(Date.parse(`${d}T15:00:00Z`));
      continue;
    }
    for (const m of minutesOfSession(d, { extended: true })) if (r() >= (options.drop ?? 0)) t.push(m);
  }
  t.sort((a, b) => a - b);
  const n = t.length;
  const cols = { t: Float64Array.from(t), o: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n), c: new Float64Array(n), v: new Float64Array(n) };
  const sided = { bv: new Float64Array(n), sv: new Float64Array(n), uv: new Float64Array(n) };
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    const c = Math.round((p + (r() - 0.5)) * 100) / 100;
    cols.o[i] = o;
    cols.c[i] = c;
    cols.h[i] = Math.max(o, c) + Math.round(r() * 30) / 100;
    cols.l[i] = Math.min(o, c) - Math.round(r() * 30) / 100;
    const v = Math.floor(r() * 5000);
    const bv = Math.floor(v * r());
    const sv = Math.floor((v - bv) * r());
    cols.v[i] = v;
    sided.bv[i] = bv;
    sided.sv[i] = sv;
    sided.uv[i] = v - bv - sv;
    p = c;
  }
  return options.sided === false ? cols : { ...cols, ...sided };
}

/** Every trading day between two dates plus the weekend/holiday dates in between (for off-session minutes). */
export function calendarDates(from: string, to: string): string[] {
  const out: string[] = [];
  for (let ms = utcMidnight(from); ms <= utcMidnight(to); ms += 86_400_000) out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
}
