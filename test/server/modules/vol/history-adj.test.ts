// /v1/vol/history's weekend-adjusted columns (`svx30_adj` ...): each session's reading over its
// weekday factor from the readings before that session only, recomputed here with an independent
// ratio-to-moving-average implementation over the store's raw readings.
import { afterAll, describe, expect, it } from "vitest";
import { moduleStateOf } from "../../../../server/modules";
import { metaModule } from "../../../../server/modules/meta";
import { createVolModule } from "../../../../server/modules/vol";
import { sessionsBefore } from "../../../../server/modules/vol/daily-store";
import { makeHarness } from "../../_harness";
import { json, market } from "./_vol-harness";

// Enough sessions behind each row for 8 ratios per weekday (docs/methodology.md#weekend-adjusted-readings).
const HISTORY = 60;
const SYMBOL = "NVDA"; // a cheap closing board (tens of ms)
const vol = createVolModule({ historySessions: HISTORY, symbols: [SYMBOL, "SPY"] });
const h = makeHarness({ market, credits: 100_000, modules: [metaModule, vol] });
const state = moduleStateOf(h.app.services, vol);
afterAll(() => h.app.shutdown(0));

const weekday = (d: string) => new Date(`${d}T12:00:00Z`).getUTCDay();

/** Ratio-to-moving-average weekday factor of `date`'s weekday from `(dates, xs)`, or null. */
function factorOf(dates: string[], xs: number[], date: string): number | null {
  const window = xs.slice(-252);
  const wdates = dates.slice(-252);
  const byDay = new Map<number, number[]>();
  for (let i = 2; i + 2 < window.length; i++) {
    const five = window.slice(i - 2, i + 3);
    if (five.some((v) => !(v > 0))) continue;
    const ratio = window[i] / (five.reduce((a, b) => a + b, 0) / 5);
    const list = byDay.get(weekday(wdates[i])) ?? [];
    list.push(ratio);
    byDay.set(weekday(wdates[i]), list);
  }
  const means: number[] = [];
  for (let w = 1; w <= 5; w++) {
    const list = byDay.get(w) ?? [];
    if (list.length < 8) return null;
    means.push(list.reduce((a, b) => a + b, 0) / list.length);
  }
  const scale = means.reduce((a, b) => a + b, 0) / 5;
  return means[weekday(date) - 1] / scale;
}

describe("/v1/vol/history *_adj columns", () => {
  it("the yaml's example fields=svx30,svx30_adj,close answers, each row adjusted from its own past", async () => {
    const res = await h.get(`/v1/vol/history?symbols=${SYMBOL}&from=2024-02-26&to=2024-03-05&fields=svx30,svx30_adj,close,svx1d_adj`);
    expect(res.status).toBe(200);
    const { data } = await json(res);
    const s = data.symbols[0];
    expect(Object.keys(s.columns).sort()).toEqual(["close", "svx1d_adj", "svx30", "svx30_adj"]);
    expect(s.dates).toEqual(["2024-02-26", "2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-04", "2024-03-05"]);
    let checked = 0;
    for (let j = 0; j < s.dates.length; j++) {
      const date = s.dates[j];
      // The readings of the HISTORY sessions before this row (store readings: raw SVX, not adjusted).
      const past = await state.daily.before(SYMBOL, date, HISTORY);
      expect(past.map((r) => r.date)).toEqual(sessionsBefore(date, HISTORY));
      for (const [col, tenor] of [
        ["svx30_adj", "svx30"],
        ["svx1d_adj", "svx1d"],
      ] as const) {
        const f = factorOf(
          past.map((r) => r.date),
          past.map((r) => r[tenor] ?? Number.NaN),
          date,
        );
        const raw = (await state.daily.reading(SYMBOL, date))![tenor];
        if (f === null || raw === null) {
          expect(s.columns[col][j]).toBeNull();
          continue;
        }
        expect(s.columns[col][j]).toBeCloseTo(raw / f, 10);
        checked++;
      }
    }
    expect(checked).toBe(2 * s.dates.length);
  }, 120_000);

  it("an unknown column is still a 400 naming the parameter and listing the adjusted ones, not charged", async () => {
    const before = h.accounts.balance(h.accountId);
    const res = await h.get(`/v1/vol/history?symbols=${SYMBOL}&fields=svx30,svx45_adj`);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(JSON.stringify(body)).toContain("fields");
    expect(JSON.stringify(body)).toContain("svx6m_adj");
    expect(h.accounts.balance(h.accountId)).toBe(before);
  });
});
