import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatOptionSymbol, OptionSymbolError, parseOptionSymbol, type OptionContractId } from "../../lib/symbols";
import { codeOf } from "../_helpers/thrown";

describe("parseOptionSymbol", () => {
  it("reads the spec's URL-safe examples (spec 'Path identifiers'; reference/skylit/flowseeker.yaml)", () => {
    expect(parseOptionSymbol("SPY__250516C00580000")).toEqual({
      root: "SPY",
      expiry: "2025-05-16",
      right: "C",
      strike: 580,
      format: "url",
    });
    expect(parseOptionSymbol("AAPL__260117C00250000")).toMatchObject({ root: "AAPL", expiry: "2026-01-17", strike: 250 });
    expect(parseOptionSymbol("SPY__250516P00580000").right).toBe("P");
    expect(parseOptionSymbol("SPXW__250620C05800000")).toMatchObject({ root: "SPXW", expiry: "2025-06-20", right: "C", strike: 5800 });
  });

  it("reads the OSI 21-character padded form and the compact form", () => {
    expect(parseOptionSymbol("SPXW  250620C05800000")).toEqual({
      root: "SPXW",
      expiry: "2025-06-20",
      right: "C",
      strike: 5800,
      format: "padded",
    });
    // OCC OSI example: IBM Jan 2010 115 call.
    expect(parseOptionSymbol("IBM   100116C00115000")).toMatchObject({ root: "IBM", expiry: "2010-01-16", strike: 115 });
    expect(parseOptionSymbol("SPXW250620P05800000")).toMatchObject({ root: "SPXW", right: "P", format: "compact" });
    expect(parseOptionSymbol("GOOGL1250620C00100500")).toMatchObject({ root: "GOOGL1", strike: 100.5 });
  });

  it("keeps strike thousandths exactly", () => {
    expect(parseOptionSymbol("F__250620C00012345").strike).toBe(12.345);
    expect(parseOptionSymbol("BRKB__250620C99999999").strike).toBe(99999.999);
    expect(parseOptionSymbol("X__250620C00000001").strike).toBe(0.001);
  });

  it("names each fault with its code", () => {
    const cases: Array<[string, string]> = [
      ["", "malformed"],
      ["SPXW", "malformed"],
      ["SPXW__25062C05800000", "malformed"], // tail too short
      ["SPXW___250620C05800000", "malformed"], // three underscores
      ["spxw__250620C05800000", "malformed"], // lower case
      ["SPXWXYZ__250620C05800000", "malformed"], // 7-character root
      ["1SPX__250620C05800000", "malformed"],
      ["SPXW 250620C05800000", "malformed"], // padded but 20 characters
      ["SP XW 250620C05800000", "malformed"],
      ["SPXW__251320C05800000", "bad_date"],
      ["SPXW__250230C05800000", "bad_date"],
      ["SPXW__2506X0C05800000", "bad_date"],
      ["SPXW__250620X05800000", "bad_right"],
      ["SPXW__250620c05800000", "bad_right"],
      ["SPXW__250620C0580000A", "bad_strike"],
      ["SPXW__250620C00000000", "bad_strike"],
      ["SPXW__250620C-5800000", "bad_strike"],
    ];
    for (const [s, code] of cases) expect([s, codeOf(OptionSymbolError, () => parseOptionSymbol(s))]).toEqual([s, code]);
    expect(codeOf(OptionSymbolError, () => parseOptionSymbol(42 as unknown as string))).toBe("malformed");
  });

  it("messages name the offending part", () => {
    expect(() => parseOptionSymbol("SPXW__250620X05800000")).toThrow(/right "X"/);
    expect(() => parseOptionSymbol("SPXW__251320C05800000")).toThrow(/expiry "251320"/);
  });
});

