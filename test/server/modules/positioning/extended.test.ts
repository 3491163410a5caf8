// `extended=true` over the simulated market (docs/api.md#extended-hours): /v1/stats/daily covers
// 04:00-20:00 ET (960 frames; 780 on early closes; no row on holidays), each frame equal to the
// board /v1/historical?extended=true replays at that minute; the heatmap, replay and stream serve
// extended-session boards when asked and regular-session ones otherwise.
import { afterAll, describe, expect, it } from "vitest";
import { dailyStats, sessionFrameInstants } from "../../../../lib/positioning";
import { etInstant } from "../../../../lib/time";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { moduleStateOf, positioningModule } from "../../../../server/modules";
import { buildBoardState } from "../../../../server/modules/positioning/board-source";
import { GridQuerySchema } from "../../../../server/modules/positioning/grid-route";
import { listen } from "../../../../server/http/listen";
import { configureStreams } from "../../../../server/streams/settings";
import { fixedClock } from "../../../../lib/market";
import { openRaw } from "../../streams/_sse";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

const REGULAR_DAY = "2024-11-27"; // Wednesday before Thanksgiving: a full session
const HOLIDAY = "2024-11-28"; // Thanksgiving: no session
const EARLY_CLOSE = "2024-11-29"; // 13:00 close, post-market to 17:00
const clock = { ms: etInstant("2024-12-02", "12:00") };
// The worker's seed-11 market through this file's movable clock (the stream test's app sees it
// through another clock): each board is built once for both.
const sim = simulatedMarketAt(11, clock.ms).withClock({ now: () => clock.ms });
const accounts = openAccountService({ dbPath: ":memory:" });
const { key } = accounts.createAccount({ plan: "top", credits: 1_000_000, dailyCapCredits: null, requestsPerMinute: 100_000 });
const app = createApp({
  market: sim,
  accounts,
  rateLimiter: createRateLimiter(),
  concurrency: createConcurrencyLimiter(),
  clock: { now: () => clock.ms },
  requestTimeoutMs: 120_000,
});
const request = (path: string) => app.request(path, { headers: { Authorization: `Bearer ${key}` } });
const get = async (path: string) => {
  const res = await request(path);
  expect(res.status).toBe(200);
  return res.json();
};
afterAll(() => accounts.close());

/** The library writes whole-second instants without milliseconds. */
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const isoParam = (ms: number) => new Date(ms).toISOString();

type Day = { date: string; frames: number; complete: boolean; firstAt: string; lastAt: string };

