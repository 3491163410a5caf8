import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PositioningError } from "../../lib/positioning/errors";
import { parseGridOptions } from "../../lib/positioning/options";
import { ExposureGridOptionsSchema } from "../../lib/positioning/options-schema";

// parseGridOptions validates without zod (so a heatmap page does not load it) but must accept,
// default and reject exactly as the exported zod schema does: one oracle, every field mixed with
// valid, boundary and wrong-typed values.
const anyOf = <T>(...xs: fc.Arbitrary<T>[]) => fc.oneof(...xs.map((a) => ({ arbitrary: a, weight: 1 })));
const junk = fc.constantFrom<unknown>(null, "x", true, {}, [], Number.NaN, Number.POSITIVE_INFINITY, 1.5, -1);
const field = <T>(valid: fc.Arbitrary<T>) => fc.option(anyOf<unknown>(valid, junk), { nil: undefined });

const options = fc.record(
  {
    metric: field(fc.constantFrom("gamma", "vanna", "delta", "charm", "vomma", "rho")),
    maxStrikes: field(anyOf<unknown>(fc.constant("all"), fc.integer({ min: -5, max: 1005 }), fc.constant(2 ** 53))),
    maxExpirations: field(anyOf<unknown>(fc.constant("all"), fc.integer({ min: -1, max: 62 }))),
    includeEmpty: field(fc.boolean()),
    expirations: field(fc.array(anyOf<unknown>(fc.constantFrom("2025-03-05", "2025-3-5", "2025-03-05T00:00"), junk), { maxLength: 3 })),
    layout: field(fc.constantFrom("net", "matrix", "grid")),
    signModel: field(fc.record({ calls: anyOf<unknown>(fc.double({ noNaN: true, noDefaultInfinity: true }), junk), puts: anyOf<unknown>(fc.integer(), junk) })),
    extra: field(fc.integer()),
  },
  { requiredKeys: [] },
);

function viaParser(input: unknown): { ok: true; data: unknown } | { ok: false; field: string } {
  try {
    return { ok: true, data: parseGridOptions(input as never) };
  } catch (e) {
    expect(e).toBeInstanceOf(PositioningError);
    expect((e as PositioningError).code).toBe("invalid_parameter");
    return { ok: false, field: (e as Error).message.split(":")[0] };
  }
}

describe("parseGridOptions agrees with ExposureGridOptionsSchema", () => {
  it("same acceptance, same output (keys in the same order), same first offending field", () => {
    fc.assert(
      fc.property(fc.option(anyOf<unknown>(options, junk), { nil: undefined }), (input) => {
        const z = ExposureGridOptionsSchema.safeParse(input ?? {});
        const p = viaParser(input);
        expect(p.ok).toBe(z.success);
        if (p.ok && z.success) {
          expect(p.data).toEqual(z.data);
          expect(Object.keys(p.data as object)).toEqual(Object.keys(z.data));
        } else if (!p.ok && !z.success) {
          expect(p.field).toBe(z.error.issues[0].path.join(".") || "options");
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("applies the documented defaults and floors maxStrikes at 1", () => {
    expect(parseGridOptions(undefined)).toEqual({
      metric: "gamma",
      maxStrikes: 92,
      maxExpirations: 5,
      includeEmpty: false,
      layout: "net",
      signModel: { calls: 1, puts: -1 },
    });
    expect(parseGridOptions({ maxStrikes: 0 }).maxStrikes).toBe(1);
  });
});
