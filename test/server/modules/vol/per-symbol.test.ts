// The per-symbol volatility endpoints over HTTP: the spec's wrapper (symbols[] with asOf,
// sessionDate, stale and the module objects; missing[] with reasons), the volatility meta, costs,
// the 10-symbol limit, 404 and 403 rules with refunds, and values against independent reads of
// the same simulated boards.
import { beforeAll, describe, expect, it } from "vitest";
import { sessionBounds, previousTradingDay } from "../../../../lib/time";
import { chainTerms, impliedMove, svxAll } from "../../../../lib/vol";
import { earningsOverlap } from "../../../../lib/vol/earnings-context";
import { NOW_MS } from "../../_harness";
import { json, market, TEST_HISTORY_SESSIONS, volHarness, type VolHarness } from "./_vol-harness";

const MODULES = ["iv", "term", "cones", "sigma", "surface", "tilt", "events"];
let h: VolHarness;
const balance = () => h.accounts.balance(h.accountId);

beforeAll(() => {
  h = volHarness();
});

describe("/v1/vol/snapshot", () => {
  it("answers the spec wrapper with every module, the volatility meta, 5 credits, missing symbols listed", async () => {
    const before = balance();
    const res = await h.get("/v1/vol/snapshot?symbols=aapl,SPXW,IWM,ZZZZ");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 5));
    const body = await json(res);
    expect(Object.keys(body.data).sort()).toEqual(["missing", "symbols"]);
    expect(body.data.symbols.map((s: any) => s.symbol)).toEqual(["AAPL", "SPXW"]);
    expect(body.data.missing).toEqual([
      { symbol: "IWM", reason: "not_covered" },
      { symbol: "ZZZZ", reason: "not_covered" },
    ]);
    for (const s of body.data.symbols) {
      expect(Object.keys(s).sort()).toEqual(["asOf", "sessionDate", "stale", "symbol", ...MODULES].sort());
      expect(s.asOf).toBe("2024-03-06T15:00:00Z");
      expect(s.sessionDate).toBe("2024-03-06");
      expect(s.stale).toBe(false);
    }
    expect(body.meta).toMatchObject({
      module: "snapshot",
      asOf: "2024-03-06T15:00:00Z",
      sessionDate: "2024-03-06",
      marketState: "open",
      frozen: false,
      publishedAt: "2024-03-06T15:00:00Z",
      cached: false,
    });
    expect(body.meta.attribution).toMatchObject({ required: false, shareClass: "derived" });
    // The same minute again is served from the per-minute memo.
    const again = await json(await h.get("/v1/vol/snapshot?symbols=AAPL,SPXW"));
    expect(again.meta.cached).toBe(true);
    expect(again.data.symbols[0].iv).toEqual(body.data.symbols[0].iv);
  });

  it("SVX readings are those of the board at the request minute; ratio_vix is SVX30 over SPXW's", async () => {
    const body = await json(await h.get("/v1/vol/snapshot?symbols=AAPL,SPXW"));
    const [aapl, spxw] = body.data.symbols;
    const direct = svxAll(chainTerms((await market.chain("AAPL", NOW_MS))!));
    for (const t of ["svx1d", "svx9", "svx30", "svx3m", "svx6m"] as const) expect(aapl.iv[t]).toBe(direct[t]?.value ?? null);
    expect(aapl.iv.ratio_vix).toBeCloseTo(aapl.iv.svx30 / spxw.iv.svx30, 12);
    expect(spxw.iv.ratio_vix).toBeCloseTo(1, 12);
    // A year of history is needed for IV rank: with a short store it is absent, never made up.
    expect(aapl.iv.iv_rank).toBeNull();
    expect(aapl.iv.pct_by.svx30["1y"]).toBeNull();
    expect(["good", "fair", "thin"]).toContain(aapl.iv.quality);
    expect(aapl.iv.thin).toBe(aapl.iv.quality === "thin");
  });

  it("sigma: running_sigma is the move since the prior close over the move that close priced", async () => {
    const body = await json(await h.get("/v1/vol/sigma?symbols=SPY"));
    expect(Object.keys(body.data.symbols[0]).sort()).toEqual(["asOf", "sessionDate", "sigma", "stale", "symbol"]);
    const sg = body.data.symbols[0].sigma;
    const prior = previousTradingDay("2024-03-06");
    const priorBoard = (await market.chain("SPY", sessionBounds(prior).closeMs))!;
    const now = (await market.chain("SPY", NOW_MS))!;
    const move = 100 * (now.spot / priorBoard.spot - 1);
    const em = impliedMove(chainTerms(priorBoard), sessionBounds("2024-03-06").closeMs)!.em1Pct;
    expect(sg.move_pct).toBeCloseTo(move, 10);
    expect(sg.em_1d_pct).toBeCloseTo(em, 10);
    expect(sg.running_sigma).toBeCloseTo(move / em, 10);
    expect(sg.day_pace).not.toBeNull(); // regular hours
    // days: one per history session after the first, each its close-to-close move over its priced move.
    expect(sg.days).toHaveLength(TEST_HISTORY_SESSIONS - 1);
    for (const d of sg.days) expect(d.sigma).toBeCloseTo(d.move_pct / d.em_1d_pct, 12);
    expect(body.meta.module).toBe("sigma");
    expect(body.data.missing).toEqual([]);
  });

  it("events: the next report of a stock from the market's calendar; null for an index", async () => {
    const body = await json(await h.get("/v1/vol/events?symbols=AAPL,SPXW"));
    const [aapl, spxw] = body.data.symbols;
    const next = (await market.earnings("AAPL", "2024-03-06", "2024-07-01"))[0];
    expect(aapl.events.date).toBe(next.date);
    expect(aapl.events.timing).toBe(next.timing);
    expect(aapl.events.days_to_event).toBe(Math.round((Date.parse(next.date) - Date.parse("2024-03-06")) / 86_400_000));
    expect(aapl.events.estimate).toBe(aapl.events.implied_move_pct === null);
    expect(spxw.events).toBeNull();
    // The past report of 2024-02-01 (after the close) is in the record: close of Feb 1 to close of Feb 2.
    const feb = aapl.events.record.find((r: any) => r.date === "2024-02-01");
    expect(feb).toBeDefined();
    {
      const c0 = (await market.chain("AAPL", sessionBounds("2024-02-01").closeMs))!.spot;
      const c1 = (await market.chain("AAPL", sessionBounds("2024-02-02").closeMs))!.spot;
      expect(feb.move_pct).toBeCloseTo(100 * (c1 / c0 - 1), 8);
    }
    expect(aapl.events.reports).toBe(aapl.events.record.length);
  });

  it.each([
    ["/v1/vol/iv", "iv", 1],
    ["/v1/vol/term", "term", 1],
    ["/v1/vol/cones", "cones", 1],
    ["/v1/vol/surface", "surface", 3],
    ["/v1/vol/tilt", "tilt", 1],
  ])("%s: the wrapper with only its module, %s, %i credit(s)", async (path, module, cost) => {
    const before = balance();
    const res = await h.get(`${path}?symbols=QQQ`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - cost));
    const body = await json(res);
    expect(Object.keys(body.data.symbols[0]).sort()).toEqual(["asOf", "sessionDate", "stale", "symbol", module].sort());
    expect(body.meta.module).toBe(module);
  });
});

