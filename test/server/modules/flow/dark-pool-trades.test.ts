// GET /v1/dark-pool/trades over the simulator: rows and filters against the raw prints, the four
// paging rules of the spec (cursor walks with prints arriving between pages, asc always returns a
// cursor, notional ranking by offset, the market-wide min_notional rule), and uncharged 4xx.
import { beforeAll, describe, expect, it } from "vitest";
import { makeHarness, type Harness } from "../../_harness";
import { DP_NOW_MS, json, movableMarket, qs, referenceAdv, referencePrints, type MovableMarket } from "./_dark-pool-market";
import { etMinutesOfDay } from "../../../../lib/time";
import { decimalNotional } from "../../../_helpers/decimal-notional";

const TODAY = "2024-03-06";
const PATH = "/v1/dark-pool/trades";

let h: Harness;
let m: MovableMarket;
const balance = () => h.accounts.balance(h.accountId);

beforeAll(() => {
  m = movableMarket(DP_NOW_MS, ["AAPL", "MSFT", "SPY", "XOM"]);
  h = makeHarness({ market: m.market, credits: 100_000 });
});

const get = async (q: Record<string, string | number | undefined>) => h.get(qs(PATH, q));

describe("rows against the raw prints", () => {
  it("min_notional=0 for one ticker: every print of today, newest first, with every field; 5 credits", async () => {
    const before = balance();
    const res = await get({ tickers: "aapl", min_notional: 0, limit: 5000 });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 5));
    const body = await json(res);
    const ref = await referencePrints(m.market, ["AAPL"], TODAY, m.clock.ms);
    expect(ref.length).toBeGreaterThan(100);
    expect(body.data).toHaveLength(Math.min(5000, ref.length));
    const adv = await referenceAdv(m.market, "AAPL", TODAY);
    const info = await m.market.symbolInfo("AAPL");
    ref.slice(0, body.data.length).forEach((p, i) => {
      const row = body.data[i];
      expect(row).toEqual({
        timestamp: new Date(p.tsMs).toISOString(),
        ticker: "AAPL",
        price: p.price,
        size: p.size,
        notional: decimalNotional(p),
        venue: p.venue,
        sector: info!.sector,
        industry: info!.industry,
        pctAvgVol: expect.closeTo((p.size / adv) * 100, 3),
      });
    });
    expect(body.meta).toMatchObject({ limit: 5000, offset: 0, count: body.data.length, hasMore: body.data.length === 5000 });
    expect(typeof body.meta.requestId).toBe("string");
    expect(Number.isNaN(Date.parse(body.meta.timestamp))).toBe(false);
  });

  it("the default min_notional is 1,000,000 and filters combine as documented", async () => {
    const ref = await referencePrints(m.market, ["AAPL", "MSFT"], TODAY, m.clock.ms);
    const notional = decimalNotional;
    const def = await json(await get({ tickers: "AAPL,MSFT", limit: 5000 }));
    expect(def.data.map((r: any) => r.notional)).toEqual(ref.filter((p) => notional(p) >= 1e6).map(notional));

    const q = { tickers: "AAPL,MSFT", min_notional: 20_000, max_notional: 400_000, min_size: 150, venue: "FINC", time_start: "09:30", time_end: "09:59", limit: 5000 };
    const body = await json(await get(q));
    const expected = ref.filter((p) => {
      const n = notional(p);
      const minute = etMinutesOfDay(p.tsMs);
      return n >= 20_000 && n <= 400_000 && p.size >= 150 && p.venue === "FINC" && minute >= 570 && minute <= 599;
    });
    expect(expected.length).toBeGreaterThan(3);
    expect(body.data.map((r: any) => `${r.timestamp}|${r.ticker}|${r.size}`)).toEqual(expected.map((p) => `${new Date(p.tsMs).toISOString()}|${p.ticker}|${p.size}`));
  });

  it("after/before are strict bounds and also pick the trade date; epoch nanoseconds work", async () => {
    const ref = await referencePrints(m.market, ["SPY"], "2024-03-05", Date.parse("2024-03-06T01:00:00Z"));
    const pivot = ref[Math.floor(ref.length / 2)];
    const body = await json(await get({ tickers: "SPY", min_notional: 0, after: pivot.tsNs, before: "2024-03-05T20:00:00Z", limit: 5000 }));
    const expected = ref.filter((p) => BigInt(p.tsNs) > BigInt(pivot.tsNs) && p.tsMs < Date.parse("2024-03-05T20:00:00Z"));
    expect(expected.length).toBeGreaterThan(10);
    expect(body.data).toHaveLength(expected.length);
    expect(body.data.every((r: any) => r.timestamp.startsWith("2024-03-05"))).toBe(true);
  });
});

