// /v1/vol/screener over HTTP: the warm-up 503 (refunded, Retry-After), the record's shape, the
// sort with rows missing the field last and thin chains unranked, min_/max_ bounds, exact filters,
// paging, the unknown-parameter 400 and the enum message, each against the rows themselves.
import { beforeAll, describe, expect, it } from "vitest";
import { json, volHarness, type VolHarness } from "./_vol-harness";

let h: VolHarness;
const balance = () => h.accounts.balance(h.accountId);
const COVERED = ["AAPL", "NVDA", "QQQ", "SPX", "SPXW", "SPY", "TSLA"];

beforeAll(async () => {
  h = volHarness();
  const before = balance();
  const cold = await h.get("/v1/vol/screener");
  expect(cold.status).toBe(503);
  expect((await json(cold)).error.code).toBe("warming_up");
  expect(cold.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(balance()).toBe(before);
  await h.state.warmUp();
}, 120_000);

const screener = async (q: string) => {
  const res = await h.get(`/v1/vol/screener${q ? `?${q}` : ""}`);
  expect(res.status).toBe(200);
  return (await json(res)).data;
};

describe("/v1/vol/screener", () => {
  it("one row per covered symbol, the record's fields, 5 credits, volatility meta", async () => {
    const before = balance();
    const res = await h.get("/v1/vol/screener");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 5));
    const body = await json(res);
    expect(Object.keys(body.data).sort()).toEqual(["limit", "offset", "rows", "sort", "total"]);
    expect(body.data).toMatchObject({ total: COVERED.length, offset: 0, limit: 50, sort: "svx30" });
    expect(body.data.rows.map((r: any) => r.symbol).sort()).toEqual(COVERED);
    for (const r of body.data.rows) {
      for (const k of ["quality", "sector", "curve", "earnings_overlap_9d", "earnings_overlap_30d", "iv_rank", "day_pace", "cheap_from_low_pct"])
        expect(r).toHaveProperty(k);
      expect([null, "none", "partial", "full"]).toContain(r.earnings_overlap_30d);
    }
    // AAPL reports on 2024-05-02, 57 days out: outside both readings; an index has no calendar.
    const bySymbol = new Map(body.data.rows.map((r: any) => [r.symbol, r]));
    expect(bySymbol.get("AAPL")).toMatchObject({ earnings_overlap_9d: "none", earnings_overlap_30d: "none", days_to_event: 57 });
    expect(bySymbol.get("SPXW")).toMatchObject({ earnings_overlap_9d: null, earnings_overlap_30d: null, days_to_event: null });
    expect(body.meta.module).toBe("screener");
    expect(body.meta.marketState).toBe("open");
  });

  it("default sort is svx30 descending; asc reverses the ranked rows; ranks number them", async () => {
    const desc = (await screener("")).rows.filter((r: any) => r.rank !== null);
    const values = desc.map((r: any) => r.svx30);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(desc.map((r: any) => r.rank)).toEqual(desc.map((_: any, i: number) => i + 1));
    const asc = (await screener("order=asc")).rows.filter((r: any) => r.rank !== null);
    expect(asc.map((r: any) => r.symbol)).toEqual(desc.map((r: any) => r.symbol).reverse());
  });

  it("rows missing the sort field come last, unranked (days_to_event: indices and ETFs have no report)", async () => {
    const rows = (await screener("sort=days_to_event&order=asc")).rows;
    const firstMissing = rows.findIndex((r: any) => r.days_to_event === null);
    expect(firstMissing).toBeGreaterThan(0);
    for (const r of rows.slice(firstMissing)) {
      expect(r.days_to_event).toBeNull();
      expect(r.rank).toBeNull();
    }
    const present = rows.slice(0, firstMissing).map((r: any) => r.days_to_event);
    expect(present).toEqual([...present].sort((a: number, b: number) => a - b));
  });

  it("min_ and max_ bound any sortable field; rows without the field are dropped by a bound", async () => {
    const all = (await screener("")).rows;
    const mid = [...all.map((r: any) => r.svx30)].sort((a, b) => a - b)[2];
    const kept = (await screener(`min_svx30=${mid}`)).rows;
    expect(kept.map((r: any) => r.symbol).sort()).toEqual(
      all
        .filter((r: any) => r.svx30 >= mid)
        .map((r: any) => r.symbol)
        .sort(),
    );
    const capped = (await screener(`max_svx30=${mid}&min_spot=1`)).rows;
    expect(capped.map((r: any) => r.symbol).sort()).toEqual(
      all
        .filter((r: any) => r.svx30 <= mid)
        .map((r: any) => r.symbol)
        .sort(),
    );
    const withEvent = (await screener("min_days_to_event=0")).rows;
    expect(withEvent.every((r: any) => r.days_to_event !== null)).toBe(true);
    expect(withEvent.length).toBe(all.filter((r: any) => r.days_to_event !== null).length);
  });

  it("filters carries the same bounds in one parameter (the reference tool's argument)", async () => {
    const all = (await screener("")).rows;
    const mid = [...all.map((r: any) => r.svx30)].sort((a, b) => a - b)[2];
    const one = (await screener(`filters=${encodeURIComponent(`min_svx30:${mid},max_spot=100000`)}`)).rows;
    expect(one.map((r: any) => r.symbol).sort()).toEqual((await screener(`min_svx30=${mid}&max_spot=100000`)).rows.map((r: any) => r.symbol).sort());
  });

  it("curve, sector and quality match exactly", async () => {
    const all = (await screener("")).rows;
    const curve = all[0].curve;
    expect((await screener(`curve=${curve}`)).rows.map((r: any) => r.symbol).sort()).toEqual(
      all
        .filter((r: any) => r.curve === curve)
        .map((r: any) => r.symbol)
        .sort(),
    );
    const sector = all.find((r: any) => r.symbol === "AAPL").sector;
    const bySector = (await screener(`sector=${encodeURIComponent(sector)}`)).rows;
    expect(bySector.map((r: any) => r.symbol).sort()).toEqual(
      all
        .filter((r: any) => r.sector === sector)
        .map((r: any) => r.symbol)
        .sort(),
    );
    expect((await screener("quality=nonesuch")).total).toBe(0);
  });

  it("event_move_pct is the events module's implied_move_pct: null when only the straddle estimate exists", async () => {
    const rows = (await screener("")).rows;
    const events = (await json(await h.get(`/v1/vol/events?symbols=${COVERED.join(",")}`))).data.symbols;
    const bySymbol = new Map(events.map((e: any) => [e.symbol, e.events]));
    let estimates = 0;
    for (const r of rows) {
      const ev: any = bySymbol.get(r.symbol);
      expect(r.event_move_pct).toBe(ev ? ev.implied_move_pct : null);
      if (ev?.estimate) estimates++;
    }
    // The rule is exercised: at least one stock's report has only the estimate in this market.
    expect(estimates).toBeGreaterThan(0);
  });

  it("limit and offset page through the same order", async () => {
    const all = (await screener("sort=spot")).rows.map((r: any) => r.symbol);
    const page = await screener("sort=spot&limit=2&offset=2");
    expect(page.rows.map((r: any) => r.symbol)).toEqual(all.slice(2, 4));
    expect(page).toMatchObject({ total: all.length, limit: 2, offset: 2, sort: "spot" });
  });

  it.each([
    ["foo=1", "foo"],
    ["sort=bogus", "sort"],
    ["limit=501", "limit"],
    ["offset=-1", "offset"],
    ["min_svx30=abc", "min_svx30"],
    ["min_unknown_field=1", "min_unknown_field"],
    ["order=up", "order"],
    ["filters=min_bogus:1", "filters"],
    ["filters=min_svx30:abc", "filters"],
  ])("%s is 400 naming %s, not charged", async (q, name) => {
    const before = balance();
    const res = await h.get(`/v1/vol/screener?${q}`);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe("invalid_parameter");
    expect(body.error.message).toContain(name);
    if (name === "sort") expect(body.error.message).toContain("svx30, svx1d");
    expect(balance()).toBe(before);
  });
});
