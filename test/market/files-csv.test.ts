import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvLineReader, fileKindOf, splitCsvRecord, type CsvRecord } from "../../lib/market/files";

/** RFC 4180 encoding, written independently of the parser: quote when needed, double quotes. */
const encode = (fields: string[]) => fields.map((f) => (/[",\n\r]/.test(f) || /^\s*$/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(",");

function readAll(text: string): CsvRecord[] {
  const reader = new CsvLineReader();
  const out: CsvRecord[] = [];
  for (const line of text.split("\n")) {
    const r = reader.push(line);
    if (r) out.push(r);
  }
  reader.end();
  return out;
}

describe("CSV records", () => {
  it("split quoted fields, doubled quotes and empty fields (RFC 4180 section 2)", () => {
    expect(splitCsvRecord("a,b,c")).toEqual(["a", "b", "c"]);
    expect(splitCsvRecord('a,"b,c",""""')).toEqual(["a", "b,c", '"']);
    expect(splitCsvRecord("a,,")).toEqual(["a", "", ""]);
    expect(splitCsvRecord('"",x')).toEqual(["", "x"]);
    expect(splitCsvRecord('"open')).toBeNull();
    expect(() => splitCsvRecord('"a"b,c')).toThrow(/closing quote/);
    expect(() => splitCsvRecord('a"b,c')).toThrow(/stray quote/);
  });

  it("read CRLF lines, skip blank lines and join quoted line breaks, keeping start lines", () => {
    const text = 'h1,h2\r\n1,"two\r\nlines"\r\n\r\n3,4\r\n\r\n\r\n';
    expect(readAll(text)).toEqual([
      { line: 1, fields: ["h1", "h2"] },
      { line: 2, fields: ["1", "two\r\nlines".replace("\r\n", "\n")] },
      { line: 5, fields: ["3", "4"] },
    ]);
    expect(() => readAll('a,b\n1,"never closed\n')).toThrow(/not closed/);
    expect(readAll("\ufeffa,b\n")[0].fields).toEqual(["a", "b"]);
  });

  it("round-trip any fields through encoding and reading", () => {
    const field = fc.string({ unit: fc.constantFrom("a", "b", ",", '"', " ", "\n", "é", "1") });
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (records) => {
        const text = records.map(encode).join("\n") + "\n";
        const parsed = readAll(text).map((r) => r.fields);
        expect(parsed).toEqual(records);
      }),
    );
  });

  it("recognise file kinds by name, parts included", () => {
    expect(fileKindOf("chains.csv")).toBe("chains");
    expect(fileKindOf("chains-2024-03-15.csv")).toBe("chains");
    expect(fileKindOf("option-prints.csv")).toBe("optionPrints");
    expect(fileKindOf("OFF-EXCHANGE-PRINTS-part1.CSV")).toBe("offExchangePrints");
    expect(fileKindOf("chainsaw.csv")).toBeNull();
    expect(fileKindOf("bars.parquet")).toBeNull();
  });
});
