// The /v1/history window rules: trading days spanned (weekends, holidays, early closes, DST),
// the tier caps at and one past the limit, countback across sessions, selection, no_data, and
// the Cache-Control classes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocateBars,
  emptyPriceBars,
  historyBody,
  historyCacheControl,
  historyFreshness,
  planHistory,
  PriceError,
  selectBars,
  type HistoryRequest,
  type Resolution,
} from "../../lib/price";
import { etDateOf, minutesOfSession, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { mondayOf, utcMidnight } from "./_reference";
import { caught } from "../_helpers/thrown";

const S = (iso: string) => Date.parse(iso) / 1000;
const LATE = Date.parse("2030-12-31T23:00:00Z"); // every covered session has happened
const days = (req: HistoryRequest, nowMs = LATE) => planHistory(req, nowMs).requestedDays;

const rejected = (req: HistoryRequest, nowMs = LATE) => caught(PriceError, () => planHistory(req, nowMs));

describe("trading days spanned by a [from, to) window", () => {
  it("a weekend adds nothing: Friday 00:00 UTC to Monday 23:59 UTC is two sessions", () => {
    const req = { resolution: "5" as Resolution, fromSec: S("2024-03-08T00:00:00Z"), toSec: S("2024-03-11T23:59:00Z") };
    expect(days(req)).toBe(2);
    expect(days({ ...req, resolution: "D" })).toBe(2);
    expect(days({ ...req, resolution: "60" })).toBe(2);
  });

  it("holidays are not trading days: Thanksgiving week 2024 has 4 sessions (one an early close)", () => {
    const req = { resolution: "1" as Resolution, fromSec: S("2024-11-25T00:00:00Z"), toSec: S("2024-11-30T00:00:00Z") };
    expect(days(req)).toBe(4);
    expect(days({ ...req, resolution: "D" })).toBe(4);
    expect(tradingDaysBetween("2024-11-25", "2024-11-29")).toHaveLength(4);
  });

  it("an early close ends the session at 13:00 ET: a window from 13:00 ET misses it", () => {
    // 2024-11-29 13:00 EST = 18:00 UTC; the regular session is over, the extended one runs to 17:00 ET.
    const req = { resolution: "1" as Resolution, fromSec: S("2024-11-29T18:00:00Z"), toSec: S("2024-12-02T00:00:00Z") };
    expect(days(req)).toBe(0);
    expect(days({ ...req, extended: true })).toBe(1);
    expect(days({ ...req, fromSec: S("2024-11-29T17:59:00Z") })).toBe(1);
  });

  it("DST: Monday 2024-03-11 opens 13:30 UTC (EDT), so a window ending there holds only Friday", () => {
    const req = { resolution: "1" as Resolution, fromSec: S("2024-03-08T14:30:00Z"), toSec: S("2024-03-11T13:30:00Z") };
    expect(days(req)).toBe(1);
    expect(days({ ...req, toSec: S("2024-03-11T13:31:00Z") })).toBe(2);
    // Extended hours open at 04:00 EDT = 08:00 UTC.
    expect(days({ ...req, fromSec: S("2024-03-11T08:00:00Z"), toSec: S("2024-03-11T08:01:00Z"), extended: true })).toBe(1);
    expect(days({ ...req, fromSec: S("2024-03-11T08:00:00Z"), toSec: S("2024-03-11T08:01:00Z") })).toBe(0);
    // And in November the open moves back to 14:30 UTC (EST).
    expect(days({ ...req, fromSec: S("2024-11-04T14:00:00Z"), toSec: S("2024-11-04T14:30:00Z") })).toBe(0);
    expect(days({ ...req, fromSec: S("2024-11-04T14:00:00Z"), toSec: S("2024-11-04T14:31:00Z") })).toBe(1);
  });

  it("daily windows count sessions whose 00:00 UTC bar time is in [from, to)", () => {
    const req = { resolution: "D" as Resolution, fromSec: S("2024-03-05T00:00:00Z"), toSec: S("2024-03-07T00:00:00Z") };
    expect(days(req)).toBe(2);
    expect(days({ ...req, fromSec: S("2024-03-05T00:00:01Z") })).toBe(1);
  });

  it("weekly windows count every session of the weeks whose bar is in the window", () => {
    // The week of 2024-03-04 (5 sessions) has its bar at Monday 00:00 UTC.
    const req = { resolution: "W" as Resolution, fromSec: S("2024-03-04T00:00:00Z"), toSec: S("2024-03-04T00:00:01Z") };
    expect(days(req)).toBe(5);
    expect(days({ ...req, fromSec: S("2024-03-04T00:00:01Z"), toSec: S("2024-03-08T00:00:00Z") })).toBe(0);
  });

  it("sessions that have not started by now are not counted", () => {
    const now = Date.parse("2024-03-06T15:00:00Z"); // Wednesday 10:00 EST
    const req = { resolution: "5" as Resolution, fromSec: S("2024-03-04T00:00:00Z"), toSec: S("2024-03-30T00:00:00Z") };
    expect(days(req, now)).toBe(3);
    expect(days({ ...req, resolution: "D" }, now)).toBe(3);
  });

  it("matches a count of lib/time sessions overlapping the window (property)", () => {
    const all = tradingDaysBetween("2022-12-01", "2026-03-31");
    const t0 = S("2023-01-01T00:00:00Z");
    const t1 = S("2026-01-01T00:00:00Z");
    fc.assert(
      fc.property(fc.integer({ min: t0, max: t1 }), fc.integer({ min: 0, max: 80 * 86_400 }), fc.boolean(), (from, span, extended) => {
        const to = from + span;
        const expected = all.filter((d) => {
          const b = sessionBounds(d, { extended });
          return b.openMs < to * 1000 && b.closeMs > from * 1000;
        }).length;
        expect(days({ resolution: "1", fromSec: from, toSec: to, extended })).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("before the calendar (2020), weekdays stand in for trading days, so from=0 is over every cap", () => {
    const e = rejected({ resolution: "D", fromSec: 0, toSec: S("2024-01-01T00:00:00Z") });
    expect(e.code).toBe("range_too_large");
    expect(e.requestedDays).toBeGreaterThan(2600);
  });

  it("from > to is invalid; from = to is an empty window", () => {
    expect(rejected({ resolution: "D", fromSec: 10, toSec: 9 }).code).toBe("invalid_window");
    expect(planHistory({ resolution: "D", fromSec: S("2024-03-05T00:00:00Z"), toSec: S("2024-03-05T00:00:00Z") }, LATE).firstDate).toBeNull();
  });
});

describe("tier caps: exactly at the limit passes, one past is rejected", () => {
  const all = tradingDaysBetween("2020-01-01", "2030-12-31");
  const cases: [Resolution, number, boolean][] = [
    ["1", 90, false],
    ["30", 90, true],
    ["60", 720, false],
    ["480", 720, true],
    ["D", 2600, false],
    ["W", 2600, false],
  ];
  for (const [resolution, cap, extended] of cases) {
    it(`resolution ${resolution}${extended ? " extended" : ""}: ${cap} trading days`, () => {
      const first = all[100];
      const daily = resolution === "D" || resolution === "W";
      // W counts whole weeks, so start on a week's first session and end on a week's last.
      let startAt = 100;
      if (resolution === "W") while (new Date(utcMidnight(all[startAt])).getUTCDay() !== 1) startAt++;
      const fromSec = daily ? utcMidnight(all[startAt]) / 1000 : sessionBounds(first, { extended }).openMs / 1000;
      const lastAt = startAt + cap - 1;
      const toOk = daily ? utcMidnight(all[lastAt]) / 1000 + 1 : sessionBounds(all[lastAt], { extended }).closeMs / 1000;
      const toOver = daily ? utcMidnight(all[lastAt + 1]) / 1000 + 1 : sessionBounds(all[lastAt + 1], { extended }).openMs / 1000 + 60;
      if (resolution === "W") {
        // A window's weekly bars carry whole weeks: find the widest window at the cap by week bars.
        const weeks: number[] = [];
        for (let i = startAt; i < all.length; i++) {
          if (i === startAt || mondayOf(utcMidnight(all[i])) !== mondayOf(utcMidnight(all[i - 1]))) weeks.push(i);
        }
        // Sessions up to the end of the week holding the k-th week bar.
        const sessionsThrough = (k: number) => (k + 1 < weeks.length ? weeks[k + 1] : all.length) - startAt;
        let k = 0;
        while (sessionsThrough(k + 1) <= cap) k++;
        const okTo = utcMidnight(all[weeks[k]]) / 1000 + 1;
        const overTo = utcMidnight(all[weeks[k + 1]]) / 1000 + 1;
        expect(planHistory({ resolution, fromSec, toSec: okTo }, LATE).requestedDays).toBe(sessionsThrough(k));
        const e = rejected({ resolution, fromSec, toSec: overTo });
        expect([e.requestedDays, e.maxDays]).toEqual([sessionsThrough(k + 1), cap]);
        return;
      }
      expect(planHistory({ resolution, fromSec, toSec: toOk, extended }, LATE).requestedDays).toBe(cap);
      const e = rejected({ resolution, fromSec, toSec: toOver, extended });
      expect(e.code).toBe("range_too_large");
      expect(e.requestedDays).toBe(cap + 1);
      expect(e.maxDays).toBe(cap);
      expect(e.message).toBe(
        `requested range spans ${cap + 1} trading days; resolution "${resolution}" allows at most ${cap} per request. ` +
          `Narrow the range, or page through it in windows of ${cap} trading days or fewer.`,
      );
    });
  }
});

/** Every slot start (ms) of a resolution over the sessions of `dates`, from lib/time minutes. */
function slotsOf(dates: string[], minutes: number, extended: boolean): number[] {
  const out: number[] = [];
  for (const d of dates) {
    const ms = minutesOfSession(d, { extended });
    for (let i = 0; i < ms.length; i += minutes) out.push(ms[i]);
  }
  return out;
}

describe("countback", () => {
  const dates = tradingDaysBetween("2023-06-01", "2024-12-31");

  it("selects exactly N slots ending at to, across sessions, weekends and the early close", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Resolution>("1", "5", "30", "60", "240"),
        fc.boolean(),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: S("2024-11-15T00:00:00Z"), max: S("2024-12-20T00:00:00Z") }),
        (resolution, extended, n, toSec) => {
          const slots = slotsOf(dates, Number(resolution), extended).filter((t) => t < toSec * 1000);
          const plan = planHistory({ resolution, fromSec: 0, toSec, countback: n, extended }, LATE);
          const want = slots.slice(-n);
          expect(plan.fromMs).toBe(want[0]);
          // Sessions spanned: distinct session dates of the selected slots.
          const sessions = new Set(want.map(etDateOf));
          expect(plan.requestedDays).toBe(sessions.size);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("1-minute countback of 35,100 ending at a close is exactly 90 sessions; 35,101 is over the cap", () => {
    const regular = tradingDaysBetween("2024-01-02", "2024-12-31");
    // 90 consecutive full (390-minute) sessions ending on 2024-11-27 (before the 11-29 early close).
    const end = regular.indexOf("2024-11-27");
    const window = regular.slice(end - 89, end + 1);
    const minutes = window.reduce((n, d) => n + minutesOfSession(d).length, 0);
    const toSec = sessionBounds("2024-11-27").closeMs / 1000;
    const plan = planHistory({ resolution: "1", fromSec: 0, toSec, countback: minutes }, LATE);
    expect(plan.requestedDays).toBe(90);
    expect(plan.fromMs).toBe(sessionBounds(window[0]).openMs);
    const e = rejected({ resolution: "1", fromSec: 0, toSec, countback: minutes + 1 });
    expect([e.requestedDays, e.maxDays]).toEqual([91, 90]);
  });

  it("daily and weekly countback count sessions and weeks back from to", () => {
    const plan = planHistory({ resolution: "D", fromSec: 0, toSec: S("2024-12-02T00:00:00Z"), countback: 5 }, LATE);
    // 11-29, 11-27, 11-26, 11-25, 11-22 (Thanksgiving skipped).
    expect(plan.fromMs).toBe(utcMidnight("2024-11-22"));
    expect(plan.requestedDays).toBe(5);
    const w = planHistory({ resolution: "W", fromSec: 0, toSec: S("2024-12-02T00:00:00Z"), countback: 2 }, LATE);
    expect(w.fromMs).toBe(utcMidnight("2024-11-18"));
    expect(w.requestedDays).toBe(9); // 5 + 4 sessions
    expect(rejected({ resolution: "D", fromSec: 0, toSec: S("2030-12-01T00:00:00Z"), countback: 2601 }).requestedDays).toBe(2601);
  });

  it("stops at now: the in-progress minute is not a bar yet", () => {
    const now = Date.parse("2024-03-06T15:00:30Z"); // 10:00:30 EST: minutes 09:30..09:59 are complete
    const plan = planHistory({ resolution: "1", fromSec: 0, toSec: S("2024-03-07T00:00:00Z"), countback: 30 }, now);
    expect(plan.fromMs).toBe(Date.parse("2024-03-06T14:30:00Z"));
    expect(plan.requestedDays).toBe(1);
    expect(planHistory({ resolution: "1", fromSec: 0, toSec: S("2024-03-07T00:00:00Z"), countback: 31 }, now).requestedDays).toBe(2);
  });

  it("selectBars keeps the last N bars in [from, to)", () => {
    const b = allocateBars(10, false);
    for (let i = 0; i < 10; i++) b.t[i] = i * 1000;
    const plan = planHistory({ resolution: "D", fromSec: 0, toSec: 0, countback: 3 }, LATE);
    const sel = selectBars(b, { ...plan, fromMs: 2000, toMs: 8000, countback: 3 });
    expect(Array.from(sel.t)).toEqual([5000, 6000, 7000]);
    expect(Array.from(selectBars(b, { ...plan, fromMs: 2000, toMs: 8000, countback: null }).t)).toEqual([2000, 3000, 4000, 5000, 6000, 7000]);
  });
});

describe("response bodies", () => {
  it("ok: equal-length columns, t in Unix seconds, oldest first; sided columns only when present", () => {
    const b = allocateBars(3, true);
    b.t.set([3_000, 2_000_000, 4_000_000]);
    b.v.set([5, 6, 7]);
    const body = historyBody(b);
    expect(body).toMatchObject({ s: "ok", t: [3, 2000, 4000], v: [5, 6, 7] });
    if (body.s !== "ok") throw new Error("unreachable");
    for (const k of ["o", "h", "l", "c", "v", "bv", "sv", "uv"] as const) expect(body[k]).toHaveLength(3);
    expect("bv" in historyBody(allocateBars(2, false))).toBe(false);
  });

  it("no_data carries nextTime (seconds) only when an earlier bar exists", () => {
    expect(historyBody(emptyPriceBars(true), Date.parse("2024-03-08T20:55:00Z"))).toEqual({ s: "no_data", nextTime: S("2024-03-08T20:55:00Z") });
    expect(historyBody(emptyPriceBars(true), null)).toEqual({ s: "no_data" });
  });
});

describe("Cache-Control classes", () => {
  const wed10 = Date.parse("2024-03-06T15:00:00Z"); // Wednesday 10:00 EST
  const sat = Date.parse("2024-03-09T17:00:00Z");

  it("today max-age=2, the prior session 60, older days immutable", () => {
    expect(historyCacheControl("5", S("2024-03-06T15:00:00Z"), wed10)).toBe("private, max-age=2");
    expect(historyCacheControl("5", S("2024-03-06T00:00:00Z"), wed10)).toBe("private, max-age=60");
    expect(historyCacheControl("5", S("2024-03-05T00:00:00Z"), wed10)).toBe("private, max-age=31536000, immutable");
    expect(historyCacheControl("D", S("2024-03-06T00:00:01Z"), wed10)).toBe("private, max-age=2");
    expect(historyCacheControl("D", S("2024-03-06T00:00:00Z"), wed10)).toBe("private, max-age=60");
    expect(historyFreshness("W", S("2024-03-04T00:00:01Z"), wed10)).toBe("today"); // this week's bar is still forming
    expect(historyFreshness("W", S("2024-03-04T00:00:00Z"), wed10)).toBe("final");
  });

  it("on a weekend Friday is the prior session and a window reaching Monday is live", () => {
    expect(historyFreshness("1", S("2024-03-09T17:00:00Z"), sat)).toBe("prior");
    expect(historyFreshness("1", S("2024-03-08T00:00:00Z"), sat)).toBe("final");
    expect(historyFreshness("1", S("2024-03-12T00:00:00Z"), sat)).toBe("today");
  });
});
