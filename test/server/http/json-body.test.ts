// The response serialiser the pipeline uses with group-committed, cached heatmaps
// (server/http/json-body.ts): toJson must equal JSON.stringify for every value, memoized or not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoizeJson, toJson } from "../../../server/http/json-body";

describe("toJson", () => {
  it("equals JSON.stringify for arbitrary JSON-like values (undefined fields, sparse arrays, dates, typed arrays)", () => {
    const extra = fc.oneof(fc.constant(undefined), fc.date({ noInvalidDate: true }), fc.float64Array({ maxLength: 3 }), fc.constant(Number.NaN), fc.constant(-0));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.jsonValue(), extra, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(fc.string(), tie("node"), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, fc.boolean(), (v, memoInner) => {
        if (memoInner && v !== null && typeof v === "object") memoizeJson(v as object);
        const wrapped = { data: { symbols: [v, v] }, meta: { cached: true, n: 1, skip: undefined } };
        expect(toJson(wrapped)).toBe(JSON.stringify(wrapped));
        expect(toJson(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 300 },
    );
  });

  it("reuses a memoized part's text (serialised once, when memoized)", () => {
    const entry = memoizeJson({ symbol: "SPXW", strikes: [{ strike: 5000, value: 1.5 }] });
    // Proof of reuse: the memo holds the text taken at memoize time.
    (entry.strikes[0] as { value: number }).value = 2;
    expect(toJson({ data: { symbols: [entry] } })).toBe('{"data":{"symbols":[{"symbol":"SPXW","strikes":[{"strike":5000,"value":1.5}]}]}}');
  });
});