describe("formatOptionSymbol", () => {
  const c: OptionContractId = { root: "SPXW", expiry: "2025-06-20", right: "C", strike: 5800 };

  it("writes the three forms; the padded one is exactly 21 characters", () => {
    expect(formatOptionSymbol(c)).toBe("SPXW__250620C05800000");
    expect(formatOptionSymbol(c, "url")).toBe("SPXW__250620C05800000");
    expect(formatOptionSymbol(c, "padded")).toBe("SPXW  250620C05800000");
    expect(formatOptionSymbol(c, "compact")).toBe("SPXW250620C05800000");
    expect(formatOptionSymbol({ ...c, root: "X" }, "padded")).toBe("X     250620C05800000");
    expect(formatOptionSymbol({ ...c, root: "GOOGL1" }, "padded")).toHaveLength(21);
    expect(formatOptionSymbol({ root: "F", expiry: "2025-06-20", right: "P", strike: 12.345 })).toBe("F__250620P00012345");
    expect(formatOptionSymbol({ root: "F", expiry: "2025-06-20", right: "P", strike: 0.1 + 0.2 })).toBe("F__250620P00000300");
  });

  it("names each fault with its code", () => {
    expect(codeOf(OptionSymbolError, () => formatOptionSymbol({ ...c, root: "spxw" }))).toBe("malformed");
    expect(codeOf(OptionSymbolError, () => formatOptionSymbol({ ...c, root: "TOOLONG" }))).toBe("malformed");
    expect(codeOf(OptionSymbolError, () => formatOptionSymbol(c, "osi" as "url"))).toBe("malformed");
    expect(codeOf(OptionSymbolError, () => formatOptionSymbol({ ...c, expiry: "2025-02-30" }))).toBe("bad_date");
    expect(codeOf(OptionSymbolError, () => formatOptionSymbol({ ...c, expiry: "2100-01-01" }))).toBe("bad_date");
    expect(codeOf(OptionSymbolError, () => formatOptionSymbol({ ...c, expiry: "1999-12-17" }))).toBe("bad_date");
    expect(codeOf(OptionSymbolError, () => formatOptionSymbol({ ...c, right: "X" as "C" }))).toBe("bad_right");
    for (const strike of [0, -5, 100_000, 12.3456, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect([strike, codeOf(OptionSymbolError, () => formatOptionSymbol({ ...c, strike }))]).toEqual([strike, "bad_strike"]);
    }
    expect(formatOptionSymbol({ ...c, strike: 99_999.999 })).toBe("SPXW__250620C99999999");
  });
});

describe("round trips", () => {
  const root = fc.stringMatching(/^[A-Z][A-Z0-9]{0,5}$/);
  const expiry = fc
    .integer({ min: Date.UTC(2000, 0, 1) / 86_400_000, max: Date.UTC(2099, 11, 31) / 86_400_000 })
    .map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));
  const contract = fc.record({
    root,
    expiry,
    right: fc.constantFrom("C" as const, "P" as const),
    strike: fc.integer({ min: 1, max: 99_999_999 }).map((n) => n / 1000),
  });

  it("format -> parse returns the contract in every form", () => {
    fc.assert(
      fc.property(contract, fc.constantFrom("url" as const, "padded" as const, "compact" as const), (k, format) => {
        const s = formatOptionSymbol(k, format);
        if (format === "padded") expect(s).toHaveLength(21);
        if (format === "url") expect(s).toMatch(/^[A-Z][A-Z0-9]{0,5}__\d{6}[CP]\d{8}$/);
        const { format: seen, ...back } = parseOptionSymbol(s);
        expect(back).toEqual(k);
        // A 6-character root has no padding, so its padded form is also the compact form.
        expect(seen).toBe(format === "padded" && k.root.length === 6 ? "compact" : format);
      }),
      { numRuns: 1000 },
    );
  });

  it("parse -> format reproduces canonical strings", () => {
    const symbol = fc
      .tuple(
        root,
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.constantFrom("C", "P"),
        fc.integer({ min: 1, max: 99_999_999 }),
      )
      .map(([r, y, m, d, cp, k]) => `${r}__${String(y).padStart(2, "0")}${String(m).padStart(2, "0")}${String(d).padStart(2, "0")}${cp}${String(k).padStart(8, "0")}`);
    fc.assert(
      fc.property(symbol, (s) => {
        const parsed = parseOptionSymbol(s);
        expect(formatOptionSymbol(parsed, "url")).toBe(s);
        expect(parseOptionSymbol(formatOptionSymbol(parsed, "padded"))).toMatchObject({ root: parsed.root, strike: parsed.strike });
      }),
      { numRuns: 1000 },
    );
  });
});