describe("paging rules", () => {
  it("rule 2, desc: a cursor walk returns every print once, in order, while new prints arrive", async () => {
    const local = movableMarket(DP_NOW_MS);
    const app = makeHarness({ market: local.market, credits: 100_000 });
    const expected = await referencePrints(local.market, ["MSFT", "XOM"], TODAY, local.clock.ms);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await app.get(qs(PATH, { tickers: "MSFT,XOM", min_notional: 0, limit: 200, cursor }));
      expect(res.status).toBe(200);
      const body = await json(res);
      for (const r of body.data) seen.push(`${r.timestamp}|${r.ticker}|${r.price}|${r.size}`);
      cursor = body.meta.nextCursor ?? undefined;
      local.clock.ms += 90_000; // prints keep arriving between pages
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(3);
    expect(seen).toEqual(expected.map((p) => `${new Date(p.tsMs).toISOString()}|${p.ticker}|${p.price}|${p.size}`));
  });

  it("rule 2, asc: every page has a cursor; repeating the last call picks up newer prints, with no gap or repeat", async () => {
    const local = movableMarket(DP_NOW_MS);
    const app = makeHarness({ market: local.market, credits: 100_000 });
    const seen: string[] = [];
    let cursor: string | undefined;
    const page = async () => {
      const body = await json(await app.get(qs(PATH, { tickers: "SPY", min_notional: 0, order: "asc", limit: 1000, cursor })));
      expect(typeof body.meta.nextCursor).toBe("string");
      for (const r of body.data) seen.push(`${r.timestamp}|${r.price}|${r.size}`);
      cursor = body.meta.nextCursor;
      return body.data.length as number;
    };
    for (let i = 0; i < 12; i++) {
      await page();
      local.clock.ms += 120_000;
    }
    while ((await page()) === 1000);
    const at = cursor;
    expect(await page()).toBe(0); // caught up: nothing new, the same position
    expect(cursor).toBe(at);
    local.clock.ms += 60_000;
    expect(await page()).toBeGreaterThan(0); // a minute later, the prints reported since
    const all = (await referencePrints(local.market, ["SPY"], TODAY, local.clock.ms)).reverse();
    expect(seen).toEqual(all.map((p) => `${new Date(p.tsMs).toISOString()}|${p.price}|${p.size}`));
  });

  it("rule 3 and 4: sort=notional pages by offset (no cursor) until a short page", async () => {
    const ref = await referencePrints(m.market, ["AAPL"], TODAY, m.clock.ms);
    const expected = ref
      .map((p) => decimalNotional(p))
      .filter((n) => n >= 50_000)
      .sort((a, b) => b - a);
    const got: number[] = [];
    for (let offset = 0; ; offset += 100) {
      const body = await json(await get({ tickers: "AAPL", min_notional: 50_000, sort: "notional", limit: 100, offset }));
      expect(body.meta.nextCursor).toBeNull();
      expect(body.meta.offset).toBe(offset);
      got.push(...body.data.map((r: any) => r.notional));
      if (body.data.length < 100) break;
      expect(body.meta.hasMore).toBe(true);
    }
    expect(got).toEqual(expected);
  });

  it("rule 1: without tickers min_notional must be at least 100000 (400, uncharged); at 100000 every name is searched", async () => {
    const before = balance();
    const bad = await get({ min_notional: 99_999 });
    expect(bad.status).toBe(400);
    const err = await json(bad);
    expect(err.error.code).toBe("INVALID_PARAMETER");
    expect(err.error.message).toContain("min_notional");
    expect(balance()).toBe(before);
    const body = await json(await get({ min_notional: 100_000, limit: 5000 }));
    const ref = await referencePrints(m.market, ["AAPL", "MSFT", "SPY", "XOM"], TODAY, m.clock.ms);
    const expected = ref.filter((p) => decimalNotional(p) >= 100_000);
    expect(new Set(body.data.map((r: any) => r.ticker)).size).toBeGreaterThan(1);
    expect(body.data.map((r: any) => `${r.timestamp}|${r.ticker}|${r.size}`)).toEqual(expected.map((p) => `${new Date(p.tsMs).toISOString()}|${p.ticker}|${p.size}`));
  });
});

