import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rvol, rvolPrintColumns, rvolSessions, type RvolPrint, type RvolSession } from "../../lib/flow/rvol";
import { FlowError } from "../../lib/flow/errors";
import { CodedError } from "../../lib/coded-error";
import { etInstant } from "../../lib/time";
import { print } from "./_prints";

const at = (date: string, hhmm: string) => etInstant(date, hhmm);

describe("rvolSessions", () => {
  it("the view is the interval's sessions ending at date; the baseline the avg_period sessions before it", () => {
    expect(rvolSessions("2024-03-15", "1D", "2d")).toEqual({ view: ["2024-03-15"], baseline: ["2024-03-13", "2024-03-14"] });
    // 2024-03-16 is a Saturday: the view ends on Friday
    expect(rvolSessions("2024-03-16", "2D", "1d")).toEqual({ view: ["2024-03-14", "2024-03-15"], baseline: ["2024-03-13"] });
    // Good Friday 2024-03-29 is skipped
    expect(rvolSessions("2024-04-01", "1D", "2d").baseline).toEqual(["2024-03-27", "2024-03-28"]);
    expect(() => rvolSessions("2024-03-15", "0D")).toThrow(FlowError);
    expect(() => rvolSessions("2024-03-15", "1D", "366d")).toThrow(/avg_period/);
  });
});

