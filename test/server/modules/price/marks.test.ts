// `/v1/marks` and `/v1/timescale_marks` on the simulated market, checked against independent
// computations: the king strike of `/v1/historical` at each sample minute (argmax |value|), sweep
// premiums summed from the member prints, block notionals from the off-exchange tape, and the
// earnings calendar. Rules: docs/methodology.md#chart-marks.
import { beforeAll, describe, expect, it } from "vitest";
import { BarMarksSchema, TimescaleMarksSchema } from "../../../../lib/api/marks";
import { groupSweeps } from "../../../../lib/flow/sweeps";
import { MARK_RULES } from "../../../../lib/price/marks";
import { etInstant } from "../../../../lib/time";
import { makeHarness, type Harness } from "../../_harness";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

// Tuesday 2024-03-05 15:30 ET; the window is that session so far. (A session whose SPY king node
// moves: since issue 35's anchored market, 2024-03-06's stays at 520 all day.)
const NOW = Date.parse("2024-03-05T20:30:00Z");
const FROM_S = Date.parse("2024-03-05T14:30:00Z") / 1000;
const TO_S = NOW / 1000;
const market = simulatedMarketAt(42, NOW);

let h: Harness;
beforeAll(() => {
  h = makeHarness({ market, nowMs: NOW, credits: 100_000 });
});

type Mark = { id: string; time: number; kind: string; text: string; url: string };

async function marksOf(symbol: string): Promise<Mark[]> {
  const res = await h.get(`/atlas/v1/marks?symbol=${symbol}&from=${FROM_S}&to=${TO_S}&resolution=5`);
  expect(res.status).toBe(200);
  return BarMarksSchema.parse(await res.json());
}

const isoMinute = (s: number) => new Date(s * 1000).toISOString().replace(".000Z", "Z");

describe("chart marks", () => {
  it("/v1/config announces marks and time-scale marks", async () => {
    const body = await (await h.get("/atlas/v1/config")).json();
    expect([body.supports_marks, body.supports_timescale_marks]).toEqual([true, true]);
  });

  it("/v1/marks: in the window, oldest first, each linking to its minute's heatmap, 1 credit", async () => {
    const before = h.accounts.balance(h.accountId);
    const marks = await marksOf("SPY");
    expect(h.accounts.balance(h.accountId)).toBe(before - 1);
    expect(marks.length).toBeGreaterThan(0);
    for (let i = 0; i < marks.length; i++) {
      expect(marks[i].time).toBeGreaterThanOrEqual(FROM_S);
      expect(marks[i].time).toBeLessThan(TO_S);
      expect(marks[i].time % 60).toBe(0);
      if (i > 0) expect(marks[i].time).toBeGreaterThanOrEqual(marks[i - 1].time);
      expect(marks[i].url).toBe(`/heatmap?symbol=SPY&at=${isoMinute(marks[i].time)}`);
    }
  }, 60_000);

  it("king-node marks are exactly the sample minutes where /v1/historical's argmax |value| strike changes", async () => {
    const marks = (await marksOf("SPY")).filter((m) => m.kind === "king_node");
    const step = MARK_RULES.kingStepMinutes * 60;
    const open = etInstant("2024-03-05", "09:30") / 1000;
    const samples: { t: number; king: number }[] = [];
    for (let t = open + step; t < TO_S; t += step) {
      if (t < FROM_S) continue;
      const res = await h.get(`/v1/historical?symbols=SPY&at=${isoMinute(t)}`);
      const strikes = (await res.json()).data.symbols[0].strikes as { strike: number; value: number }[];
      let king = strikes[0];
      for (const s of strikes) if (Math.abs(s.value) > Math.abs(king.value)) king = s;
      samples.push({ t, king: king.strike });
    }
    const expected = samples
      .slice(1)
      .filter((s, i) => s.king !== samples[i].king)
      .map((s) => s.t);
    // The seeded session has changes in the window, so this checks something.
    expect(expected.length).toBeGreaterThan(0);
    expect(marks.map((m) => m.time)).toEqual(expected);
    for (const m of marks) {
      const i = samples.findIndex((s) => s.t === m.time);
      expect(m.text).toContain(`${samples[i - 1].king} -> ${samples[i].king}`);
    }
  }, 120_000);

  it("sweep and block marks: every sweep of at least the premium threshold, every block of at least the notional threshold", async () => {
    const marks = await marksOf("SPY");
    const prints = await market.optionPrints("SPY", FROM_S * 1000, TO_S * 1000);
    const { groups } = groupSweeps(prints);
    // Premium summed independently from the member prints: price x size x 100.
    const big = groups.filter((g) => g.printIndices.reduce((s, i) => s + prints[i].price * prints[i].size * 100, 0) >= MARK_RULES.sweepMinPremiumUsd - 1e-6);
    const sweepMarks = marks.filter((m) => m.kind === "sweep");
    expect(sweepMarks.length).toBe(big.length);
    expect(sweepMarks.map((m) => m.time).sort((a, b) => a - b)).toEqual(big.map((g) => Math.floor(g.firstTsMs / 60_000) * 60).sort((a, b) => a - b));
    const tape = await market.offExchangePrints(["SPY"], FROM_S * 1000, TO_S * 1000);
    const blocks = tape.filter((p) => p.price * p.size >= MARK_RULES.blockMinNotionalUsd);
    expect(blocks.length).toBeGreaterThan(0);
    expect(big.length).toBeGreaterThan(0);
    expect(
      marks
        .filter((m) => m.kind === "dark_pool_block")
        .map((m) => m.id)
        .sort(),
    ).toEqual(blocks.map((p) => `block-${p.id}`).sort());
  }, 60_000);

  it("/v1/timescale_marks: the earnings calendar at 09:30 ET (before the open) or 16:00 ET (after the close)", async () => {
    const from = Date.parse("2023-06-01T00:00:00Z") / 1000;
    const res = await h.get(`/atlas/v1/timescale_marks?symbol=AAPL&from=${from}&to=${TO_S}&resolution=D`);
    expect(res.status).toBe(200);
    const marks = TimescaleMarksSchema.parse(await res.json());
    const events = await market.earnings("AAPL", "2023-06-01", "2024-03-06");
    expect(events.length).toBeGreaterThan(0);
    expect(marks.map((m) => m.time)).toEqual(events.map((e) => etInstant(e.date, e.timing === "bmo" ? "09:30" : "16:00") / 1000));
    for (const m of marks) expect(m.url).toBe(`/heatmap?symbol=AAPL&at=${isoMinute(m.time)}`);
  });

  it("bad input: a 400 naming the parameter (not charged), an unknown symbol 404, an empty window []", async () => {
    const before = h.accounts.balance(h.accountId);
    const bad = await h.get(`/atlas/v1/marks?symbol=SPY&from=${FROM_S}&to=${TO_S}&resolution=7`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("resolution");
    const unknown = await h.get(`/atlas/v1/timescale_marks?symbol=ZZZZ&from=${FROM_S}&to=${TO_S}&resolution=D`);
    expect(unknown.status).toBe(404);
    expect(h.accounts.balance(h.accountId)).toBe(before);
    const empty = await h.get(`/atlas/v1/marks?symbol=SPY&from=${TO_S}&to=${FROM_S}&resolution=5`);
    expect(await empty.json()).toEqual([]);
  });
});
