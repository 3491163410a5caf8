// A route whose store fails under it (the persisted daily store's SQLite database closed, as when
// the file is gone or the handle died): REST and the MCP tool of the same route answer 503
// `store_unavailable` with Retry-After, not 500, and the caller's balance is what it was. (A flow
// route: the flow module upper-cases its codes, spec "Errors".)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dailyDbPath, marketIdentity, openDailyStore, type DailyDataStore } from "../../../server/daily-store";
import { STORE_RETRY_AFTER_S } from "../../../server/errors";
import { listen, type Listening } from "../../../server/http/listen";
import { flowModule } from "../../../server/modules/flow";
import { metaModule } from "../../../server/modules/meta";
import { makeHarness, type Harness } from "../_harness";
import { tempDir } from "../daily-store/_store-fixtures";
import { rawRpc } from "../mcp/_mcp-harness";
import { narrowedMarket, NOW_MS, PRIOR } from "../modules/flow/_flow-harness";

const PATH = `/v1/underlying/top/weekly?date=${PRIOR}`;

describe("a closed daily store under a flow route", () => {
  const t = tempDir();
  let store: DailyDataStore;
  let h: Harness;
  let listening: Listening;
  beforeAll(async () => {
    store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 7 }));
    h = makeHarness({ market: narrowedMarket(["TXN", "LMT"]), nowMs: NOW_MS, credits: 10_000, modules: [metaModule, flowModule], dailyStore: store });
    // Closed before any request: nothing the route could have cached from it.
    store.close();
    listening = await listen(h.app, { port: 0, hostname: "127.0.0.1" });
  });
  afterAll(async () => {
    await listening?.close(true);
  });

  it("REST: 503 store_unavailable with Retry-After, the credits it was charged refunded", async () => {
    const before = h.accounts.balance(h.accountId);
    const res = await h.get(PATH);
    const body = (await res.json()) as { error: { code: string; message: string; retry_after: number } };
    expect([res.status, body.error.code]).toEqual([503, "STORE_UNAVAILABLE"]);
    expect(res.headers.get("retry-after")).toBe(String(STORE_RETRY_AFTER_S));
    expect(body.error.retry_after).toBe(STORE_RETRY_AFTER_S);
    expect(body.error.message).not.toMatch(/database|sqlite/i);
    expect(h.accounts.balance(h.accountId)).toBe(before);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before));
    // Logged as the store failure it is (with the driver's text for the operator), not as a fault.
    expect(h.logs.filter((l) => l.msg === "unhandled")).toEqual([]);
    expect(h.logs.filter((l) => l.msg === "store_unavailable").map((l) => l.error)).toEqual(["The database connection is not open"]);
  });

  it("MCP: the tool result is the same 503 store_unavailable error, uncharged", async () => {
    const list = await rawRpc(`${listening.url}/mcp`, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }), {
      Authorization: `Bearer ${h.key}`,
      "Mcp-Protocol-Version": "2025-06-18",
    });
    const tool = (list.json.result.tools as { name: string }[]).find((t) => /top_weekly|weekly/.test(t.name));
    expect(tool, "a tool for /v1/underlying/top/weekly").toBeDefined();
    const before = h.accounts.balance(h.accountId);
    const r = await rawRpc(
      `${listening.url}/mcp`,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: tool!.name, arguments: { date: PRIOR } } }),
      { Authorization: `Bearer ${h.key}`, "Mcp-Protocol-Version": "2025-06-18" },
    );
    expect(r.status).toBe(200);
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result._meta.error).toMatchObject({ status: 503, code: "STORE_UNAVAILABLE", retry_after: STORE_RETRY_AFTER_S });
    expect(h.accounts.balance(h.accountId)).toBe(before);
    expect(r.headers.get("x-credits-remaining")).toBe(String(before));
  });
});
