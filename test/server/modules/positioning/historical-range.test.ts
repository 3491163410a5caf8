// Issue 16, item 2: /v1/historical/range, the reference's shape, charged once (25), each frame's
// values equal to the single-minute replay's strikes[i].value at that instant.
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { createSimulatedMarket, fixedClock } from "../../../../lib/market";
import { etInstant } from "../../../../lib/time";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { makeHarness, NOW_MS } from "../../_harness";

const iso = (ms: number) => new Date(ms).toISOString();

/** Checks a range answer against /v1/historical, minute by minute. */
async function expectFramesEqualReplay(get: (p: string) => Promise<any>, body: any, extra = "") {
  for (const sym of body.data.symbols) {
    expect(sym.frames.length).toBeGreaterThan(0);
    for (const frame of sym.frames) {
      const single = (await get(`/v1/historical?symbols=${sym.symbol}&at=${frame.asOf}${extra}`)).data.symbols[0];
      const axis = sym.axes[frame.axis];
      expect(single.asOf).toBe(frame.asOf);
      expect(axis.strikes).toEqual(single.strikes.map((s: { strike: number }) => s.strike));
      expect(axis.expirations).toEqual(single.expirations);
      expect(frame.values).toEqual(single.strikes.map((s: { value: number }) => s.value));
      expect(frame.spot).toBe(single.spot);
      expect(frame.previousClose).toBe(single.previousClose);
    }
  }
}

describe("/v1/historical/range", () => {
  it("15 minutes: one frame per board minute, axes listed once, each frame equal to /v1/historical; 25 credits", async () => {
    const h = makeHarness({ credits: 1000 });
    const from = NOW_MS - 15 * 60_000;
    const res = await h.get(`/v1/historical/range?symbols=SPY,QQQ&from=${iso(from)}&to=${iso(NOW_MS)}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(h.accounts.balance(h.accountId)).toBe(975);
    expect(body.data.from).toBe(iso(from));
    expect(body.data.to).toBe(iso(NOW_MS));
    expect(body.meta).toMatchObject({ resolution: "1m", mode: "historical", cached: false });
    for (const sym of body.data.symbols) {
      expect(sym.frames.map((f: { asOf: string }) => Date.parse(f.asOf))).toEqual(Array.from({ length: 16 }, (_, i) => from + i * 60_000));
      const ids = sym.axes.map((a: { id: number }) => a.id);
      expect(ids).toEqual(ids.map((_: number, i: number) => i));
      const keys = sym.axes.map((a: { strikes: number[]; expirations: string[] }) => JSON.stringify([a.strikes, a.expirations]));
      expect(new Set(keys).size).toBe(keys.length);
    }
    await expectFramesEqualReplay((p) => h.get(p).then((r) => r.json()), body);
  });

  it("enforces the window, the clock, the 5-symbol ceiling and the first date, uncharged", async () => {
    const h = makeHarness({ credits: 1000 });
    const cases: [string, number, string][] = [
      [`from=${iso(NOW_MS - 16 * 60_000)}&to=${iso(NOW_MS)}&symbols=SPY`, 400, "range_too_large"],
      [`from=${iso(NOW_MS)}&to=${iso(NOW_MS + 60_000)}&symbols=SPY`, 400, "invalid_parameter"],
      [`from=${iso(NOW_MS)}&to=${iso(NOW_MS - 60_000)}&symbols=SPY`, 400, "invalid_parameter"],
      [`from=2023-03-01T15:00:00Z&to=2023-03-01T15:05:00Z&symbols=SPY`, 400, "invalid_parameter"],
      [`from=${iso(NOW_MS - 60_000)}&to=${iso(NOW_MS)}&symbols=A,B,C,D,E,F`, 400, "invalid_parameter"],
      [`to=${iso(NOW_MS)}&symbols=SPY`, 400, "missing_parameter"],
      [`from=2024-03-02T15:00:00Z&to=2024-03-02T15:05:00Z&symbols=SPY`, 404, "no_data"],
    ];
    for (const [q, status, code] of cases) {
      const res = await h.get(`/v1/historical/range?${q}`);
      expect(res.status, q).toBe(status);
      expect((await res.json()).error.code, q).toBe(code);
    }
    expect(h.accounts.balance(h.accountId)).toBe(1000);
  });

  it("is gzip-compressed when asked, identical once decompressed", async () => {
    const h = makeHarness({ credits: 1000 });
    const path = `/v1/historical/range?symbols=SPY&from=${iso(NOW_MS - 5 * 60_000)}&to=${iso(NOW_MS)}`;
    const plain = await (await h.get(path)).text();
    const zipped = await h.get(path, { headers: { "Accept-Encoding": "gzip" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const text = gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString("utf8");
    expect(JSON.parse(text)).toEqual(JSON.parse(plain));
    expect((await h.get(path, { headers: { "Accept-Encoding": "gzip;q=0" } })).headers.get("content-encoding")).toBeNull();
  });

  describe("over the simulated market (windowed boards)", () => {
    const nowMs = etInstant("2024-03-15", "11:00");
    const clock = fixedClock(nowMs);
    const accounts = openAccountService({ dbPath: ":memory:" });
    const { key } = accounts.createAccount({ plan: "top", credits: 100_000, requestsPerMinute: 10_000 });
    const app = createApp({
      market: createSimulatedMarket({ seed: 3, clock }),
      accounts,
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      clock,
      requestTimeoutMs: 60_000,
    });
    const get = async (p: string) => {
      const res = await app.request(p, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status, p).toBe(200);
      return res.json();
    };
    afterAll(() => accounts.close());

    it("SPXW and AAPL: every frame equals the full-board replay of its minute (vanna too)", async () => {
      for (const metric of ["gamma", "vanna"]) {
        const body = await get(`/v1/historical/range?symbols=SPXW,AAPL&from=${iso(nowMs - 3 * 60_000)}&to=${iso(nowMs)}&metric=${metric}&maxStrikes=40`);
        expect(body.data.symbols.map((s: { frames: unknown[] }) => s.frames.length)).toEqual([4, 4]);
        await expectFramesEqualReplay(get, body, `&metric=${metric}&maxStrikes=40`);
      }
    });
  });
});
