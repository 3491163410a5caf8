import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contractTable, openContractTable, rankContractTable } from "../../lib/flow/contract-table";
import { rankTopContracts } from "../../lib/flow/rollups";
import { allFiltersArb, row, rowArb } from "./_contract-rows";

describe("market-wide contract table", () => {
  it("ranks exactly as rankTopContracts over the same rows, for every filter and order", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 200 }), allFiltersArb, (raw, f) => {
        const rows = raw.map(row);
        const open = openContractTable(contractTable(["SPY", "QQQ", "IWM"], rows));
        expect(rankContractTable(open, f)).toEqual(rankTopContracts(rows, f));
      }),
      { numRuns: 400 },
    );
  });

  it("limited to a set of tickers, equals the screener over those tickers' rows", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 200 }), allFiltersArb, fc.subarray(["SPY", "QQQ", "IWM"]), (raw, f, tickers) => {
        const rows = raw.map(row);
        const open = openContractTable(contractTable(["SPY", "QQQ", "IWM"], rows));
        const only = new Set(tickers);
        expect(rankContractTable(open, f, only)).toEqual(
          rankTopContracts(
            rows.filter((r) => only.has(r.ticker)),
            f,
          ),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("rows come back with every field and the rows' own key order; an empty table ranks to nothing", () => {
    const rows = [
      row({
        sym: "A",
        ticker: "SPY",
        right: "C",
        premium: 1.5,
        volume: 3,
        oi: 7,
        iv: 0.25,
        sweep: true,
        multi: false,
        tag: 9,
        expiration: "2024-03-22",
        strike: 485.5,
        dte: 4,
      }),
    ];
    rows[0].oiChange = -0; // an int32 column keeps only true int32 values: -0 stays a double
    const table = contractTable(["SPY"], rows);
    expect(table.numbers.totalVolume).toBeInstanceOf(Int32Array);
    expect(table.numbers.totalPremium).toBeInstanceOf(Float64Array);
    const [out] = rankContractTable(openContractTable(table), {});
    expect(out).toStrictEqual(rows[0]);
    expect(Object.is(out.oiChange, -0)).toBe(true);
    expect(Object.keys(out)).toEqual(Object.keys(rows[0]));
    expect(rankContractTable(openContractTable(contractTable([], [])), {})).toEqual([]);
  });
});
