// A route past its time limit answers 504 `gateway_timeout` at the limit and is refunded: its work
// waits (asynchronously) off the loop that answers, so the limit's timer fires. Over a real socket,
// over MCP, and on a real route (the market overview) whose market reads never come back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../../../server/modules";
import { startMcpHarness, type McpHarness } from "../mcp/_mcp-harness";
import { flowHarness } from "./flow/_flow-harness";

const LIMIT_MS = 300;
const COST = 3;

/** What the slow handler saw: whether its signal aborted, and with what. */
const seen: { aborted: boolean; reason: unknown }[] = [];

/** A route whose work takes forever, a slice at a time, until its signal aborts. */
const slowRoute = defineRoute({
  host: "base",
  module: "positioning",
  method: "GET",
  path: "/v1/test/slow",
  operationId: "getTestSlow",
  cost: COST,
  entitlement: "positioning",
  timeoutMs: LIMIT_MS,
  query: z.object({}),
  data: z.object({ done: z.boolean() }),
  summary: "Never finishes",
  description: "Test route: works in slices until its time limit aborts it.",
  tags: ["test"],
  handler: async ({ signal }) => {
    const record = { aborted: false, reason: undefined as unknown };
    seen.push(record);
    while (!signal.aborted) await new Promise((r) => setTimeout(r, 5));
    record.aborted = true;
    record.reason = signal.reason;
    return { data: { done: true } };
  },
});

let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness({ credits: 100, extraRoutes: [slowRoute] });
});
afterAll(() => h.close());

/** The ledger rows of one request: its debit and refund, nothing else. */
const rowsOf = (requestId: string) => h.accounts.ledger(h.accountId, { limit: 50 }).filter((e) => e.requestId === requestId);

describe("a route past its time limit", () => {
  it("HTTP: 504 gateway_timeout once the limit has passed, the work aborted, debit and refund in the ledger", async () => {
    const before = h.accounts.balance(h.accountId);
    const t0 = performance.now();
    const res = await fetch(`${h.origin}/v1/test/slow`, { headers: { Authorization: `Bearer ${h.key}` } });
    const elapsed = performance.now() - t0;
    expect(res.status).toBe(504);
    const body = await res.json();
    expect(body.error.code).toBe("gateway_timeout");
    expect(body.error.message).toContain(`${LIMIT_MS / 1000} seconds`);
    // The limit fired (the handler never finishes on its own), not earlier.
    expect(elapsed).toBeGreaterThanOrEqual(LIMIT_MS - 1);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before));
    expect(h.accounts.balance(h.accountId)).toBe(before);
    const requestId = res.headers.get("x-request-id")!;
    expect(requestId).toBeTruthy();
    const rows = rowsOf(requestId);
    expect(rows.map((r) => [r.kind, r.delta]).sort()).toEqual([
      ["debit", -COST],
      ["refund", COST],
    ]);
    // The handler's signal aborted with the same 504, so its work stopped.
    await new Promise((r) => setTimeout(r, 20));
    const last = seen.at(-1)!;
    expect(last.aborted).toBe(true);
    expect((last.reason as { status?: number }).status).toBe(504);
  });

  it("MCP: the tool call is an error with gateway_timeout, refunded", async () => {
    const client = await h.connect();
    const before = h.accounts.balance(h.accountId);
    const lastId = h.accounts.ledger(h.accountId, { limit: 1 })[0]!.id;
    const r = await client.callTool({ name: "test_slow", arguments: {} });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]?.text ?? "").toMatch(/^gateway_timeout\b/);
    expect(r._meta?.creditsRemaining).toBe(before);
    expect(h.accounts.balance(h.accountId)).toBe(before);
    const rows = h.accounts.ledger(h.accountId, { limit: 20 }).filter((e) => e.id > lastId);
    expect(rows.map((e) => [e.kind, e.delta]).sort()).toEqual([
      ["debit", -COST],
      ["refund", COST],
    ]);
  });
});

describe("a real route whose market reads never come back", () => {
  it("/v1/market/overview answers 504 at the app's limit, refunded", async () => {
    const f = flowHarness({ universe: ["AAPL", "SPY"], requestTimeoutMs: LIMIT_MS, credits: 50 });
    f.gate.wait = new Promise(() => {}); // every option-print read hangs
    const res = await f.get("/v1/market/overview");
    expect(res.status).toBe(504);
    expect((await res.json()).error.code).toBe("GATEWAY_TIMEOUT"); // flow-module codes are upper-case (spec)
    expect(res.headers.get("x-credits-remaining")).toBe("50");
    expect(f.accounts.balance(f.accountId)).toBe(50);
    const kinds = f.accounts
      .ledger(f.accountId)
      .filter((e) => e.kind === "debit" || e.kind === "refund")
      .map((e) => [e.kind, e.delta]);
    expect(kinds.sort()).toEqual([
      ["debit", -3],
      ["refund", 3],
    ]);
  });
});
