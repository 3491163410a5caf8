// `/v1/marks` memoises finished sessions (their marks never change): a second call over a finished
// session computes nothing and answers the same; any window inside it is served from the same
// parts; the session still in progress is computed on every call. docs/api.md#chart-marks.
import { beforeAll, describe, expect, it } from "vitest";
import { BarMarksSchema } from "../../../../lib/api/marks";
// (Counted per market as the server holds it: `services.market`, the guarded market: server/market-guard.ts.)
import { sessionsComputed } from "../../../../server/modules/price/session-marks";
import { makeHarness, type Harness } from "../../_harness";
import { simulatedMarketAt } from "../../../_helpers/simulated-market";

const NOW = Date.parse("2024-03-06T20:30:00Z"); // Wednesday 15:30 ET: Tuesday is finished
const s = (iso: string) => Date.parse(iso) / 1000;
const market = simulatedMarketAt(42, NOW);
let h: Harness;
beforeAll(() => {
  h = makeHarness({ market, nowMs: NOW, credits: 100_000 });
});

async function marks(from: number, to: number) {
  const res = await h.get(`/atlas/v1/marks?symbol=SPY&from=${from}&to=${to}&resolution=5`);
  expect(res.status).toBe(200);
  return BarMarksSchema.parse(await res.json());
}

describe("marks cache", () => {
  it("a finished session is computed once; the same call again and any window inside it come from the cache", async () => {
    const before = sessionsComputed(h.app.services.market);
    const day = await marks(s("2024-03-05T14:30:00Z"), s("2024-03-05T21:00:00Z"));
    expect(sessionsComputed(h.app.services.market)).toBe(before + 1);
    expect(day.length).toBeGreaterThan(0);
    const credits = h.accounts.balance(h.accountId);
    expect(await marks(s("2024-03-05T14:30:00Z"), s("2024-03-05T21:00:00Z"))).toEqual(day);
    expect(h.accounts.balance(h.accountId)).toBe(credits - 1); // still charged: the cache is the server's saving

    // The afternoon: its sweeps and blocks are the day's in [13:00, 16:00) ET, nothing computed.
    const from = s("2024-03-05T18:00:00Z");
    const to = s("2024-03-05T21:00:00Z");
    const afternoon = await marks(from, to);
    expect(sessionsComputed(h.app.services.market)).toBe(before + 1);
    const events = (list: typeof day) => list.filter((m) => m.kind !== "king_node");
    expect(events(afternoon)).toEqual(events(day).filter((m) => m.time >= from && m.time < to));
    expect(events(afternoon).length).toBeGreaterThan(0);
    // King changes inside the afternoon are changes of the day too (the afternoon's first sample is only a baseline).
    const dayKings = new Set(day.filter((m) => m.kind === "king_node").map((m) => m.id));
    for (const m of afternoon.filter((m) => m.kind === "king_node")) expect(dayKings.has(m.id)).toBe(true);
  }, 120_000);

  it("the session in progress is computed on every call (its tapes still grow)", async () => {
    const from = s("2024-03-06T19:00:00Z");
    const before = sessionsComputed(h.app.services.market);
    const first = await marks(from, NOW / 1000);
    const second = await marks(from, NOW / 1000);
    expect(sessionsComputed(h.app.services.market)).toBe(before + 2);
    expect(second).toEqual(first);
  }, 120_000);
});
