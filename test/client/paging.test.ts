// The generic page iterators. No paged route is served yet (the flow and volatility modules land
// later), so these run over a fake paged endpoint through the real `send` and a fake fetch that
// implements the spec's dark-pool cursor rules and offset/limit paging.
import { describe, expect, it } from "vitest";
import { pages, pagingModeOf, rowsOf } from "../../lib/client/paging";
import { send, type Transport } from "../../lib/client/send";

const ROWS = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, notional: 1000 + ((i * 7919) % 101) }));

/** A fake endpoint: `cursor` = last id seen (time order), `offset`/`limit` otherwise. */
function fakeFetch(calls: URL[]) {
  return async (input: string) => {
    const url = new URL(input);
    calls.push(url);
    const limit = Number(url.searchParams.get("limit") ?? 5);
    const cursor = url.searchParams.get("cursor");
    if (url.searchParams.get("sort") === "notional" || url.searchParams.has("offset")) {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const rows = [...ROWS].sort((a, b) => b.notional - a.notional || a.id - b.id).slice(offset, offset + limit);
      return Response.json({ data: rows, meta: { limit, offset, count: rows.length } });
    }
    const after = cursor === null ? 0 : Number(cursor.slice(1));
    const rows = ROWS.filter((r) => r.id > after).slice(0, limit);
    const meta = rows.length === limit ? { nextCursor: `c${rows[rows.length - 1].id}` } : {};
    return Response.json({ data: { trades: rows }, meta });
  };
}

function transport(calls: URL[]): Transport {
  return {
    fetch: fakeFetch(calls),
    nowMs: () => Date.now(),
    random: () => 0,
    baseBackoffMs: 1,
    capBackoffMs: 1,
    defaults: { timeoutMs: 1000, deadlineMs: 5000, maxAttempts: 1 },
  };
}

const fetchPage = (calls: URL[]) => async (request: Record<string, unknown>) => {
  const qs = new URLSearchParams(Object.entries(request).map(([k, v]) => [k, String(v)]));
  const sent = await send(transport(calls), `http://x/v1/dark-pool/trades?${qs}`, {});
  const body = sent.body as { data: unknown; meta: unknown };
  return { data: body.data, meta: body.meta };
};

async function collect(iterator: AsyncIterable<{ data: unknown }>) {
  const rows: { id: number }[] = [];
  let n = 0;
  for await (const page of iterator) {
    n++;
    rows.push(...(rowsOf(page.data) as { id: number }[]));
  }
  return { rows, pages: n };
}

describe("page iterators", () => {
  it("cursor paging walks every row once, in order, and stops when no cursor comes back", async () => {
    const calls: URL[] = [];
    const { rows, pages: n } = await collect(pages(fetchPage(calls), "cursor", { limit: 5, tickers: "SPY" }));
    expect(rows.map((r) => r.id)).toEqual(ROWS.map((r) => r.id));
    expect(n).toBe(Math.ceil(ROWS.length / 5));
    // The filters go back with every page (spec rule 2).
    for (const c of calls) expect(c.searchParams.get("tickers")).toBe("SPY");
  });

  it("offset paging advances by the rows received and stops on a short page", async () => {
    const calls: URL[] = [];
    const { rows } = await collect(pages(fetchPage(calls), "offset", { limit: 5, sort: "notional" }));
    const expected = [...ROWS].sort((a, b) => b.notional - a.notional || a.id - b.id).map((r) => r.id);
    expect(rows.map((r) => r.id)).toEqual(expected);
    expect(calls.map((c) => Number(c.searchParams.get("offset") ?? 0))).toEqual([0, 5, 10, 15, 20]);
  });

  it("offset paging with an exact multiple stops on the empty page", async () => {
    const calls: URL[] = [];
    const { rows } = await collect(pages(fetchPage(calls), "offset", { limit: 23, offset: 0 }));
    expect(rows.length).toBe(23);
    expect(calls.length).toBe(2);
  });

  it("a route with both pages by offset for ranked sorts or an explicit offset, else by cursor (spec rule 3)", () => {
    expect(pagingModeOf("cursor+offset", {})).toBe("cursor");
    expect(pagingModeOf("cursor+offset", { sort: "time" })).toBe("cursor");
    expect(pagingModeOf("cursor+offset", { sort: "notional" })).toBe("offset");
    expect(pagingModeOf("cursor+offset", { offset: 100 })).toBe("offset");
    expect(pagingModeOf("offset", {})).toBe("offset");
    expect(pagingModeOf(null, {})).toBe(null);
  });

  it("rowsOf finds the rows: a list, `rows`, or the first list field", () => {
    expect(rowsOf([1, 2])).toEqual([1, 2]);
    expect(rowsOf({ rows: [3], other: [4] })).toEqual([3]);
    expect(rowsOf({ total: 2, trades: [5, 6] })).toEqual([5, 6]);
    expect(rowsOf({ total: 2 })).toEqual([]);
    expect(rowsOf(null)).toEqual([]);
  });
});