describe("/v1/stats/daily?extended=true", () => {
  it("has 960 frames on a full day, 780 on an early close, no row on the holiday (regular: 390, 210)", async () => {
    const range = `symbols=SPY&from=${REGULAR_DAY}&to=${EARLY_CLOSE}`;
    const ext = await get(`/v1/stats/daily?${range}&extended=true`);
    expect(ext.meta.extended).toBe(true);
    const days = ext.data.symbols[0].days as Day[];
    expect(days.map((d) => [d.date, d.frames, d.complete])).toEqual([
      [REGULAR_DAY, 960, true],
      [EARLY_CLOSE, 780, true],
    ]);
    expect([days[0].firstAt, days[0].lastAt]).toEqual([iso(etInstant(REGULAR_DAY, "04:00")), iso(etInstant(REGULAR_DAY, "19:59"))]);
    expect([days[1].firstAt, days[1].lastAt]).toEqual([iso(etInstant(EARLY_CLOSE, "04:00")), iso(etInstant(EARLY_CLOSE, "16:59"))]);
    const reg = await get(`/v1/stats/daily?${range}`);
    expect((reg.data.symbols[0].days as Day[]).map((d) => [d.date, d.frames])).toEqual([
      [REGULAR_DAY, 390],
      [EARLY_CLOSE, 210],
    ]);
    // Only the holiday: no session, so no row and (spec) the symbol is omitted; still a 200.
    const holiday = await get(`/v1/stats/daily?symbols=SPY,SPXW&from=${HOLIDAY}&to=${HOLIDAY}&extended=true`);
    expect(holiday.data).toEqual({ from: HOLIDAY, to: HOLIDAY, symbols: [] });
  }, 180_000);

  it("today: pre-market frames so far and complete=false; the regular session has no row before 09:30", async () => {
    // Another day than the tests above: their finished sessions are cached (the clock goes back here).
    const TODAY = "2024-11-26";
    clock.ms = etInstant(TODAY, "07:00");
    try {
      const ext = await get(`/v1/stats/daily?symbols=SPY&from=${TODAY}&extended=true`);
      expect(ext.data.symbols[0].days).toHaveLength(1);
      expect(ext.data.symbols[0].days[0]).toMatchObject({
        date: TODAY,
        frames: 181,
        complete: false,
        firstAt: iso(etInstant(TODAY, "04:00")),
        lastAt: iso(etInstant(TODAY, "07:00")),
      });
      const reg = await get(`/v1/stats/daily?symbols=SPY&from=${TODAY}`);
      expect(reg.data.symbols).toEqual([]);
    } finally {
      clock.ms = etInstant("2024-12-02", "12:00");
    }
  });

  it("equals the statistics of the frames /v1/historical?extended=true replays, minute by minute (early close, SPY)", async () => {
    const date = EARLY_CLOSE;
    const day = (await get(`/v1/stats/daily?symbols=SPY&from=${date}&to=${date}&extended=true`)).data.symbols[0].days[0];
    const frames = [];
    for (const t of sessionFrameInstants(date, { extended: true })) {
      const entry = (await get(`/v1/historical?symbols=SPY&extended=true&layout=matrix&at=${isoParam(t)}`)).data.symbols[0];
      expect(entry.asOf).toBe(iso(t));
      frames.push({ asOfMs: t, spot: entry.spot, values: Float64Array.from((entry.matrix as number[][]).flat()) });
    }
    expect(frames.length).toBe(780);
    expect(day).toEqual(dailyStats(frames, { date, extended: true, nowMs: clock.ms }));
    // Pre- and post-market frames moved: the extended spot range differs from the regular one.
    const regular = (await get(`/v1/stats/daily?symbols=SPY&from=${date}&to=${date}`)).data.symbols[0].days[0];
    expect([day.spotOpen, day.spotClose]).not.toEqual([regular.spotOpen, regular.spotClose]);
  }, 300_000);
});

