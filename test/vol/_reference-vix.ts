// A slow, readable reference of one VIX term (arrays of objects, filter/map), written from the
// Cboe white paper's prose independently of lib/vol/vix-term.ts. Used as an oracle on random boards.
import type { VixTermQuotes } from "../../lib/vol";

interface Row {
  k: number;
  cb: number;
  ca: number;
  pb: number;
  pa: number;
}

export function referenceVixTerm(quotes: VixTermQuotes, tMinutes: number, rate: number): { forward: number; k0: number; strikes: number[]; variance: number } | null {
  const rows: Row[] = Array.from(quotes.strike, (k, i) => ({
    k,
    cb: quotes.callBid[i],
    ca: quotes.callAsk[i],
    pb: quotes.putBid[i],
    pa: quotes.putAsk[i],
  }));
  const T = tMinutes / 525_600;
  const mid = (b: number, a: number) => (b + a) / 2;
  const twoSided = rows.filter((r) => r.cb > 0 && r.pb > 0 && r.ca >= r.cb && r.pa >= r.pb);
  if (twoSided.length === 0) return null;
  const diffs = twoSided.map((r) => Math.abs(mid(r.cb, r.ca) - mid(r.pb, r.pa)));
  const at = twoSided[diffs.indexOf(Math.min(...diffs))];
  const F = at.k + Math.exp(rate * T) * (mid(at.cb, at.ca) - mid(at.pb, at.pa));
  const below = rows.filter((r) => r.k <= F);
  if (below.length === 0) return null;
  const k0Row = below[below.length - 1];

  const side = (candidates: Row[], bid: (r: Row) => number, ask: (r: Row) => number) => {
    const out: { k: number; q: number }[] = [];
    let zeros = 0;
    for (const r of candidates) {
      if (bid(r) > 0 && ask(r) >= bid(r)) {
        out.push({ k: r.k, q: mid(bid(r), ask(r)) });
        zeros = 0;
      } else {
        zeros += 1;
        if (zeros === 2) break;
      }
    }
    return out;
  };
  const puts = side(
    rows.filter((r) => r.k < k0Row.k).reverse(),
    (r) => r.pb,
    (r) => r.pa,
  ).reverse();
  const calls = side(
    rows.filter((r) => r.k > k0Row.k),
    (r) => r.cb,
    (r) => r.ca,
  );
  const strip = [...puts, { k: k0Row.k, q: (mid(k0Row.cb, k0Row.ca) + mid(k0Row.pb, k0Row.pa)) / 2 }, ...calls];
  if (strip.length < 2) return null;
  let sum = 0;
  strip.forEach((s, i) => {
    const lo = strip[Math.max(i - 1, 0)].k;
    const hi = strip[Math.min(i + 1, strip.length - 1)].k;
    const dK = i === 0 || i === strip.length - 1 ? hi - lo : (hi - lo) / 2;
    sum += (dK / (s.k * s.k)) * Math.exp(rate * T) * s.q;
  });
  const variance = (2 / T) * sum - (1 / T) * (F / k0Row.k - 1) ** 2;
  return { forward: F, k0: k0Row.k, strikes: strip.map((s) => s.k), variance };
}
