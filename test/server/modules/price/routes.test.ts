// The price module on {atlas_url}, in process: status codes, exact bodies and headers of
// /v1/history, /v1/symbols, /v1/config, /v1/search, /v1/time and the chart page, over the
// simulator pinned at Wednesday 2024-03-06 10:00 EST.
import { beforeAll, describe, expect, it } from "vitest";
import { aggregateIntraday } from "../../../../lib/price";
import { sessionBounds, sessionMinuteCount, tradingDaysBetween } from "../../../../lib/time";
import { refDaily, utcMidnight } from "../../../price/_reference";
import { makeHarness, NOW_MS, type Harness } from "../../_harness";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

const S = (iso: string) => Date.parse(iso) / 1000;
const market = simulatedMarketAt(42, NOW_MS);

async function json(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}

function history(q: Record<string, string | number | boolean>): string {
  const p = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
  return `/atlas/v1/history?${p}`;
}

let h: Harness;
const balance = () => h.accounts.balance(h.accountId);

beforeAll(() => {
  h = makeHarness({ market, credits: 100_000 });
});

describe("/v1/history", () => {
  it("daily bars: one per trading day at 00:00 UTC, equal-length columns, values from the regular session", async () => {
    const before = balance();
    const res = await h.get(history({ symbol: "SPY", resolution: "D", from: S("2024-02-01T00:00:00Z"), to: NOW_MS / 1000 }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("cache-control")).toBe("private, max-age=2");
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 1));
    for (const k of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(res.headers.get(k)).toMatch(/^\d+$/);
    const body = await json(res);
    expect(body.s).toBe("ok");
    const dates = tradingDaysBetween("2024-02-01", "2024-03-06");
    expect(body.t).toEqual(dates.map((d) => utcMidnight(d) / 1000));
    for (const k of ["o", "h", "l", "c", "v", "bv", "sv", "uv"]) expect(body[k]).toHaveLength(dates.length);
    // One day against the slow reference over the simulator's own minutes.
    const { openMs, closeMs } = sessionBounds("2024-02-15", { extended: true });
    const ref = refDaily(await market.minuteBars("SPY", openMs, closeMs, { extended: true }))[0];
    const i = dates.indexOf("2024-02-15");
    expect([body.o[i], body.h[i], body.l[i], body.c[i], body.v[i], body.bv[i], body.sv[i], body.uv[i]]).toEqual([
      ref.o,
      ref.h,
      ref.l,
      ref.c,
      ref.v,
      ref.bv,
      ref.sv,
      ref.uv,
    ]);
    // Today's bar is the 30 minutes since the open.
    const today = await market.minuteBars("SPY", sessionBounds("2024-03-06").openMs, NOW_MS);
    expect(body.v[body.v.length - 1]).toBe(today.v.reduce((a, b) => a + b, 0));
  });

  it("1D and 1W mean D and W", async () => {
    const q = { symbol: "QQQ", from: S("2024-01-01T00:00:00Z"), to: S("2024-03-01T00:00:00Z") };
    expect(await json(await h.get(history({ ...q, resolution: "1D" })))).toEqual(await json(await h.get(history({ ...q, resolution: "D" }))));
    const w = await json(await h.get(history({ ...q, resolution: "1W" })));
    expect(w).toEqual(await json(await h.get(history({ ...q, resolution: "W" }))));
    expect(w.t[0]).toBe(S("2024-01-02T00:00:00Z")); // New Year's Day: the week starts Tuesday
  });

  it("one-minute counts: 390 regular, 960 extended, 210 on an early close", async () => {
    const day = (d: string, extended: boolean) =>
      // Midnight to midnight ET (a UTC day would catch the previous evening's post-market).
      h.get(history({ symbol: "SPY", resolution: "1", from: S(`${d}T05:00:00Z`), to: S(`${d}T05:00:00Z`) + 86_400, extended })).then(json);
    expect((await day("2024-03-05", false)).t).toHaveLength(390);
    expect((await day("2024-03-05", true)).t).toHaveLength(960);
    expect((await day("2023-11-24", false)).t).toHaveLength(210);
    expect((await day("2023-11-24", true)).t).toHaveLength(780);
  });

  it("a minute-tier window over several days (read a day at a time) equals aggregating the window's minutes read at once", async () => {
    for (const extended of [false, true]) {
      const from = S("2024-02-28T03:00:00Z");
      const to = S("2024-03-05T23:30:00Z");
      const body = await json(await h.get(history({ symbol: "SPY", resolution: "5", from, to, extended })));
      const whole = aggregateIntraday(await market.minuteBars("SPY", from * 1000, to * 1000, { extended }), 5, { extended });
      expect(body.t.length).toBeGreaterThan(4 * 78);
      expect(body.t).toEqual(Array.from(whole.t, (t) => t / 1000));
      expect(body.c).toEqual(Array.from(whole.c));
      expect(body.v).toEqual(Array.from(whole.v));
    }
  });

  it("5-minute bars of the prior session are anchored at 09:30 and cached 60 s; older days are immutable", async () => {
    const res = await h.get(history({ symbol: "SPY", resolution: "5", from: S("2024-03-05T00:00:00Z"), to: S("2024-03-06T00:00:00Z") }));
    expect(res.headers.get("cache-control")).toBe("private, max-age=60");
    const body = await json(res);
    expect(body.t).toHaveLength(78);
    expect(body.t[0]).toBe(S("2024-03-05T14:30:00Z"));
    expect(body.t.every((t: number, i: number) => i === 0 || t - body.t[i - 1] === 300)).toBe(true);
    const old = await h.get(history({ symbol: "SPY", resolution: "60", from: S("2024-02-01T00:00:00Z"), to: S("2024-03-01T00:00:00Z") }));
    expect(old.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
  });

  it("extended 60-minute bars start at 04:00 ET; an index ignores extended and has no sided volume", async () => {
    const ext = await json(await h.get(history({ symbol: "SPY", resolution: "60", from: S("2024-03-05T05:00:00Z"), to: S("2024-03-06T05:00:00Z"), extended: true })));
    expect(ext.t).toHaveLength(16);
    expect(ext.t[0]).toBe(S("2024-03-05T09:00:00Z"));
    const q = { symbol: "SPX", resolution: "60", from: S("2024-03-05T00:00:00Z"), to: S("2024-03-06T00:00:00Z") };
    const spx = await json(await h.get(history(q)));
    expect(spx.t).toHaveLength(7);
    expect(Object.keys(spx).sort()).toEqual(["c", "h", "l", "o", "s", "t", "v"]);
    expect(await json(await h.get(history({ ...q, extended: true })))).toEqual(spx);
  });

  it("countback returns exactly N bars ending at to, across sessions", async () => {
    const body = await json(await h.get(history({ symbol: "SPY", resolution: "5", from: 0, to: S("2024-03-06T14:45:00Z"), countback: 10 })));
    const want = [...[25, 30, 35, 40, 45, 50, 55].map((m) => S(`2024-03-05T20:${m}:00Z`)), ...[30, 35, 40].map((m) => S(`2024-03-06T14:${m}:00Z`))];
    expect(body.t).toEqual(want);
    // countback wins over from, and runs across the weekend.
    const d = await json(await h.get(history({ symbol: "SPY", resolution: "D", from: S("2024-03-06T00:00:00Z"), to: S("2024-03-05T00:00:00Z"), countback: 3 })));
    expect(d.t).toEqual(["2024-02-29", "2024-03-01", "2024-03-04"].map((x) => utcMidnight(x) / 1000));
  });

  it("an empty window is 200 no_data with nextTime of the nearest earlier bar", async () => {
    const weekend = await h.get(history({ symbol: "SPY", resolution: "5", from: S("2024-03-02T00:00:00Z"), to: S("2024-03-04T00:00:00Z") }));
    expect(weekend.status).toBe(200);
    expect(await json(weekend)).toEqual({ s: "no_data", nextTime: S("2024-03-01T20:55:00Z") });
    const holiday = await json(await h.get(history({ symbol: "SPY", resolution: "D", from: S("2024-02-19T00:00:00Z"), to: S("2024-02-20T00:00:00Z") })));
    expect(holiday).toEqual({ s: "no_data", nextTime: S("2024-02-16T00:00:00Z") });
    const future = await json(await h.get(history({ symbol: "SPY", resolution: "5", from: S("2024-03-07T00:00:00Z"), to: S("2024-03-08T00:00:00Z") })));
    expect(future).toEqual({ s: "no_data", nextTime: S("2024-03-06T14:55:00Z") });
    // Before the simulator's first session there is no earlier bar.
    const early = await json(await h.get(history({ symbol: "SPY", resolution: "D", from: S("2023-01-03T00:00:00Z"), to: S("2023-01-06T00:00:00Z") })));
    expect(early).toEqual({ s: "no_data" });
  });

  it("a window one trading day over the tier cap is a 400 with the exact UDF body, no-store, refunded", async () => {
    const days = tradingDaysBetween("2023-06-01", "2024-03-05");
    const fromSec = sessionBounds(days[0]).openMs / 1000;
    const atCap = await h.get(history({ symbol: "SPY", resolution: "1", from: fromSec, to: sessionBounds(days[89]).closeMs / 1000 }));
    expect(atCap.status).toBe(200);
    expect((await json(atCap)).t).toHaveLength(days.slice(0, 90).reduce((n, d) => n + sessionMinuteCount(d), 0)); // early closes included
    const before = balance();
    const res = await h.get(history({ symbol: "SPY", resolution: "1", from: fromSec, to: sessionBounds(days[90]).openMs / 1000 + 60 }));
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-credits-remaining")).toBe(String(before));
    expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(balance()).toBe(before);
    const errmsg =
      'requested range spans 91 trading days; resolution "1" allows at most 90 per request. Narrow the range, or page ' +
      "through it in windows of 90 trading days or fewer.";
    expect(await json(res)).toEqual({
      s: "error",
      errmsg,
      requested_days: 91,
      max_days: 90,
      error: { code: "range_too_large", message: errmsg, requested_days: 91, max_days: 90 },
    });
  });

  it("bad parameters are 400 in the price style and not charged; an unknown symbol is 404, refunded", async () => {
    const before = balance();
    const bad = await h.get(history({ symbol: "SPY", resolution: "4", from: 0, to: 1 }));
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ s: "error", error: { code: "invalid_parameter" } });
    const inverted = await json(await h.get(history({ symbol: "SPY", resolution: "D", from: 10, to: 9 })));
    expect(inverted).toMatchObject({ s: "error", error: { code: "invalid_parameter" } });
    expect(inverted.errmsg).toMatch(/from/);
    const missing = await json(await h.get(`/atlas/v1/history?symbol=SPY&resolution=D&from=1`));
    expect(missing).toMatchObject({ s: "error", error: { code: "missing_parameter" } });
    const unknown = await h.get(history({ symbol: "NOPE", resolution: "D", from: 0, to: 1 }));
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ s: "error", errmsg: 'Unknown symbol "NOPE".', error: { code: "symbol_not_found" } });
    expect(unknown.headers.get("x-credits-remaining")).toBe(String(before));
    expect(balance()).toBe(before);
  });

  it("needs a key: 401 in the price style", async () => {
    const res = await h.get(history({ symbol: "SPY", resolution: "D", from: 0, to: 1 }), { key: null });
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ s: "error", error: { code: "unauthorized" } });
  });
});