describe("board routes with extended", () => {
  const pre = etInstant(REGULAR_DAY, "08:00");

  it("/v1/historical: the extended board at or before `at`; without extended, the previous close", async () => {
    const ext = await get(`/v1/historical?symbols=SPY,SPXW&extended=true&at=${isoParam(pre + 30_000)}`);
    expect(ext.meta.extended).toBe(true);
    for (const e of ext.data.symbols) expect(e.asOf).toBe(iso(pre));
    const spy = ext.data.symbols[0];
    expect(spy.spot).toBe((await sim.minuteBars("SPY", pre - 60_000, pre, { extended: true })).c[0]);
    const reg = await get(`/v1/historical?symbols=SPY&at=${isoParam(pre + 30_000)}`);
    expect(reg.meta.extended).toBe(false);
    expect(reg.data.symbols[0].asOf).toBe(iso(etInstant("2024-11-26", "16:00")));
    // Holiday: the previous session's 20:00 board.
    const hol = await get(`/v1/historical?symbols=SPY&extended=true&at=${isoParam(etInstant(HOLIDAY, "11:00"))}`);
    expect(hol.data.symbols[0].asOf).toBe(iso(etInstant(REGULAR_DAY, "20:00")));
  });

  it("/v1/heatmap: live pre-market board with velocity against five minutes earlier; regular without extended", async () => {
    clock.ms = pre + 30_000;
    try {
      const ext = await get(`/v1/heatmap?symbols=SPY&extended=true`);
      const e = ext.data.symbols[0];
      expect(e.asOf).toBe(iso(pre));
      expect(ext.meta).toMatchObject({ mode: "live", extended: true });
      expect(e.strikes.every((s: { velocityPct?: number }) => Number.isFinite(s.velocityPct))).toBe(true);
      expect(e.strikes.some((s: { velocityPct: number }) => s.velocityPct !== 0)).toBe(true); // spot moved since 07:55
      const reg = await get(`/v1/heatmap?symbols=SPY`);
      expect(reg.data.symbols[0].asOf).toBe(iso(etInstant("2024-11-26", "16:00")));
      expect(reg.meta.extended).toBe(false);
    } finally {
      clock.ms = etInstant("2024-12-02", "12:00");
    }
  });

  it("stream boards: live in pre- and post-market with extended, no_live_board otherwise and on holidays", async () => {
    const state = moduleStateOf(app.services, positioningModule);
    const { symbols: _s, ...base } = GridQuerySchema.parse({ symbols: "SPY" });
    const cases: [number, boolean, string][] = [
      [etInstant(REGULAR_DAY, "08:00"), true, "board"],
      [etInstant(REGULAR_DAY, "08:00"), false, "unavailable"],
      [etInstant(REGULAR_DAY, "17:45"), true, "board"],
      [etInstant(REGULAR_DAY, "17:45"), false, "unavailable"],
      [etInstant(REGULAR_DAY, "20:00"), true, "unavailable"],
      [etInstant(EARLY_CLOSE, "16:30"), true, "board"],
      [etInstant(EARLY_CLOSE, "17:00"), true, "unavailable"],
      [etInstant(HOLIDAY, "10:00"), true, "unavailable"],
    ];
    for (const [t, extended, kind] of cases) {
      clock.ms = t;
      try {
        const s = await buildBoardState(state, "SPY", { ...base, extended }, t);
        expect([isoParam(t), extended, s.kind]).toEqual([isoParam(t), extended, kind]);
        if (s.kind === "board") expect(s.asOfMs).toBe(t);
        else expect(s.reason).toBe("no_live_board");
      } finally {
        clock.ms = etInstant("2024-12-02", "12:00");
      }
    }
  });

  it("/v1/stream?extended=true over HTTP: connected says extended, the pre-market snapshot is the heatmap's board", async () => {
    const nowMs = pre + 30_000;
    const clockAt = fixedClock(nowMs);
    const live = createApp({
      market: sim.withClock(clockAt),
      accounts,
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      clock: clockAt,
    });
    configureStreams(live.services, { tickMs: 5, revalidateMs: 100 });
    const listening = await listen(live, { port: 0 });
    try {
      const raw = await openRaw(listening.url, key, "symbols=SPY&extended=true");
      expect(raw.status).toBe(200);
      const connected = await raw.waitFor((f) => f.event === "connected");
      expect(connected.data).toMatchObject({ metric: "gamma", extended: true });
      const snap = (await raw.waitFor((f) => f.event === "snapshot", 20_000)).data;
      const heat = (await (await live.request("/v1/heatmap?symbols=SPY&extended=true", { headers: { Authorization: `Bearer ${key}` } })).json()).data.symbols[0];
      expect(snap.asOf).toBe(iso(pre));
      const { strikes, ...rest } = heat;
      expect(snap).toEqual({ ...rest, strikes: strikes.map(({ velocityPct: _, ...c }: { velocityPct: number }) => c), lagged: false });
      raw.abort();
      const regular = await openRaw(listening.url, key, "symbols=SPY");
      const un = await regular.waitFor((f) => f.event === "symbol_unavailable", 20_000);
      expect(un.data).toMatchObject({ symbol: "SPY", reason: "no_live_board" });
      expect(regular.frames.some((f) => f.event === "snapshot")).toBe(false);
      regular.abort();
    } finally {
      await live.shutdown(200);
      await listening.close(true);
    }
  }, 60_000);

  it("a bad extended is 400 invalid_parameter naming it, on every route that takes it", async () => {
    for (const path of [
      "/v1/heatmap?symbols=SPY",
      `/v1/historical?symbols=SPY&at=${isoParam(pre)}`,
      "/v1/stream?symbols=SPY",
      `/v1/stats/daily?symbols=SPY&from=${REGULAR_DAY}`,
    ]) {
      const res = await request(`${path}&extended=maybe`);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("invalid_parameter");
      expect(body.error.message).toMatch(/extended/);
    }
  });
});
