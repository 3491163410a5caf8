// The response serialiser the pipeline uses with group-committed, cached heatmaps
// (server/http/json-body.ts): toJson must equal JSON.stringify for every value, memoized or not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { envelopeJson, memoizeJson, toJson } from "../../../server/http/json-body";

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

describe("envelopeJson", () => {
  it("is the envelope's JSON; a memoized data object keeps its encoded bytes while meta serialises the same", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (d, meta) => {
        const expected = JSON.stringify({ data: d, meta });
        const out = envelopeJson(d, meta);
        expect(typeof out === "string" ? out : out.toString("utf8")).toBe(expected);
        if (d !== null && typeof d === "object") {
          memoizeJson(d);
          const bytes = envelopeJson(d, meta);
          expect(Buffer.isBuffer(bytes) && bytes.toString("utf8")).toBe(expected);
          expect(envelopeJson(d, JSON.parse(JSON.stringify(meta ?? null)) ?? meta)).toBe(bytes);
        }
      }),
      { numRuns: 200 },
    );
    const data = memoizeJson({ symbols: [{ symbol: "SPY", spot: 512.25 }] });
    const first = envelopeJson(data, { cached: false });
    expect(envelopeJson(data, { cached: true })).not.toBe(first);
    const again = envelopeJson(data, { cached: true });
    expect(envelopeJson(data, { cached: true })).toBe(again);
    expect(again.toString()).toBe('{"data":{"symbols":[{"symbol":"SPY","spot":512.25}]},"meta":{"cached":true}}');
  });
});