describe("bad input: spec code, the parameter named, nothing charged", () => {
  const cases: [string, Record<string, string | number>, number, string, string][] = [
    ["cursor with offset", { tickers: "AAPL", cursor: "x", offset: 5 }, 400, "INVALID_PARAMETER", "offset"],
    ["cursor with sort=notional", { tickers: "AAPL", cursor: "x", sort: "notional" }, 400, "INVALID_PARAMETER", "cursor"],
    ["a made-up cursor", { tickers: "AAPL", cursor: "bm90LWEtY3Vyc29y" }, 400, "INVALID_PARAMETER", "cursor"],
    ["venue", { tickers: "AAPL", venue: "NYSE" }, 400, "INVALID_PARAMETER", "FINN, FINC"],
    ["limit 0", { tickers: "AAPL", limit: 0 }, 400, "INVALID_PARAMETER", "limit"],
    ["limit 5001", { tickers: "AAPL", limit: 5001 }, 400, "INVALID_PARAMETER", "limit"],
    ["offset 50001", { tickers: "AAPL", offset: 50_001 }, 400, "INVALID_PARAMETER", "offset"],
    ["sort", { tickers: "AAPL", sort: "price" }, 400, "INVALID_PARAMETER", "time, notional, size"],
    ["time_start", { tickers: "AAPL", time_start: "9:30" }, 400, "INVALID_PARAMETER", "time_start"],
    ["after", { tickers: "AAPL", after: "yesterday" }, 400, "INVALID_PARAMETER", "after"],
    ["date with a range", { tickers: "AAPL", date: TODAY, date_start: "2024-03-01" }, 400, "INVALID_PARAMETER", "date"],
    ["a 32-day span", { tickers: "AAPL", date_start: "2024-02-01", date_end: "2024-03-03" }, 400, "RANGE_TOO_LARGE", "31"],
    ["51 tickers", { tickers: Array.from({ length: 51 }, (_, i) => `T${i}`).join(",") }, 400, "INVALID_PARAMETER", "tickers"],
    ["unknown tickers", { tickers: "NOPE,NADA" }, 404, "SYMBOL_NOT_FOUND", "NOPE"],
  ];
  it.each(cases)("%s", async (_name, q, status, code, mention) => {
    const before = balance();
    const res = await get(q);
    expect(res.status).toBe(status);
    const body = await json(res);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toContain(mention);
    expect(balance()).toBe(before);
  });

  it("a 31-day span is accepted; an unknown ticker beside a known one is dropped", async () => {
    const res = await get({ tickers: "AAPL,NOPE", date_start: "2024-02-05", date_end: "2024-03-06", min_notional: 5_000_000 });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.every((r: any) => r.ticker === "AAPL")).toBe(true);
  });
});