describe("per-symbol rules", () => {
  it("more than 10 symbols is 400 invalid_parameter naming symbols, not charged", async () => {
    const before = balance();
    const list = Array.from({ length: 11 }, (_, i) => `S${i}`).join(",");
    const res = await h.get(`/v1/vol/snapshot?symbols=${list}`);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe("invalid_parameter");
    expect(body.error.message).toContain("symbols");
    expect(balance()).toBe(before);
  });

  it("no symbols parameter is 400 missing_parameter", async () => {
    const res = await h.get("/v1/vol/sigma");
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("missing_parameter");
  });

  it("no covered symbol is 404 symbol_not_found, refunded", async () => {
    const before = balance();
    const res = await h.get("/v1/vol/snapshot?symbols=IWM,NOPE");
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe("symbol_not_found");
    expect(res.headers.get("x-credits-remaining")).toBe(String(before));
    expect(balance()).toBe(before);
  });

  it.each(["index-etf", "flow"] as const)("the %s plan gets 403 not_entitled on every volatility route, nothing charged", async (plan) => {
    const other = volHarness({ plan });
    const before = other.accounts.balance(other.accountId);
    for (const path of ["/v1/vol/snapshot", "/v1/vol/sigma", "/v1/vol/events", "/v1/vol/iv", "/v1/vol/surface"]) {
      const res = await other.get(`${path}?symbols=SPY`);
      expect(res.status).toBe(403);
      expect((await json(res)).error.code).toBe("not_entitled");
    }
    const res = await other.get("/v1/vol/screener");
    expect(res.status).toBe(403);
    expect(other.accounts.balance(other.accountId)).toBe(before);
  });

  it("after the close the readings are the close's: frozen, marketState post_close, sigma's intraday fields null", async () => {
    const evening = volHarness({ nowMs: Date.parse("2024-03-06T22:30:00Z") });
    const body = await json(await evening.get("/v1/vol/sigma?symbols=SPY"));
    expect(body.meta.marketState).toBe("post_close");
    expect(body.meta.frozen).toBe(true);
    const sg = body.data.symbols[0].sigma;
    expect(sg.day_pace).toBeNull();
    expect(sg.day_reprice).toBeNull();
    expect(body.data.symbols[0].stale).toBe(false);
  });
});