describe("/v1/symbols, /v1/config, /v1/search, /v1/time", () => {
  it("symbols: the UDF record, labelled simulated; 1 credit", async () => {
    const before = balance();
    const res = await h.get("/atlas/v1/symbols?symbol=spy");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 1));
    const body = await json(res);
    expect(body).toMatchObject({
      ticker: "SPY",
      name: "SPY",
      type: "etf",
      session: "0930-1600",
      timezone: "America/New_York",
      exchange: "ARCA",
      data_status: "simulated",
      simulated: true,
    });
    expect(body.description).toBe("SPDR S&P 500 ETF Trust (simulated market data)");
  });

  it("symbols: malformed 400 and unknown 404 as {success: false, error}, refunded", async () => {
    const before = balance();
    const bad = await h.get("/atlas/v1/symbols?symbol=%24%24");
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ s: "error", errmsg: "invalid symbol", success: false, error: "invalid symbol", code: "invalid_parameter" });
    const unknown = await h.get("/atlas/v1/symbols?symbol=ZZZZ");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    expect(await json(unknown)).toEqual({ s: "error", errmsg: "symbol not found", success: false, error: "symbol not found", code: "symbol_not_found" });
    expect(unknown.headers.get("x-credits-remaining")).toBe(String(before));
    expect(balance()).toBe(before);
  });

  it("config: free, the caps per resolution, search and time supported", async () => {
    const before = balance();
    const res = await h.get("/atlas/v1/config");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBeNull();
    expect(balance()).toBe(before);
    const body = await json(res);
    expect(body).toMatchObject({ supports_search: true, supports_time: true, supported_resolutions: ["1", "2", "3", "5", "15", "30", "60", "240", "480", "D", "W"] });
    expect(body.max_fetch_trading_days).toEqual({ "1": 90, "2": 90, "3": 90, "5": 90, "15": 90, "30": 90, "60": 720, "240": 720, "480": 720, D: 2600, W: 2600 });
    expect((await h.get("/atlas/v1/config", { key: null })).status).toBe(401);
  });

  it("search: ranked, limited, 1 credit", async () => {
    const before = balance();
    const res = await h.get("/atlas/v1/search?query=spx&limit=2");
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 1));
    const body = await json(res);
    expect(body.map((r: { symbol: string }) => r.symbol)).toEqual(["SPX", "SPXW"]);
    expect(body[0]).toMatchObject({ ticker: "SPX", exchange: "CBOE", type: "index", kind: "index" });
    expect((await h.get("/atlas/v1/search?query=spx&limit=0")).status).toBe(400);
  });

  it("time: the market clock in Unix seconds as text/plain; free", async () => {
    const res = await h.get("/atlas/v1/time");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(String(Math.floor(NOW_MS / 1000)));
  });

  it("the price host's OpenAPI document lists every price route with its cost", async () => {
    const doc = await json(await h.get("/atlas/v1/openapi.json", { key: null }));
    const paths = doc.paths as Record<string, { get: { "x-credits": number } }>;
    expect(Object.fromEntries(["/v1/history", "/v1/symbols", "/v1/config", "/v1/search", "/v1/time"].map((p) => [p, paths[p]?.get["x-credits"]]))).toEqual({
      "/v1/history": 1,
      "/v1/symbols": 1,
      "/v1/config": 0,
      "/v1/search": 1,
      "/v1/time": 0,
    });
    // Price routes stay off the base host.
    expect((await h.get("/v1/history?symbol=SPY&resolution=D&from=0&to=1")).status).toBe(404);
  });
});

describe("the chart page", () => {
  it("is served without a key on the atlas host: page, script and the charting library", async () => {
    const page = await h.get("/atlas/chart?symbol=SPY", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    const html = await page.text();
    expect(html).toContain("Simulated market data");
    expect(html).toContain('src="/atlas/chart/lightweight-charts.js"');
    const app = await h.get("/atlas/chart/app.js", { key: null });
    expect(app.headers.get("content-type")).toMatch(/javascript/);
    expect(await app.text()).toContain("CandlestickSeries");
    const lib = await h.get("/atlas/chart/lightweight-charts.js", { key: null });
    expect(lib.status).toBe(200);
    expect(await lib.text()).toContain("LightweightCharts");
    expect((await h.get("/chart", { key: null })).status).toBe(404);
  });
});
