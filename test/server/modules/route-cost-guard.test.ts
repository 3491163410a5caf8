// A route whose computed cost is not a finite non-negative integer is never served: the executor
// answers 500 (logged) before the handler runs, over HTTP and MCP, and charges nothing. This is the
// backstop behind the prototype-key fix in `/v1/aggregate/{ticker}` (a NaN cost served data free).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinModules, defineModule, defineRoute } from "../../../server/modules";
import { makeHarness } from "../_harness";

const BAD_COSTS: Record<string, number> = { nan: Number.NaN, negative: -3, fraction: 1.5, infinite: Number.POSITIVE_INFINITY };

function pricedBy(ran: string[]) {
  return defineRoute({
    host: "base",
    module: "positioning",
    method: "GET",
    path: "/v1/test/priced",
    operationId: "getTestPriced",
    cost: (q: { price: string }) => BAD_COSTS[q.price] ?? 2,
    entitlement: "positioning",
    query: z.object({ price: z.string().meta({ description: "Which cost to compute." }) }),
    data: z.object({ served: z.boolean() }),
    summary: "A route priced by its query",
    description: "Test route.",
    tags: ["test"],
    handler: ({ query }) => {
      ran.push(query.price);
      return { data: { served: true } };
    },
  });
}

describe("the executor refuses to serve a route whose cost is not a finite non-negative integer", () => {
  it("500 internal_error, logged, handler not run, nothing charged; a valid cost still charges", async () => {
    const ran: string[] = [];
    const h = makeHarness({ credits: 100, modules: [...builtinModules, defineModule({ name: "test", routes: [pricedBy(ran)] })] });
    for (const price of Object.keys(BAD_COSTS)) {
      const res = await h.get(`/v1/test/priced?price=${price}`);
      expect(res.status, price).toBe(500);
      expect((await res.json()).error.code, price).toBe("internal_error");
    }
    expect(ran).toEqual([]);
    expect(h.accounts.balance(h.accountId)).toBe(100);
    expect(h.logs.filter((l) => l.level === "error" && String(l.error).includes("cost")).length).toBe(Object.keys(BAD_COSTS).length);
    const ok = await h.get("/v1/test/priced?price=fine");
    expect(ok.status).toBe(200);
    expect(h.accounts.balance(h.accountId)).toBe(98);
  });
});
