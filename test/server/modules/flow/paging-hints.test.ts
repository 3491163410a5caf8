// X-Skylit-Hint on /v1/contract/{symbol}/trades (flowseeker.yaml: splitting the time window
// instead of paging with the cursor gets the header): the rule in the library (overlap, distinct
// windows, recency) and over HTTP (a bisecting client gets it on its third window; a repeated poll,
// other filters and cursor pages do not).
import { beforeAll, describe, expect, it } from "vitest";
import { HINT_MIN_OVERLAPS, HINT_RECENT_MS, noteWindow, type SentWindow } from "../../../../lib/flow";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
const OPEN = sessionBounds(TODAY).openMs;
const M = 60_000;

/** Feeds windows in order; returns each one's hint. */
function run(windows: readonly SentWindow[]): boolean[] {
  let kept: SentWindow[] = [];
  return windows.map((w) => {
    const r = noteWindow(kept, w);
    kept = r.kept;
    return r.hint;
  });
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("paging hint rule", () => {
  it("hints once two recent distinct windows overlap the new one", () => {
    expect(HINT_MIN_OVERLAPS).toBe(2);
    expect(
      run([
        { fromMs: 0, toMs: 100, atMs: 0 },
        { fromMs: 0, toMs: 50, atMs: 1 },
        { fromMs: 25, toMs: 50, atMs: 2 },
      ]),
    ).toEqual([false, false, true]);
    // Touching windows [0,50) and [50,100) do not overlap; repeating one window is a poll, not a split.
    expect(
      run([
        { fromMs: 0, toMs: 50, atMs: 0 },
        { fromMs: 50, toMs: 100, atMs: 1 },
        { fromMs: 100, toMs: 150, atMs: 2 },
      ]),
    ).toEqual([false, false, false]);
    expect(run([0, 1, 2, 3].map((k) => ({ fromMs: 0, toMs: 100, atMs: k })))).toEqual([false, false, false, false]);
    // Overlapping one window polled many times counts it once.
    expect(run([0, 1, 2].map((k) => ({ fromMs: 0, toMs: 100, atMs: k })).concat([{ fromMs: 0, toMs: 50, atMs: 3 }]))).toEqual([false, false, false, false]);
    // Windows older than the recency limit do not count.
    const late = HINT_RECENT_MS + 10;
    expect(
      run([
        { fromMs: 0, toMs: 100, atMs: 0 },
        { fromMs: 0, toMs: 50, atMs: 5 },
        { fromMs: 25, toMs: 50, atMs: late },
      ]),
    ).toEqual([false, false, false]);
  });
});

describe("X-Skylit-Hint over HTTP", () => {
  it("a bisecting client gets the header on its third overlapping window; polls, other filters and cursor pages do not", async () => {
    const prints = await h.sim.optionPrints("XOM", OPEN, NOW_MS);
    const counts = new Map<string, number>();
    for (const p of prints) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
    const symbol = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const url = (from: number, to: number, extra = "") => `/v1/contract/${symbol}/trades?start=${from / 1000}&end=${to / 1000}${extra}`;
    const hintOf = async (path: string) => {
      const res = await h.get(path);
      expect(res.status, path).toBe(200);
      return res.headers.get("X-Skylit-Hint");
    };
    // Polling one window never hints.
    for (let k = 0; k < 3; k++) expect(await hintOf(url(OPEN, OPEN + 30 * M))).toBeNull();
    // Bisecting: [0,30) (seen), [0,15), then [7,15) overlaps two distinct earlier windows.
    expect(await hintOf(url(OPEN, OPEN + 15 * M))).toBeNull();
    const third = await h.get(url(OPEN + 7 * M, OPEN + 15 * M));
    expect(third.headers.get("X-Skylit-Hint")).toMatch(/^use next_cursor \(.+#flow-contract-trades-paging\)$/);
    expect(third.headers.get("Access-Control-Expose-Headers") ?? "").toContain("X-Skylit-Hint");
    // Other filters are another key: their first windows do not hint.
    expect(await hintOf(url(OPEN + 3 * M, OPEN + 9 * M, "&min_premium=1"))).toBeNull();
    // A cursor page never hints, even inside the bisected range.
    const page = await body(await h.get(url(OPEN, OPEN + 30 * M, "&limit=1")));
    expect(page.meta.nextCursor).toBeDefined();
    expect(await hintOf(`${url(OPEN, OPEN + 30 * M, "&limit=1")}&cursor=${page.meta.nextCursor}`)).toBeNull();
  });
});