describe("cone events", () => {
  it("the next report sits in every horizon that spans it, with its jump and variance share", async () => {
    // Monday 2024-04-29 10:00 ET; AAPL reports 2024-05-02 after the close.
    const h2 = volHarness({ nowMs: Date.parse("2024-04-29T14:00:00Z") });
    const body = await json(await h2.get("/v1/vol/snapshot?symbols=AAPL"));
    const { cones, events } = body.data.symbols[0];
    expect(events.date).toBe("2024-05-02");
    const jump = events.implied_move_pct ?? events.estimate_move_pct;
    for (const hz of cones.horizons) {
      if (!hz) continue;
      const inside = Date.parse(events.at) <= Date.parse(hz.settle_at);
      expect(hz.event_adjusted).toBe(inside);
      const earnings = hz.events.filter((e: any) => e.kind === "earnings");
      if (inside) {
        expect(earnings).toEqual([expect.objectContaining({ kind: "earnings", at: events.at, timing: "amc", jump_pct: jump })]);
        expect(earnings[0].var_share).toBeCloseTo(Math.min(1, (jump / hz.em1_pct) ** 2), 12);
      } else expect(earnings).toEqual([]);
      // Every horizon's events are in time order.
      const ats = hz.events.map((e: any) => e.at);
      expect(ats).toEqual([...ats].sort());
    }
    const byName = (n: string) => cones.horizons.find((hz: any) => hz?.name === n);
    expect(byName("week").event_adjusted).toBe(true);
    expect(byName("1d").event_adjusted).toBe(false);
    // Macro releases (Fed and BLS calendars): FOMC 2024-05-01 14:00 EDT, CPI 2024-05-15 08:30 EDT.
    expect(byName("1d").events).toEqual([]);
    expect(byName("week").events.map((e: any) => [e.kind, e.at])).toEqual([
      ["fomc", "2024-05-01T18:00:00Z"],
      ["earnings", events.at],
    ]);
    expect(byName("opex").events.map((e: any) => e.kind)).toEqual(["fomc", "earnings", "cpi"]);
    expect(byName("opex").events[2].at).toBe("2024-05-15T12:30:00Z");
    // earnings_context (term and events alike): the report three days out is in both readings.
    const term = (await json(await h2.get("/v1/vol/term?symbols=AAPL,SPXW"))).data.symbols;
    const terms = chainTerms((await h2.app.services.market.chain("AAPL", Date.parse("2024-04-29T14:00:00Z")))!);
    const reportMs = Date.parse(events.at);
    expect(events.earnings_context).toEqual({
      status: "scheduled",
      date: "2024-05-02",
      timing: "amc",
      within_9d: true,
      overlap_9d: earningsOverlap(terms, reportMs, 12_960),
      overlap_30d: earningsOverlap(terms, reportMs, 43_200),
    });
    expect(term[0].term.earnings_context).toEqual(events.earnings_context);
    expect(term[1].term.earnings_context.status).toBe("calendar_unavailable");
  }, 60_000);
});
