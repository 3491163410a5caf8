// X-Skylit-Hint on /v1/flow/{ticker} (flowseeker.yaml getFlow: "several overlapping time windows
// for the same filters within seconds"), through the detector both trade feeds share
// (server/modules/flow/shared/paging-hints.ts): a bisecting client gets the header on its third
// overlapping window; other filters, another account, cursor pages, polls of one window (open or
// closed) and windows older than the recency limit do not; the body is the same with or without it.
import { beforeAll, describe, expect, it } from "vitest";
import { HINT_MAX_KEPT, HINT_RECENT_MS } from "../../../../lib/flow";
import { sessionBounds } from "../../../../lib/time";
import { createPagingHints } from "../../../../server/modules/flow/shared/paging-hints";
import { body, flowHarness, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
const OPEN = sessionBounds(TODAY).openMs;
const M = 60_000;
const s = (ms: number) => ms / 1000;
/** RFC 3339 instant of `ms` (the feed takes both forms). */
const iso = (ms: number) => new Date(ms).toISOString();

/** The window's URL; `end_time` is inclusive on this feed, so `[from, to)` is sent as `to - 1 ms`. */
const url = (from: number, to: number, extra = "") => `/v1/flow/XOM?start_time=${iso(from)}&end_time=${iso(to - 1)}&limit=5${extra}`;

async function hintOf(path: string, key?: string): Promise<string | null> {
  const res = await h.get(path, key ? { key } : {});
  expect(res.status, path).toBe(200);
  return res.headers.get("X-Skylit-Hint");
}

/** The body without the per-request fields (request id, response time, query time). */
function stable(b: any): any {
  const { queryTimeMs: _q, ...data } = b.data;
  const { requestId: _r, timestamp: _t, ...meta } = b.meta;
  return { data, meta };
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("the shared detector", () => {
  it("keys by account, feed and filters, and holds at most its key budget", () => {
    const d = createPagingHints(3);
    const note = (account: string, filters: string, start: number, end: number, atMs: number) => d.note({ account, feed: "flow|SPY", filters, start, end, atMs });
    expect([note("a", "f", 0, 100, 0), note("a", "f", 0, 50, 1), note("a", "f", 25, 50, 2)]).toEqual([false, false, true]);
    // The same windows from another account or with other filters start from nothing.
    expect([note("b", "f", 0, 100, 3), note("b", "f", 0, 50, 4)]).toEqual([false, false]);
    expect(note("a", "g", 25, 50, 5)).toBe(false);
    for (let k = 0; k < 50; k++) note(`x${k}`, "f", 0, 10, 6);
    expect(d.size).toBe(3);
    // Per key at most HINT_MAX_KEPT windows: many distinct windows keep the detector's answer but not their history.
    const e = createPagingHints(1);
    for (let k = 0; k < 4 * HINT_MAX_KEPT; k++) e.note({ account: "a", feed: "f", filters: "", start: k, end: k + 2, atMs: 0 });
    expect(e.size).toBe(1);
  });

  it("an absent bound is open, so polling 'until now' or 'the last hour' is one window, not a new one each time", () => {
    const d = createPagingHints();
    const poll = (start?: number) => [0, 1, 2, 3].map((t) => d.note({ account: "a", feed: "f", filters: String(start), start, atMs: t }));
    expect(poll(undefined)).toEqual([false, false, false, false]);
    expect(poll(OPEN)).toEqual([false, false, false, false]);
  });
});

describe("X-Skylit-Hint on /v1/flow/{ticker}", () => {
  it("a bisecting client gets it on its third overlapping window with the same filters; the body is unchanged", async () => {
    h.wall.ms += 60_000;
    expect(await hintOf(url(OPEN, OPEN + 30 * M))).toBeNull();
    expect(await hintOf(url(OPEN, OPEN + 15 * M))).toBeNull();
    const third = await h.get(url(OPEN + 7 * M, OPEN + 15 * M));
    expect(third.headers.get("X-Skylit-Hint")).toBe("use next_cursor (/docs/api.md#flow-feed-paging)");
    expect(third.headers.get("Access-Control-Expose-Headers") ?? "").toContain("X-Skylit-Hint");
    const hinted = stable(await body(third));
    expect(hinted.data.trades.length).toBeGreaterThan(0);
    // The same request from a fresh account (no history, so no header) answers the same body.
    const other = h.accounts.createAccount({ plan: "top", credits: 1_000 });
    const plain = await h.get(url(OPEN + 7 * M, OPEN + 15 * M), { key: other.key });
    expect(plain.headers.get("X-Skylit-Hint")).toBeNull();
    expect(stable(await body(plain))).toEqual(hinted);
  });

  it("Unix seconds and RFC 3339 name the same window", async () => {
    h.wall.ms += 60_000;
    expect(await hintOf(`/v1/flow/XOM?start_time=${s(OPEN)}&end_time=${s(OPEN + 20 * M)}`)).toBeNull();
    expect(await hintOf(`/v1/flow/XOM?start_time=${iso(OPEN)}&end_time=${iso(OPEN + 10 * M)}`)).toBeNull();
    expect(await hintOf(`/v1/flow/XOM?start_time=${s(OPEN + 5 * M)}&end_time=${s(OPEN + 10 * M)}`)).toMatch(/^use next_cursor/);
  });

  it("other filters, cursor pages, repeated polls and stale windows do not hint", async () => {
    h.wall.ms += 60_000;
    // Each window with different filters: three keys, one window each.
    expect(await hintOf(url(OPEN, OPEN + 30 * M, "&option_type=call"))).toBeNull();
    expect(await hintOf(url(OPEN, OPEN + 15 * M, "&option_type=put"))).toBeNull();
    expect(await hintOf(url(OPEN + 7 * M, OPEN + 15 * M, "&min_premium=1"))).toBeNull();
    // Cursor paging through one window: no header on any page, however many.
    const first = await body(await h.get(url(OPEN, OPEN + 30 * M, "&moneyness=otm")));
    let cursor = first.meta.nextCursor;
    expect(cursor).toBeDefined();
    for (let k = 0; k < 4 && cursor; k++) {
      const res = await h.get(`${url(OPEN, OPEN + 30 * M, "&moneyness=otm")}&cursor=${cursor}`);
      expect(res.headers.get("X-Skylit-Hint")).toBeNull();
      cursor = (await body(res)).meta.nextCursor;
    }
    // Polling the live feed (timeframe only) or one fixed window never hints.
    for (let k = 0; k < 4; k++) expect(await hintOf("/v1/flow/XOM?timeframe=15m&limit=5")).toBeNull();
    for (let k = 0; k < 4; k++) expect(await hintOf(url(OPEN, OPEN + 20 * M, "&trade_type=sweep"))).toBeNull();
    // Overlapping windows more than HINT_RECENT_MS apart of wall time are not "within seconds".
    const extra = "&option_type=call&min_contracts=2";
    expect(await hintOf(url(OPEN, OPEN + 30 * M, extra))).toBeNull();
    h.wall.ms += HINT_RECENT_MS + 1;
    expect(await hintOf(url(OPEN, OPEN + 15 * M, extra))).toBeNull();
    h.wall.ms += HINT_RECENT_MS + 1;
    expect(await hintOf(url(OPEN + 7 * M, OPEN + 15 * M, extra))).toBeNull();
  });
});
