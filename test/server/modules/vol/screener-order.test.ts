// The screener's order and filters as pure functions: ranked rows by the field (ties by symbol),
// then rows missing the field, then thin chains; bounds drop rows without the field.
import { describe, expect, it } from "vitest";
import { passes, rankRows } from "../../../../server/modules/vol/screener";
import { SCREENER_SORT_FIELDS } from "../../../../lib/api/vol";
import type { ScreenerRow } from "../../../../server/modules/vol/screener-row";

function row(symbol: string, o: Partial<ScreenerRow>): ScreenerRow {
  const fields = Object.fromEntries(SCREENER_SORT_FIELDS.map((f) => [f, null])) as Record<(typeof SCREENER_SORT_FIELDS)[number], number | null>;
  return {
    ...fields,
    symbol,
    asOf: "2024-03-06T15:00:00Z",
    sector: "Index",
    quality: "good",
    curve: "contango",
    earnings_overlap_9d: null,
    earnings_overlap_30d: null,
    ...o,
  };
}

const rows = [
  row("B", { svx30: 20 }),
  row("A", { svx30: 20 }),
  row("C", { svx30: 30 }),
  row("D", { svx30: null }),
  row("E", { svx30: 99, quality: "thin" }),
  row("F", { svx30: 10 }),
];

describe("rankRows", () => {
  it("desc: by the field, ties by symbol, then missing, then thin; ranks only on the first group", () => {
    const out = rankRows(rows, "svx30", "desc");
    expect(out.map((r) => r.symbol)).toEqual(["C", "A", "B", "F", "D", "E"]);
    expect(out.map((r) => r.rank)).toEqual([1, 2, 3, 4, null, null]);
  });

  it("asc reverses the ranked group only; missing and thin stay last", () => {
    expect(rankRows(rows, "svx30", "asc").map((r) => r.symbol)).toEqual(["F", "A", "B", "C", "D", "E"]);
  });
});

describe("passes", () => {
  const q = (o: Record<string, unknown>) => ({ filters: {}, ...o }) as Parameters<typeof passes>[1];
  it("min_/max_ bounds are inclusive and drop rows without the field", () => {
    expect(rows.filter((r) => passes(r, q({ min_svx30: 20 }))).map((r) => r.symbol)).toEqual(["B", "A", "C", "E"]);
    expect(rows.filter((r) => passes(r, q({ max_svx30: 20 }))).map((r) => r.symbol)).toEqual(["B", "A", "F"]);
    expect(rows.filter((r) => passes(r, q({ filters: { min_svx30: 25 } }))).map((r) => r.symbol)).toEqual(["C", "E"]);
  });

  it("curve, sector and quality match exactly", () => {
    expect(rows.filter((r) => passes(r, q({ quality: "thin" }))).map((r) => r.symbol)).toEqual(["E"]);
    expect(rows.filter((r) => passes(r, q({ curve: "backwardation" })))).toEqual([]);
    expect(rows.filter((r) => passes(r, q({ sector: "Index" }))).length).toBe(rows.length);
  });
});
