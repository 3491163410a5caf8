import { describe, expect, it } from "vitest";
import { etInstant } from "../../../../lib/time";
import { fakeSpot } from "../../_fake-market";
import { LIVE_CACHE_TTL_MS } from "../../../../server/modules/positioning/service";
import { makeHarness, NOW_MS } from "../../_harness";

/** The library writes whole-second instants without milliseconds (lib/positioning isoUtc). */
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

type Cell = { strike: number; value: number; nodeType: string; velocityPct?: number };

describe("/v1/heatmap", () => {
  it("returns live entries with velocity, meta as specified, and a cache per symbol, params and minute", async () => {
    const h = makeHarness();
    const res = await h.get("/v1/heatmap?symbols=spy,SPXW&metric=gamma");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(["SPY", "SPXW"]);
    const spy = body.data.symbols[0];
    expect(spy.asOf).toBe("2024-03-06T15:00:00Z");
    expect(spy.strikes.length).toBeGreaterThan(0);
    for (const c of spy.strikes as Cell[]) expect(typeof c.velocityPct).toBe("number");
    expect(spy.strikes.filter((c: Cell) => c.nodeType === "king")).toHaveLength(1);
    // Previous close: the underlying's price at the prior session's last minute (2024-03-05 15:59 ET).
    expect(spy.previousClose).toBe(fakeSpot("SPY", etInstant("2024-03-05", "15:59")));
    expect(spy.priceChange).toBeCloseTo(spy.spot - spy.previousClose, 10);
    expect(body.meta).toMatchObject({ metric: "gamma", mode: "live", cached: false, simulated: true, resolution: "1m" });
    expect(body.meta.signModel).toEqual({ calls: 1, puts: -1 });
    expect(["wasm", "js"]).toContain(body.meta.engine);
    const calls = h.market.chainCalls;
    const again = await (await h.get("/v1/heatmap?symbols=SPY,SPXW")).json();
    expect(again.meta.cached).toBe(true);
    expect(h.market.chainCalls).toBe(calls);
    expect(again.data).toEqual(body.data);
    // The board changes only at minute boundaries: past the client's 5-second max-age the entry is
    // still the minute's answer, and rebuilding it would give the same bytes.
    expect(res.headers.get("cache-control")).toBe("private, max-age=5");
    h.wall.ms += 5_001;
    expect((await (await h.get("/v1/heatmap?symbols=SPY,SPXW")).json()).meta.cached).toBe(true);
    expect(h.market.chainCalls).toBe(calls);
    // The lifetime bounds it (a pinned market clock never turns the minute).
    h.wall.ms += LIVE_CACHE_TTL_MS;
    expect((await (await h.get("/v1/heatmap?symbols=SPY,SPXW")).json()).meta.cached).toBe(false);
    const vanna = await (await h.get("/v1/heatmap?symbols=SPY&metric=vanna")).json();
    expect(vanna.meta).toMatchObject({ metric: "vanna", cached: false });
  });

  it("a new market minute is a new entry; the market minute before it is not answered again", async () => {
    let nowMs = NOW_MS;
    const h = makeHarness();
    // The app reads the market's clock object: move its hand.
    (h.market.clock as { now: () => number }).now = () => nowMs;
    const first = await (await h.get("/v1/heatmap?symbols=SPY")).json();
    nowMs += 59_000; // 10:00:59 ET: the same minute's board
    const same = await (await h.get("/v1/heatmap?symbols=SPY")).json();
    expect(same.meta.cached).toBe(true);
    expect(same.data).toEqual(first.data);
    nowMs += 1_000; // 10:01: the next board
    const next = await (await h.get("/v1/heatmap?symbols=SPY")).json();
    expect(next.meta.cached).toBe(false);
    expect(next.data.symbols[0].asOf).toBe("2024-03-06T15:01:00Z");
  });

  it("a market whose past answers changed (a file reload: a new revision) is read again within the minute", async () => {
    const h = makeHarness();
    const market = h.market as typeof h.market & { revision: number };
    market.revision = 1;
    await h.get("/v1/heatmap?symbols=SPY");
    await h.get("/v1/gex/levels?symbols=SPY");
    const calls = market.chainCalls;
    expect((await (await h.get("/v1/heatmap?symbols=SPY")).json()).meta.cached).toBe(true);
    expect((await (await h.get("/v1/gex/levels?symbols=SPY")).json()).meta.cached).toBe(true);
    market.revision = 2;
    expect((await (await h.get("/v1/heatmap?symbols=SPY")).json()).meta.cached).toBe(false);
    expect((await (await h.get("/v1/gex/levels?symbols=SPY")).json()).meta.cached).toBe(false);
    expect(market.chainCalls).toBeGreaterThan(calls);
  });

  it("builds an expired entry once for every caller that misses while it is being built", async () => {
    const h = makeHarness();
    const first = await (await h.get("/v1/heatmap?symbols=SPY")).json();
    h.wall.ms += LIVE_CACHE_TTL_MS + 1;
    const calls = h.market.chainCalls;
    const bodies = await Promise.all(Array.from({ length: 8 }, async () => (await h.get("/v1/heatmap?symbols=SPY")).json()));
    // One rebuild: the board at the minute and the velocity board five minutes earlier.
    expect(h.market.chainCalls - calls).toBe(2);
    expect(bodies.filter((b) => b.meta.cached === false)).toHaveLength(1);
    for (const b of bodies) expect(b.data).toEqual(first.data);
    expect(h.accounts.balance(h.accountId)).toBe(1000 - 9);
  });

  it("validates with the spec's codes", async () => {
    const h = makeHarness();
    const cases: [string, string, RegExp][] = [
      ["/v1/heatmap", "missing_parameter", /symbols/],
      ["/v1/heatmap?symbols=", "missing_parameter", /symbols/],
      ["/v1/heatmap?symbols=SPY&metric=theta", "invalid_parameter", /metric.*gamma, vanna/],
      ["/v1/heatmap?symbols=SPY&maxStrikes=1001", "invalid_parameter", /maxStrikes/],
      ["/v1/heatmap?symbols=SPY&maxExpirations=0", "invalid_parameter", /maxExpirations/],
      ["/v1/heatmap?symbols=SPY&layout=grid", "invalid_parameter", /layout.*net, matrix/],
      ["/v1/heatmap?symbols=SPY&includeEmpty=maybe", "invalid_parameter", /includeEmpty/],
      ["/v1/heatmap?symbols=SPY&expirations=2024-13-01", "invalid_parameter", /expirations/],
      ["/v1/heatmap?symbols=SP%20Y!", "invalid_parameter", /symbols/],
      ["/v1/heatmap?symbols=SPY&metric=gamma&metric=vanna", "invalid_parameter", /metric/],
    ];
    for (const [path, code, message] of cases) {
      const body = await (await h.get(path)).json();
      expect(body.error.code, path).toBe(code);
      expect(body.error.message, path).toMatch(message);
    }
    expect((await h.get("/v1/heatmap?symbols=SPY&unknownThing=1")).status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(999);
  });

  it("expirations: nets exactly those; none matching is 404 expiration_not_found", async () => {
    const h = makeHarness();
    const one = await (await h.get("/v1/heatmap?symbols=SPY&expirations=2024-03-07&layout=matrix")).json();
    expect(one.data.symbols[0].expirations).toEqual(["2024-03-07"]);
    expect(one.data.symbols[0].matrix[0]).toHaveLength(1);
    const none = await h.get("/v1/heatmap?symbols=SPY&expirations=2030-01-01");
    expect(none.status).toBe(404);
    expect((await none.json()).error.code).toBe("expiration_not_found");
  });
});

describe("/v1/historical", () => {
  it("replays the board at or before `at` without velocityPct; `at` is bounded", async () => {
    const h = makeHarness();
    const body = await (await h.get("/v1/historical?symbols=SPY&at=2024-03-05T15:00:30Z")).json();
    expect(body.data.symbols[0].asOf).toBe("2024-03-05T15:00:00Z");
    expect(body.meta.mode).toBe("historical");
    for (const c of body.data.symbols[0].strikes as Cell[]) expect("velocityPct" in c).toBe(false);
    for (const [at, code] of [
      ["2023-03-27T15:00:00Z", "invalid_parameter"],
      ["2030-01-01T00:00:00Z", "invalid_parameter"],
      ["yesterday", "invalid_parameter"],
    ]) {
      expect((await (await h.get(`/v1/historical?symbols=SPY&at=${at}`)).json()).error.code).toBe(code);
    }
    expect((await (await h.get("/v1/historical?symbols=SPY")).json()).error.code).toBe("missing_parameter");
  });
});

describe("/v1/gex/levels", () => {
  it("gives king, levels strongest first and a summary; costs 1", async () => {
    const h = makeHarness({ credits: 10 });
    const res = await h.get("/v1/gex/levels?symbols=SPY,NOPE");
    expect(res.headers.get("x-credits-remaining")).toBe("9");
    const body = await res.json();
    const lv = body.data.symbols[0];
    expect(body.data.symbols).toHaveLength(1);
    expect(lv.kingNode.nodeType).toBe("king");
    expect(lv.levels[0].strike).toBe(lv.kingNode.strike);
    const mags = lv.levels.map((l: { value: number }) => Math.abs(l.value));
    expect(mags).toEqual([...mags].sort((a: number, b: number) => b - a));
    expect(lv.summary).toHaveProperty("netExposure");
  });
});

describe("/v1/stats/daily", () => {
  it("holidays and weekends have no row, early closes have fewer frames, finished sessions are complete", async () => {
    const h = makeHarness();
    const body = await (await h.get("/v1/stats/daily?symbols=SPY&from=2023-11-22&to=2023-11-27")).json();
    const days = body.data.symbols[0].days as { date: string; frames: number; complete: boolean; firstAt: string; lastAt: string }[];
    expect(days.map((d) => d.date)).toEqual(["2023-11-22", "2023-11-24", "2023-11-27"]);
    expect(days.map((d) => d.frames)).toEqual([390, 210, 390]);
    expect(days.every((d) => d.complete)).toBe(true);
    expect(days[0].firstAt).toBe(iso(etInstant("2023-11-22", "09:30")));
    expect(days[0].lastAt).toBe(iso(etInstant("2023-11-22", "15:59")));
    expect(days[1].lastAt).toBe(iso(etInstant("2023-11-24", "12:59")));
    const calls = h.market.chainCalls;
    const again = await (await h.get("/v1/stats/daily?symbols=SPY&from=2023-11-22&to=2023-11-27")).json();
    expect(again.data).toEqual(body.data);
    expect(again.meta.cached).toBe(true);
    expect(h.market.chainCalls).toBe(calls);
  });

  it("today is incomplete until 30 minutes after the close", async () => {
    for (const [time, frames, complete] of [
      ["10:00", 31, false],
      ["16:29", 390, false],
      ["16:30", 390, true],
    ] as const) {
      const h = makeHarness({ nowMs: etInstant("2024-03-06", time) });
      const body = await (await h.get("/v1/stats/daily?symbols=SPY&from=2024-03-06")).json();
      expect(body.data.to).toBe("2024-03-06");
      expect(body.data.symbols[0].days[0]).toMatchObject({ date: "2024-03-06", frames, complete });
    }
  });

  it("enforces 50 symbols, 31 calendar days, 400 symbol-sessions and the first date", async () => {
    const h = makeHarness();
    const syms = (n: number) => Array.from({ length: n }, (_, i) => `S${i}`).join(",");
    const code = async (q: string) => (await (await h.get(`/v1/stats/daily?${q}`)).json()).error?.code;
    expect(await code(`symbols=${syms(51)}&from=2024-02-01&to=2024-02-01`)).toBe("invalid_parameter");
    expect(await code("symbols=SPY&from=2024-01-01&to=2024-02-02")).toBe("range_too_large");
    expect(await code("symbols=SPY&from=2024-01-01&to=2024-02-01")).not.toBe("range_too_large");
    // 20 trading days (2024-02-01..2024-02-29 minus Presidents Day) x 21 symbols = 420 > 400.
    expect(await code(`symbols=${syms(21)}&from=2024-02-01&to=2024-02-29`)).toBe("request_too_large");
    expect(await code("symbols=SPY&from=2023-03-27&to=2023-03-28")).toBe("invalid_parameter");
    expect(await code("symbols=SPY&from=2024-02-10&to=2024-02-01")).toBe("invalid_parameter");
    expect(await code("symbols=SPY")).toBe("missing_parameter");
    expect(await code("symbols=NOPE1,NOPE2&from=2024-02-01&to=2024-02-02")).toBe("symbol_not_found");
  });

  it("agrees exactly with the frames /v1/historical replays for the same session", async () => {
    const h = makeHarness({ credits: 100_000 });
    const date = "2023-11-24";
    const stats = (await (await h.get(`/v1/stats/daily?symbols=SPXW&from=${date}&to=${date}&metric=vanna`)).json()).data.symbols[0].days[0];
    let min = Infinity,
      max = -Infinity,
      peakSum = 0,
      peakMax = 0,
      hi = -Infinity,
      lo = Infinity,
      n = 0;
    let first: number | null = null,
      last = 0;
    for (let t = etInstant(date, "09:30"); t < etInstant(date, "13:00"); t += 60_000, n++) {
      if (n % 100 === 0) h.wall.ms += 60_000; // stay under the per-minute rate limit
      const e = (await (await h.get(`/v1/historical?symbols=SPXW&metric=vanna&layout=matrix&at=${new Date(t).toISOString()}`)).json()).data.symbols[0];
      expect(e.asOf).toBe(iso(t));
      const cells = (e.matrix as number[][]).flat();
      const fmin = Math.min(...cells),
        fmax = Math.max(...cells);
      min = Math.min(min, fmin);
      max = Math.max(max, fmax);
      const peak = Math.max(Math.abs(fmin), Math.abs(fmax));
      peakSum += peak;
      peakMax = Math.max(peakMax, peak);
      hi = Math.max(hi, e.spot);
      lo = Math.min(lo, e.spot);
      first ??= e.spot;
      last = e.spot;
    }
    expect(stats).toEqual({
      date,
      frames: n,
      complete: true,
      firstAt: iso(etInstant(date, "09:30")),
      lastAt: iso(etInstant(date, "12:59")),
      spotOpen: first,
      spotHigh: hi,
      spotLow: lo,
      spotClose: last,
      minValue: min,
      maxValue: max,
      peakAbsMean: peakSum / n,
      peakAbsMax: peakMax,
    });
  });
});

describe("/v1/symbols", () => {
  it("lists option roots as separate boards, free", async () => {
    const h = makeHarness({ credits: 1 });
    const body = await (await h.get("/v1/symbols")).json();
    const names = body.data.symbols.map((s: { symbol: string }) => s.symbol);
    expect(names).toEqual(expect.arrayContaining(["SPXW", "SPX", "SPY", "AAPL"]));
    expect(body.data.symbols.find((s: { symbol: string }) => s.symbol === "SPXW")).toMatchObject({ isIndex: true, underlying: "SPX", history: { from: "2023-03-28" } });
    expect(h.accounts.balance(h.accountId)).toBe(1);
  });
});
