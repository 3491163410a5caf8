// Validated queries are kept per schema (server/http/validate.ts): a repeated query returns equal
// values, each call its own top-level object (routes' `check` fill in defaults on it), nested
// values frozen (no call can change what the next receives), failures never kept, long queries
// never kept.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { enumParam, symbolsParam } from "../../../lib/api/params";
import { validateParams } from "../../../server/http/validate";
import { makeHarness } from "../_harness";

const schema = z.object({ symbols: symbolsParam(10), metric: enumParam(["gamma", "vanna"], "gamma"), from: z.string().optional() });

describe("validated query memo", () => {
  it("repeats give equal, separate top-level objects over frozen values", () => {
    const a = validateParams(schema, new URLSearchParams("symbols=spy,qqq&metric=vanna"));
    const b = validateParams(schema, new URLSearchParams("symbols=spy,qqq&metric=vanna"));
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
    (a as { from?: string }).from = "2024-03-01"; // what a route's check does
    expect(validateParams(schema, new URLSearchParams("symbols=spy,qqq&metric=vanna")).from).toBeUndefined();
    expect(Object.isFrozen(a.symbols)).toBe(true);
    expect(() => (a.symbols as string[]).push("IWM")).toThrow(TypeError);
  });

  it("a failure is thrown every time, and a long query is validated alike without being kept", () => {
    for (let i = 0; i < 2; i++) expect(() => validateParams(schema, new URLSearchParams("symbols=SPY&metric=delta"))).toThrow(/metric/);
    const long = `symbols=SPY&from=${"x".repeat(2000)}`;
    const first = validateParams(schema, new URLSearchParams(long));
    expect(validateParams(schema, new URLSearchParams(long))).toEqual(first);
    expect(Object.isFrozen(first.symbols)).toBe(true);
  });

  it("a default a route's check fills from the clock is recomputed per call (vol history's window)", async () => {
    const h = makeHarness({ nowMs: Date.parse("2024-03-06T21:00:00Z") });
    const first = await (await h.get("/v1/vol/history?symbols=SPY&fields=close")).json();
    const h2 = makeHarness({ nowMs: Date.parse("2024-03-08T21:00:00Z") });
    const second = await (await h2.get("/v1/vol/history?symbols=SPY&fields=close")).json();
    expect(first.data.to).toBe("2024-03-06");
    expect(second.data.to).toBe("2024-03-08");
  });
});
