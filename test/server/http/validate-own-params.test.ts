// Issue 13 item 11: a parameter name is "known" only when the route's schema declares it as its
// own property. Names inherited from Object.prototype must behave like any other unknown name.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { validateParams } from "../../../server/http/validate";
import { makeHarness } from "../_harness";

const schema = z.object({ metric: z.enum(["gamma", "vanna"]).default("gamma") });
const INHERITED = ["hasOwnProperty", "constructor", "__proto__", "toString", "valueOf", "isPrototypeOf"];

describe("validateParams: only the schema's own keys are known", () => {
  it("ignores inherited names given twice, like foo=1&foo=2", () => {
    expect(validateParams(schema, new URLSearchParams("foo=1&foo=2"))).toEqual({ metric: "gamma" });
    for (const name of INHERITED) {
      expect(validateParams(schema, new URLSearchParams(`${name}=1&${name}=2`)), name).toEqual({ metric: "gamma" });
      expect(validateParams(schema, new URLSearchParams(`${name}=x`)), name).toEqual({ metric: "gamma" });
    }
  });

  it("rejects inherited names as unknown when unknown names are rejected", () => {
    for (const name of ["foo", ...INHERITED]) {
      expect(() => validateParams(schema, new URLSearchParams(`${name}=x`), "reject"), name).toThrow(/unknown parameter/);
    }
  });

  it("a record argument with inherited names behaves the same", () => {
    const record = JSON.parse('{"__proto__": "x", "constructor": "y", "metric": "vanna"}') as Record<string, string>;
    expect(validateParams(schema, record)).toEqual({ metric: "vanna" });
  });
});

describe("over the app: inherited names are unknown parameters (ignored)", () => {
  it("hasOwnProperty=1&hasOwnProperty=2, constructor=x and __proto__=x answer like foo=1&foo=2", async () => {
    const h = makeHarness();
    const baseline = await h.get("/v1/heatmap?symbols=SPY&foo=1&foo=2");
    expect(baseline.status).toBe(200);
    for (const extra of ["hasOwnProperty=1&hasOwnProperty=2", "constructor=x", "__proto__=x", "constructor=1&constructor=2"]) {
      const res = await h.get(`/v1/heatmap?symbols=SPY&${extra}`);
      expect(res.status, extra).toBe(200);
    }
  });
});
