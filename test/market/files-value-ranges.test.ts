// Issue 38 item 7: every numeric field of the data files has a documented range
// (docs/data.md#value-ranges); a value outside it stops the load naming file, line and field, and a
// folder at the ranges' edges serves the flow routes without a 500.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../lib/market/clock";
import { createFileMarket, DataFileError, tablesFromTexts } from "../../lib/market/files";
import { makeHarness } from "../server/_harness";

const DATA = fileURLToPath(new URL("../fixtures/data/", import.meta.url));
const FIXTURE: Record<string, string> = Object.fromEntries(
  readdirSync(DATA)
    .filter((n) => n.endsWith(".csv"))
    .map((n) => [n, readFileSync(join(DATA, n), "utf8")]),
);

/** The fixture folder with `column` of the first data row of `file` set to `value` (plain CSV, no quotes in those rows). */
function withValue(file: string, column: string, value: string): Record<string, string> {
  const lines = FIXTURE[file].split(/\r?\n/);
  const header = lines[0].split(",");
  const i = header.indexOf(column);
  const cells = lines[1].split(",");
  if (i < 0) {
    lines[0] += `,${column}`;
    for (let k = 1; k < lines.length; k++) if (lines[k] !== "") lines[k] += k === 1 ? `,${value}` : ",";
  } else {
    cells[i] = value;
    lines[1] = cells.join(",");
  }
  return { ...FIXTURE, [file]: lines.join("\n") };
}

function loadError(files: Record<string, string>): DataFileError {
  try {
    tablesFromTexts(files);
  } catch (e) {
    if (e instanceof DataFileError) return e;
    throw e;
  }
  throw new Error("the folder loaded");
}

describe("value ranges of the data files", () => {
  // [file, column, first value over the range (or under it), what the reason says]
  const cases: [string, string, string, RegExp][] = [
    ["symbols.csv", "dividendYield", "0.26", /at most 0\.25/],
    ["chains.csv", "spot", "1000001", /at most 1000000/],
    ["chains.csv", "strike", "100000", /at most 99999\.999/],
    ["chains.csv", "strike", "1e308", /at most 99999\.999/],
    ["chains.csv", "bid", "1e308", /at most 1000000/],
    ["chains.csv", "ask", "2000000", /at most 1000000/],
    ["chains.csv", "last", "1e300", /at most 1000000/],
    ["chains.csv", "iv", "21", /at most 20/],
    ["chains.csv", "oi", "1e12", /at most 100000000/],
    ["chains.csv", "volume", "100000001", /at most 100000000/],
    ["chains.csv", "rate", "-1.5", /from -1 to 1/],
    ["chains.csv", "rate", "1e308", /from -1 to 1/],
    ["chains.csv", "dividendYield", "0.3", /at most 0\.25/],
    ["bars.csv", "open", "1e308", /at most 1000000/],
    ["bars.csv", "high", "1e308", /at most 1000000/],
    ["bars.csv", "low", "1000000.5", /at most 1000000/],
    ["bars.csv", "close", "1e10", /at most 1000000/],
    ["bars.csv", "volume", "1e11", /at most 10000000000/],
    ["bars.csv", "buyVolume", "1e11", /at most 10000000000/],
    ["bars.csv", "sellVolume", "1e11", /at most 10000000000/],
    ["bars.csv", "unclassifiedVolume", "1e11", /at most 10000000000/],
    ["option-prints.csv", "price", "1e308", /at most 1000000/],
    ["option-prints.csv", "size", "1e308", /at most 100000000/],
    ["option-prints.csv", "bid", "1e7", /at most 1000000/],
    ["option-prints.csv", "ask", "1e7", /at most 1000000/],
    ["option-prints.csv", "underlyingPrice", "1e308", /at most 1000000/],
    ["option-prints.csv", "iv", "25", /at most 20/],
    ["off-exchange-prints.csv", "price", "1e308", /at most 1000000/],
    ["off-exchange-prints.csv", "size", "1e10", /at most 1000000000/],
  ];
  for (const [file, column, value, reason] of cases) {
    it(`${file} ${column}=${value} is refused naming ${file}:2 and the field`, () => {
      const e = loadError(withValue(file, column, value));
      expect([e.code, e.file, e.line, e.field]).toEqual(["bad_value", file, 2, column]);
      expect(e.reason).toMatch(reason);
      expect(e.reason).toContain(JSON.stringify(value));
    });
  }

  it("a board's strike must have an OPRA symbol (a multiple of 0.001)", () => {
    const e = loadError(withValue("chains.csv", "strike", "509.0001"));
    expect([e.file, e.line, e.field]).toEqual(["chains.csv", 2, "strike"]);
    expect(e.reason).toMatch(/no OPRA symbol.*multiple of 0\.001/);
  });

  it("the fixture folder itself is within every range", () => {
    expect(() => tablesFromTexts(FIXTURE)).not.toThrow();
  });
});

describe("a folder at the ranges' edges", () => {
  // SPY's boards get one more contract at the largest strike, open interest, volume, IV and price;
  // the tape one print of it at the largest size and price.
  const chains = FIXTURE["chains.csv"].split(/\r?\n/).filter((l) => l !== "");
  const header = chains[0].split(",");
  const asOfs = [...new Set(chains.slice(1).map((l) => l.split(",")[0]))];
  const edgeRows = asOfs.map((asOf) => {
    const like = chains
      .slice(1)
      .find((l) => l.startsWith(asOf))!
      .split(",");
    const row: Record<string, string> = Object.fromEntries(header.map((h, i) => [h, like[i]]));
    Object.assign(row, {
      expiry: "2024-03-22",
      strike: "99999.999",
      right: "P",
      bid: "999999",
      ask: "1000000",
      last: "1000000",
      iv: "20",
      oi: "100000000",
      volume: "100000000",
    });
    return header.map((h) => row[h]).join(",");
  });
  const files = {
    ...FIXTURE,
    "chains.csv": [...chains, ...edgeRows].join("\n") + "\n",
    "option-prints.csv":
      FIXTURE["option-prints.csv"].trimEnd() + "\n2024-03-15T19:59:30Z,SPY__240322P99999999,1000000,100000000,CBOE,999999,1000000,AUTO,1000000,20,edge\n",
  };
  const AFTER = Date.parse("2024-03-15T21:00:00Z");

  it("loads, and the flow routes answer without a 500", async () => {
    const market = createFileMarket(tablesFromTexts(files), { clock: fixedClock(AFTER) });
    const h = makeHarness({ market, nowMs: AFTER, credits: 100_000 });
    const paths = [
      "/v1/flow/SPY?date=2024-03-15",
      "/v1/flow/SPY/strikes?start_time=2024-03-15T13:30:00Z&end_time=2024-03-15T20:00:00Z",
      "/v1/flow/SPY/aggregate?start_time=2024-03-15T13:30:00Z&end_time=2024-03-15T20:00:00Z",
      "/v1/chain-bull-bear/SPY?date=2024-03-15",
      "/v1/underlying/SPY/by-strike?date=2024-03-15",
      "/v1/moneyness/SPY?date=2024-03-15",
      "/v1/contract/SPY__240322P99999999/stats?date=2024-03-15",
      "/v1/contract/SPY__240322P99999999/history?start_date=2024-03-15&end_date=2024-03-15",
      "/v1/contract/top/daily?date=2024-03-15",
      "/v1/chain-ratio/SPY",
      "/v1/market/overview?date=2024-03-15",
    ];
    const statuses: Record<string, number> = {};
    for (const p of paths) statuses[p] = (await h.get(p)).status;
    for (const p of paths) expect(statuses[p], p).toBe(200);
  });
});