describe("rvol: hand-computed 15-minute bars", () => {
  const c510 = { strike: 510, right: "C" as const };
  const c515 = { strike: 515, right: "C" as const };
  const p490 = { strike: 490, right: "P" as const };
  const sessions: RvolSession[] = [
    {
      date: "2024-03-15",
      prints: [
        print({ ...c510, tsMs: at("2024-03-15", "09:31"), size: 10, price: 1, underlyingPrice: 501 }),
        print({ ...p490, tsMs: at("2024-03-15", "09:44"), size: 5, price: 2, underlyingPrice: 502 }),
        print({ ...c515, tsMs: at("2024-03-15", "09:50"), size: 20, price: 0.5, underlyingPrice: 503 }),
      ],
    },
    {
      date: "2024-03-13",
      prints: [
        print({ ...c510, tsMs: at("2024-03-13", "09:35"), size: 4, price: 1 }),
        print({ ...p490, tsMs: at("2024-03-13", "09:47"), size: 6, price: 1 }),
        print({ ...c510, tsMs: at("2024-03-13", "09:55"), size: 100, price: 1 }), // after the time of day of "now"
      ],
    },
    { date: "2024-03-14", prints: [print({ ...c515, tsMs: at("2024-03-14", "09:40"), size: 8, price: 1 })] },
  ];
  const options = { date: "2024-03-15", bucket: "15min" as const, avgPeriod: "2d", asOfMs: at("2024-03-15", "09:52") };

  it("ticker: calls and puts split, baseline cut at the same time of day", () => {
    const r = rvol({ kind: "ticker" }, sessions, options);
    // bar 09:30-09:45: today 10 C + 5 P, premium 10*1*100 + 5*2*100 = 2000;
    //   baseline: 03-13 4 C (400 USD), 03-14 8 C (800 USD) -> avg 6 volume, 600 premium, 6 calls, 0 puts
    // bar 09:45-10:00, cut at 09:52: today 20 C, premium 20*0.5*100 = 1000;
    //   baseline 09:45-09:52: 03-13 6 P (600 USD; the 09:55 print is later), 03-14 none -> avg 3, 300, 0 C, 3 P
    expect(r.bars).toEqual([
      {
        timestamp: "2024-03-15T13:30:00.000Z",
        timestampEnd: "2024-03-15T13:45:00.000Z",
        callVolume: 10,
        putVolume: 5,
        volume: 15,
        premium: 2000,
        stockPrice: 502,
        avgCallVolume: 6,
        avgPutVolume: 0,
        avgVolume: 6,
        avgPremium: 600,
        avgDaysCount: 2,
      },
      {
        timestamp: "2024-03-15T13:45:00.000Z",
        timestampEnd: "2024-03-15T14:00:00.000Z",
        callVolume: 20,
        putVolume: 0,
        volume: 20,
        premium: 1000,
        stockPrice: 503,
        avgCallVolume: 0,
        avgPutVolume: 3,
        avgVolume: 3,
        avgPremium: 300,
        avgDaysCount: 2,
      },
    ]);
    expect(r.stats).toEqual({
      todayVolume: 35,
      todayPremium: 3000,
      avgVolume: 9,
      avgPremium: 900,
      rvolVolume: 35 / 9,
      rvolPremium: 3000 / 900,
      avgDaysCount: 2,
    });
    expect(r.callRvol).toBe(30 / 6);
    expect(r.putRvol).toBe(5 / 3);
  });

  it("contract: only the contract's prints, summary format drops the bars", () => {
    const symbol = (sessions[0].prints as RvolPrint[])[0].symbol; // SPY 510 C
    const r = rvol({ kind: "contract", symbol }, sessions, options);
    // bar 1: today 10 (1000 USD); baseline 03-13 4, 03-14 0 -> avg 2 (200 USD)
    // bar 2: today 0; baseline 09:45-09:52 none -> avg 0
    expect(r.bars?.map((b) => [b.volume, b.premium, b.avgVolume, b.avgPremium, b.avgDaysCount])).toEqual([
      [10, 1000, 2, 200, 2],
      [0, 0, 0, 0, 2],
    ]);
    expect(r.stats.rvolVolume).toBe(10 / 2);
    expect(rvol({ kind: "contract", symbol }, sessions, { ...options, format: "summary" })).toEqual({ stats: r.stats });
  });

  it("sessions given as columns answer exactly as their records; columns of another scope are refused", () => {
    const symbol = (sessions[0].prints as RvolPrint[])[0].symbol;
    const columnsOf = (only: string | null) => sessions.map((s) => ({ date: s.date, prints: rvolPrintColumns(s.prints as RvolPrint[], only) }));
    expect(rvol({ kind: "ticker" }, columnsOf(null), options)).toEqual(rvol({ kind: "ticker" }, sessions, options));
    expect(rvol({ kind: "contract", symbol }, columnsOf(symbol), options)).toEqual(rvol({ kind: "contract", symbol }, sessions, options));
    expect(() => rvol({ kind: "contract", symbol }, columnsOf(null), options)).toThrow(/every contract/);
    expect(() => rvol({ kind: "ticker" }, columnsOf(symbol), options)).toThrow(RangeError);
    // Out of order records come out in time order.
    const shuffled = rvolPrintColumns([...(sessions[0].prints as RvolPrint[])].reverse());
    expect([...shuffled.tsMs]).toEqual([...(sessions[0].prints as RvolPrint[])].map((p) => p.tsMs));
  });

  it("a missing baseline session is unavailable, not zero", () => {
    const r = rvol({ kind: "ticker" }, sessions.slice(0, 2), options);
    // only 03-13 available: bar 1 avg 4, bar 2 avg 6
    expect(r.bars?.map((b) => [b.avgVolume, b.avgDaysCount])).toEqual([
      [4, 1],
      [6, 1],
    ]);
    expect(r.stats.avgDaysCount).toBe(1);
  });

  it("ordering and limit: volume desc, rvol desc", () => {
    const byVolume = rvol({ kind: "ticker" }, sessions, { ...options, orderBy: "volume", limit: 1 });
    expect(byVolume.bars?.map((b) => b.volume)).toEqual([20]);
    const byRvol = rvol({ kind: "ticker" }, sessions, { ...options, orderBy: "rvol", order: "asc" });
    expect(byRvol.bars?.map((b) => b.volume / (b.avgVolume ?? 1))).toEqual([15 / 6, 20 / 3]);
  });

  it("daily bars: one per session; weekly: sessions of one week together", () => {
    const daily = rvol({ kind: "ticker" }, sessions, { date: "2024-03-15", bucket: "1d", avgPeriod: "2d" });
    // today 35 contracts; baseline days: 03-13 110, 03-14 8 -> avg 59
    expect(daily.bars?.map((b) => [b.timestamp, b.timestampEnd, b.volume, b.avgVolume])).toEqual([["2024-03-15T13:30:00.000Z", "2024-03-15T20:00:00.000Z", 35, 59]]);
    const weekly = rvol({ kind: "ticker" }, [...sessions, { date: "2024-03-18", prints: [] }], {
      date: "2024-03-18",
      interval: "3D",
      bucket: "1w",
      avgPeriod: "1d",
    });
    // view 03-14, 03-15 (one week) and 03-18 (the next); baseline 03-13 (110 contracts a day)
    expect(weekly.bars?.map((b) => [b.timestamp.slice(0, 10), b.timestampEnd.slice(0, 10), b.volume, b.avgVolume])).toEqual([
      ["2024-03-14", "2024-03-15", 8 + 35, 2 * 110],
      ["2024-03-18", "2024-03-18", 0, 110],
    ]);
  });

  it("early closes: the baseline day has no buckets after 13:00", () => {
    const r = rvol(
      { kind: "ticker" },
      [
        { date: "2024-12-02", prints: [] },
        { date: "2024-11-29", prints: [] },
      ],
      {
        date: "2024-12-02",
        bucket: "30min",
        avgPeriod: "1d",
      },
    );
    const days = r.bars?.map((b) => b.avgDaysCount) ?? [];
    expect(days).toHaveLength(13); // 09:30-16:00 in 30-minute buckets
    expect(days).toEqual([1, 1, 1, 1, 1, 1, 1, null, null, null, null, null, null]); // 09:30 ... 12:30 | 13:00 ...
  });

  it("rejects out-of-range options with the parameter named", () => {
    expect(() => rvol({ kind: "ticker" }, sessions, { ...options, bucket: "2min" as "1min" })).toThrow(FlowError);
    let caught: unknown;
    try {
      rvol({ kind: "ticker" }, sessions, { ...options, interval: "400D" });
    } catch (e) {
      caught = e;
    }
    // a CodedError with a lower-case code: the server's error table maps invalid_parameter to 400
    expect(caught).toBeInstanceOf(CodedError);
    expect(caught).toMatchObject({ code: "invalid_parameter", parameter: "interval", details: { parameter: "interval" } });
  });
});

