// Issue 33: a session recorded from the simulated market replays byte for byte through
// /v1/historical, /v1/historical/range and /v1/stats/daily, from the files written minute by minute
// and again after the session's partition is compacted; the recorded market's other methods
// answer what the simulator answered.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatedMarket, fixedClock } from "../../../lib/market";
import type { MarketData } from "../../../lib/market/market-data";
import { etInstant } from "../../../lib/time";
import { runRecordCli } from "../../../server/cli/record-cli";
import { openRecordedMarket } from "../../../server/recording/recorded-market";
import { startRecording, type MinuteAck } from "../../../server/recording/recorder";
import { compactPartition, isComplete, recordedRoot } from "../../../server/recording/store";
import { makeHarness } from "../_harness";

const DATE = "2024-03-06";
// 10:00 ET: the session's first 31 boards exist (a whole SPXW-sized session is the bench's job).
const NOW = etInstant(DATE, "10:00");
const FROM = etInstant(DATE, "09:20");
const SYMBOL = "AAPL";
const iso = (ms: number) => new Date(ms).toISOString();

const PATHS = [
  `/v1/historical?symbols=${SYMBOL}&at=${iso(etInstant(DATE, "09:30"))}`,
  `/v1/historical?symbols=${SYMBOL}&at=${iso(etInstant(DATE, "09:47") + 30_000)}`,
  `/v1/historical?symbols=${SYMBOL}&at=${iso(NOW)}&metric=vanna&layout=net`,
  `/v1/historical/range?symbols=${SYMBOL}&from=${iso(etInstant(DATE, "09:40"))}&to=${iso(etInstant(DATE, "09:55"))}`,
  `/v1/stats/daily?symbols=${SYMBOL}&from=${DATE}&to=${DATE}`,
  `/v1/stats/daily?symbols=${SYMBOL}&from=${DATE}&to=${DATE}&metric=vanna`,
];

/** Each path's status and body text (meta's per-request fields aside), on an app over `market`. */
async function answers(market: MarketData): Promise<string[]> {
  const h = makeHarness({ market, credits: 10_000, nowMs: NOW });
  const out: string[] = [];
  for (const p of PATHS) {
    const res = await h.get(p);
    const body = (await res.json()) as { data?: unknown; meta?: Record<string, unknown>; error?: unknown };
    const { requestId: _r, creditsRemaining: _c, ...meta } = body.meta ?? {};
    out.push(`${res.status} ${JSON.stringify({ data: body.data, meta, error: body.error })}`);
  }
  return out;
}

describe("recorded session replay", () => {
  let dir: string;
  const clock = fixedClock(NOW);
  const sim = createSimulatedMarket({ seed: 7, clock });
  const acks: MinuteAck[] = [];
  let live: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "optionscope-replay-"));
    const rec = await startRecording(sim, { dataDir: dir, underlyings: [SYMBOL], fromMs: FROM, pollMs: 0, onMinute: (a) => acks.push(a) });
    await rec.catchUp();
    await rec.stop();
    live = await answers(sim);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("acknowledges every minute from the start to now, with a board in the regular session only", () => {
    expect(acks.map((a) => a.t)).toEqual(Array.from({ length: 41 }, (_, i) => FROM + i * 60_000));
    expect(acks.filter((a) => a.board).map((a) => a.t)).toEqual(Array.from({ length: 31 }, (_, i) => etInstant(DATE, "09:30") + i * 60_000));
  });

  it("answers /v1/historical, /v1/historical/range and /v1/stats/daily byte for byte, before and after compaction", async () => {
    expect(live.map((a) => a.slice(0, 300)).filter((a) => !a.startsWith("200 "))).toEqual([]);
    const pending = openRecordedMarket(dir, { clock });
    expect(pending.simulated).toBe(true);
    expect(await answers(pending)).toEqual(live);
    pending.close();
    await compactPartition(recordedRoot(dir), DATE, SYMBOL);
    expect(isComplete(recordedRoot(dir), DATE, SYMBOL)).toBe(true);
    const compacted = openRecordedMarket(dir, { clock });
    expect(await answers(compacted)).toEqual(live);
    compacted.close();
  });

  it("answers spot, bars, prints, off-exchange prints and earnings as the simulator did; nothing unrecorded", async () => {
    const rec = openRecordedMarket(dir, { clock });
    const from = FROM - 60_000;
    for (const t of [etInstant(DATE, "09:31") + 17_000, etInstant(DATE, "09:59"), NOW + 3_600_000]) {
      expect(await rec.spot(SYMBOL, t)).toBe(await sim.spot(SYMBOL, t));
    }
    for (const extended of [false, true]) {
      expect(await rec.minuteBars(SYMBOL, from, NOW, { extended })).toEqual(await sim.minuteBars(SYMBOL, from, NOW, { extended }));
    }
    expect(JSON.stringify(await rec.optionPrints(SYMBOL, from, NOW))).toBe(JSON.stringify(await sim.optionPrints(SYMBOL, from, NOW)));
    const off = await rec.offExchangePrints([SYMBOL], from, NOW);
    expect(off.length).toBeGreaterThan(0);
    expect(JSON.stringify(off)).toBe(JSON.stringify(await sim.offExchangePrints([SYMBOL], from, NOW)));
    expect(await rec.earnings(SYMBOL, DATE, "2024-09-01")).toEqual(await sim.earnings(SYMBOL, DATE, "2024-09-01"));
    expect((await rec.universe()).map((s) => s.ticker)).toEqual([SYMBOL]);
    // A symbol never recorded, and an instant before anything recorded.
    expect(await rec.chain("SPY", NOW)).toBeNull();
    expect(await rec.chain(SYMBOL, etInstant("2024-03-05", "12:00"))).toBeNull();
    rec.close();
  });

  it("optionscope record: an unknown underlying, a missing or bad flag are clear errors", async () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => err.push(t) };
    const now = ["--now", iso(NOW), "--data-dir", dir];
    expect(await runRecordCli(["record", "--underlyings", "AAPL,NOPE", ...now], {}, io, { market: sim })).toBe(1);
    expect(err.join("")).toContain("unknown underlying NOPE");
    expect(await runRecordCli(["record", ...now], {}, io, { market: sim })).toBe(2);
    expect(err.join("")).toContain("Missing --underlyings.");
    expect(await runRecordCli(["record", "--underlyings", "AAPL", "--retention-days", "two", ...now], {}, io, { market: sim })).toBe(2);
    expect(err.join("")).toContain("Invalid --retention-days: expected a whole number >= 0");
  });
});