describe("rvol: properties", () => {
  it("a baseline identical to today gives rvol 1 in every bucket; bucket sums equal the daily bar", () => {
    const minute = fc.record({ m: fc.integer({ min: 0, max: 389 }), size: fc.integer({ min: 1, max: 50 }), put: fc.boolean() });
    fc.assert(
      fc.property(fc.array(minute, { minLength: 1, maxLength: 40 }), fc.constantFrom("1min", "5min", "10min", "15min", "30min"), (rows, bucket) => {
        const day = (date: string) => ({
          date,
          prints: rows.map((r) => print({ tsMs: at(date, "09:30") + r.m * 60_000 + 1_000, size: r.size, right: r.put ? "P" : "C" })).sort((a, b) => a.tsMs - b.tsMs),
        });
        const s = [day("2024-03-15"), day("2024-03-14"), day("2024-03-13")];
        const r = rvol({ kind: "ticker" }, s, { date: "2024-03-15", bucket: bucket as "1min", avgPeriod: "2d" });
        const d = rvol({ kind: "ticker" }, s, { date: "2024-03-15", bucket: "1d", avgPeriod: "2d" });
        for (const b of r.bars ?? []) expect(b.avgVolume).toBe(b.volume);
        expect(r.stats.rvolVolume).toBe(1);
        expect(r.stats.todayVolume).toBe(d.bars?.[0].volume);
        expect(r.stats.todayVolume).toBe(rows.reduce((a, x) => a + x.size, 0));
        return r.bars?.length === 390 / Number(bucket.replace("min", ""));
      }),
      { numRuns: 60 },
    );
  });
});

describe("rvol: against a slow independent reference", () => {
  it("random multi-day tapes, 15-minute and 30-minute buckets, cut at a random time of day", () => {
    const dates = ["2024-03-11", "2024-03-12", "2024-03-13", "2024-03-14", "2024-03-15"];
    const row = fc.record({
      day: fc.integer({ min: 0, max: 4 }),
      offMs: fc.integer({ min: -60_000, max: 390 * 60_000 + 60_000 }),
      size: fc.integer({ min: 1, max: 9 }),
      put: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), fc.integer({ min: 1, max: 389 }), fc.constantFrom(15, 30), fc.boolean(), (rows, cutMin, stepMin, dropOne) => {
        const sessions = dates
          .filter((_d, i) => !(dropOne && i === 1)) // a missing baseline session
          .map((date) => ({
            date,
            prints: rows
              .filter((r) => dates[r.day] === date)
              .map((r) => print({ tsMs: etInstant(date, "09:30") + r.offMs, size: r.size, price: 1, right: r.put ? "P" : "C" }))
              .sort((a, b) => a.tsMs - b.tsMs),
          }));
        const asOfMs = etInstant("2024-03-15", "09:30") + cutMin * 60_000;
        const r = rvol({ kind: "ticker" }, sessions, { date: "2024-03-15", bucket: `${stepMin}min` as "15min", avgPeriod: "4d", asOfMs });
        const columns = sessions.map((s) => ({ date: s.date, prints: rvolPrintColumns(s.prints) }));
        expect(rvol({ kind: "ticker" }, columns, { date: "2024-03-15", bucket: `${stepMin}min` as "15min", avgPeriod: "4d", asOfMs })).toEqual(r);
        // Reference: bucket k of a day holds prints with open + k*step <= ts < min(open + (k+1)*step, close, cut),
        // where cut applies at the same offset in every day.
        const step = stepMin * 60_000;
        const cutOff = cutMin * 60_000;
        const sum = (date: string, k: number, field: "all" | "C" | "P") => {
          const open = etInstant(date, "09:30");
          const s = sessions.find((x) => x.date === date);
          let v = 0;
          for (const p of s?.prints ?? []) {
            const off = p.tsMs - open;
            if (off < 0 || off >= 390 * 60_000 || Math.floor(off / step) !== k || off >= cutOff) continue;
            if (field === "all" || p.right === field) v += p.size;
          }
          return v;
        };
        const base = dates.slice(0, 4).filter((d) => sessions.some((s) => s.date === d));
        const nBars = Math.ceil(cutOff / step);
        expect(r.bars?.length).toBe(nBars);
        for (let k = 0; k < nBars; k++) {
          const b = r.bars?.[k];
          expect(b?.volume).toBe(sum("2024-03-15", k, "all"));
          expect(b?.putVolume).toBe(sum("2024-03-15", k, "P"));
          expect(b?.avgVolume).toBeCloseTo(base.reduce((a, d) => a + sum(d, k, "all"), 0) / base.length, 9);
          expect(b?.avgCallVolume).toBeCloseTo(base.reduce((a, d) => a + sum(d, k, "C"), 0) / base.length, 9);
          expect(b?.avgDaysCount).toBe(base.length);
        }
        expect(r.stats.avgDaysCount).toBe(base.length);
      }),
      { numRuns: 80 },
    );
  });
});
