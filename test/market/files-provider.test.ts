import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../lib/market/clock";
import { createFileMarket, DataFileError, tablesFromTexts } from "../../lib/market/files";
import { loadFileMarket, progressBar, type LoadProgress, type ReloadableFileMarket } from "../../server/data";

const DATA = fileURLToPath(new URL("../fixtures/data/", import.meta.url));
const BROKEN = fileURLToPath(new URL("../fixtures/broken/", import.meta.url));
const AFTER = Date.parse("2024-03-16T00:00:00Z");
const ms = (iso: string) => Date.parse(iso);

/** The fixture rows read with a plain split (these files have no quoted fields). */
function rowsOf(file: string): Record<string, string>[] {
  const lines = readFileSync(join(DATA, file), "utf8")
    .split(/\r?\n/)
    .filter((l) => l !== "");
  const header = lines[0].split(",");
  return lines.slice(1).map((l) => Object.fromEntries(l.split(",").map((v, i) => [header[i], v])));
}

let market: ReloadableFileMarket;
beforeAll(async () => {
  market = await loadFileMarket(DATA, { clock: fixedClock(AFTER) });
});

describe("file provider: answers match the fixture rows", () => {
  it("returns the chain snapshot at or before an instant, with every row's values", async () => {
    const board = await market.chain("SPY", ms("2024-03-15T17:00:00Z"));
    expect(board).not.toBeNull();
    expect(board!.asOfMs).toBe(ms("2024-03-15T16:00:00Z"));
    expect(board!.simulated).toBe(false);
    expect(board!.sessionDate).toBe("2024-03-15");
    const rows = rowsOf("chains.csv").filter((r) => r.asOf === "2024-03-15T16:00:00Z");
    expect(board!.strikeIndex.length).toBe(rows.length);
    expect(board!.spot).toBe(Number(rows[0].spot));
    expect(board!.rate).toBe(0.053);
    expect(board!.dividendYield).toBe(0.0125); // from symbols.csv
    // One tape is the truth: the folder has SPY prints that day, so volume is their sum before asOf.
    const traded = new Map<string, number>();
    for (const p of await market.optionPrints("SPY", ms("2024-03-15T04:00:00Z"), board!.asOfMs)) {
      traded.set(`${p.expiry}|${p.strike}|${p.right}`, (traded.get(`${p.expiry}|${p.strike}|${p.right}`) ?? 0) + p.size);
    }
    expect([...traded.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    for (const r of rows) {
      const i = [...board!.strikeIndex.keys()].find(
        (k) =>
          board!.strikes[board!.strikeIndex[k]] === Number(r.strike) &&
          board!.expirations[board!.expIndex[k]] === r.expiry &&
          board!.right[k] === (r.right === "C" ? 1 : 0),
      );
      expect(i).toBeDefined();
      expect([board!.bid[i!], board!.ask[i!], board!.last[i!], board!.iv[i!], board!.oi[i!], board!.volume[i!]]).toEqual([
        ...[r.bid, r.ask, r.last, r.iv, r.oi].map(Number),
        traded.get(`${r.expiry}|${Number(r.strike)}|${r.right}`) ?? 0,
      ]);
    }
    // Rows sorted by expiration, then strike, then put before call.
    for (let k = 1; k < rows.length; k++) {
      const a = [board!.expIndex[k - 1], board!.strikeIndex[k - 1], board!.right[k - 1]];
      const b = [board!.expIndex[k], board!.strikeIndex[k], board!.right[k]];
      expect(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))).toBe(true);
    }
    expect(board!.expirySettleMs).toEqual([ms("2024-03-15T20:00:00Z"), ms("2024-03-22T20:00:00Z")]);
  });

  it("picks boards by time: exact instants, before the first, and never after now", async () => {
    expect((await market.chain("SPY", ms("2024-03-15T16:00:00Z")))!.asOfMs).toBe(ms("2024-03-15T16:00:00Z"));
    expect((await market.chain("SPY", ms("2024-03-15T15:59:59.999Z")))!.asOfMs).toBe(ms("2024-03-15T13:30:00Z"));
    expect(await market.chain("SPY", ms("2024-03-15T13:29:00Z"))).toBeNull();
    expect(await market.chain("AAPL", AFTER)).toBeNull();
    expect(await market.chain("NOPE", AFTER)).toBeNull();
    const early = createFileMarket(market.tables, { clock: fixedClock(ms("2024-03-15T15:00:00Z")) });
    expect((await early.chain("SPY", AFTER))!.asOfMs).toBe(ms("2024-03-15T13:30:00Z"));
  });

  it("returns minute bars in a half-open range, regular or extended, completed by now", async () => {
    const rows = rowsOf("bars.csv");
    const all = await market.minuteBars("SPY", 0, AFTER, { extended: true });
    expect(all.t.length).toBe(rows.length);
    rows.forEach((r, i) => {
      expect([all.t[i], all.o[i], all.h[i], all.l[i], all.c[i], all.v[i], all.bv[i], all.sv[i], all.uv[i]]).toEqual([
        ms(r.ts),
        Number(r.open),
        Number(r.high),
        Number(r.low),
        Number(r.close),
        Number(r.volume),
        Number(r.buyVolume),
        Number(r.sellVolume),
        Number(r.unclassifiedVolume),
      ]);
    });
    const regular = await market.minuteBars("SPY", 0, AFTER);
    expect(regular.t.length).toBe(390);
    expect(regular.t[0]).toBe(ms("2024-03-15T13:30:00Z"));
    const slice = await market.minuteBars("SPY", ms("2024-03-15T13:31:00Z"), ms("2024-03-15T13:34:00Z"));
    expect([...slice.t]).toEqual([ms("2024-03-15T13:31:00Z"), ms("2024-03-15T13:32:00Z"), ms("2024-03-15T13:33:00Z")]);
    const live = createFileMarket(market.tables, { clock: fixedClock(ms("2024-03-15T13:32:30Z")) });
    expect([...(await live.minuteBars("SPY", ms("2024-03-15T13:30:00Z"), AFTER)).t]).toEqual([ms("2024-03-15T13:30:00Z"), ms("2024-03-15T13:31:00Z")]);
    expect(await live.spot("SPY", AFTER)).toBe(Number(rows.find((r) => r.ts === "2024-03-15T13:31:00Z")!.close));
    expect((await market.minuteBars("AAPL", 0, AFTER)).t.length).toBe(0);
  });

  it("answers the last price from bars, falling back on boards", async () => {
    const rows = rowsOf("bars.csv");
    const closeOf = (ts: string) => Number(rows.find((r) => r.ts === ts)!.close);
    expect(await market.spot("SPY", ms("2024-03-15T13:31:30Z"))).toBe(closeOf("2024-03-15T13:30:00Z"));
    expect(await market.spot("SPY", ms("2024-03-15T13:31:00Z"))).toBe(closeOf("2024-03-15T13:30:00Z"));
    expect(await market.spot("SPY", ms("2024-03-15T11:00:00Z"))).toBeNull();
    expect(await market.spot("AAPL", AFTER)).toBeNull();
  });

  it("returns option prints in time order with symbols normalised and aliases mapped", async () => {
    const prints = await market.optionPrints("SPY", 0, AFTER);
    expect(prints.map((p) => p.id)).toEqual(["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12"]);
    const byId = Object.fromEntries(prints.map((p) => [p.id, p]));
    expect(byId.p5.symbol).toBe("SPY__240322P00509000"); // from the padded OSI form
    expect(byId.p6.symbol).toBe("SPY__240322P00508000"); // from the compact form
    expect([byId.p6.expiry, byId.p6.strike, byId.p6.right]).toEqual(["2024-03-22", 508, "P"]);
    expect(byId.p9.exchange).toBe("MPRL");
    expect(byId.p9.conditions).toEqual(["ISOI"]);
    expect(byId.p7.iv).toBeNull();
    expect(byId.p7.tsNs).toBe("1710509470123456789");
    expect(byId.p8.tsMs).toBe(ms("2024-03-15T13:45:00.500Z"));
    // Half-open range at nanosecond precision: 19:58:59.999999999 is inside [.., 19:59:00).
    const tail = await market.optionPrints("SPY", ms("2024-03-15T19:58:59.999Z"), ms("2024-03-15T19:59:00Z"));
    expect(tail.map((p) => p.id)).toEqual(["p12"]);
    expect((await market.optionPrints("SPY", ms("2024-03-15T13:30:02Z"), ms("2024-03-15T13:30:03Z"))).map((p) => p.id)).toEqual(["p2", "p3", "p4"]);
    expect(await market.optionPrints("AAPL", 0, AFTER)).toEqual([]);
    const early = createFileMarket(market.tables, { clock: fixedClock(ms("2024-03-15T13:31:00Z")) });
    expect((await early.optionPrints("SPY", 0, AFTER)).length).toBe(6);
  });

  it("returns off-exchange prints for some or all tickers, merged by time", async () => {
    const all = await market.offExchangePrints(null, 0, AFTER);
    expect(all.map((p) => p.id)).toEqual(["d1", "d3", "d2", "d4", "d5", "d6", "d7"]); // d2/d3 tie: by ticker
    expect((await market.offExchangePrints(["AAPL"], 0, AFTER)).map((p) => p.id)).toEqual(["d3", "d5"]);
    const d2 = all.find((p) => p.id === "d2")!;
    expect([d2.price, d2.size, d2.venue, d2.tsNs]).toEqual([510.455, 25000, "FINN", "1710509712345678901"]);
    expect(await market.offExchangePrints(["MSFT"], 0, AFTER)).toEqual([]);
  });

  it("returns earnings in a date range (inclusive), with timings normalised", async () => {
    const events = await market.earnings("AAPL", "2024-02-01", "2024-10-31");
    expect(events.map((e) => [e.date, e.timing, e.fiscalQuarter])).toEqual([
      ["2024-02-01", "amc", "2023Q4"],
      ["2024-05-02", "amc", "2024Q1"],
      ["2024-08-01", "amc", "2024Q2"],
      ["2024-10-31", "amc", "2024Q3"],
    ]);
    expect(await market.earnings("AAPL", "2024-02-02", "2024-05-01")).toEqual([]);
    expect(await market.earnings("SPY", "2024-01-01", "2024-12-31")).toEqual([]);
  });

  it("lists the universe index/ETF tier first and keeps quoted names whole", async () => {
    expect((await market.universe()).map((s) => s.ticker)).toEqual(["SPX", "SPXW", "SPY", "AAPL"]);
    const spy = await market.symbolInfo("SPY");
    expect(spy!.name).toBe("SPDR S&P 500 ETF Trust, Series 1");
    expect(spy!.simulated).toBe(false);
    expect((await market.symbolInfo("SPX"))!.optionRoots).toEqual(["SPX", "SPXW"]);
    expect((await market.symbolInfo("AAPL"))!.tiers).toEqual(["full"]);
    expect(await market.symbolInfo("NOPE")).toBeUndefined();
  });

  it("gives the same tables from strings as from the disk (isomorphic parsing)", async () => {
    const texts = Object.fromEntries(readdirSync(DATA).map((f) => [f, readFileSync(join(DATA, f), "utf8")]));
    const fromTexts = createFileMarket(tablesFromTexts(texts), { clock: fixedClock(AFTER) });
    expect(fromTexts.tables.rowCounts).toEqual(market.tables.rowCounts);
    expect(await fromTexts.optionPrints("SPY", 0, AFTER)).toEqual(await market.optionPrints("SPY", 0, AFTER));
    expect(await fromTexts.chain("SPY", AFTER)).toEqual(await market.chain("SPY", AFTER));
    expect(await fromTexts.minuteBars("SPY", 0, AFTER)).toEqual(await market.minuteBars("SPY", 0, AFTER));
  });
});

describe("file provider: broken files", () => {
  const cases: [string, string, number, string | null, RegExp][] = [
    ["bad-number", "chains.csv", 3, "strike", /expected a positive number, got "abc"/],
    ["missing-column", "bars.csv", 1, "close", /required column is missing/],
    ["bad-date", "earnings.csv", 3, "date", /expected a date YYYY-MM-DD, got "2024-02-30"/],
    ["wrong-right", "chains.csv", 4, "right", /expected one of C, P, got "X"/],
    ["bid-above-ask", "chains.csv", 2, "bid", /bid must not exceed ask/],
    ["unknown-symbol", "off-exchange-prints.csv", 2, "ticker", /unknown symbol "MSFT"/],
    ["bad-condition", "option-prints.csv", 3, "conditions", /got "FOO"/],
    ["bad-instant", "option-prints.csv", 2, "ts", /ISO-8601 instant with a zone/],
    ["field-count", "bars.csv", 5, null, /expected 7 fields as in the header, got 8/],
    ["high-below-low", "bars.csv", 2, "high", /high\/low must bound open and close/],
    ["unclosed-quote", "symbols.csv", 3, null, /quoted field is not closed/],
    ["no-symbols", "symbols.csv", 0, null, /symbols\.csv/],
    ["huge-strike", "chains.csv", 3, "strike", /expected a positive number at most 99999\.999, got "1e308"/],
    ["huge-size", "option-prints.csv", 3, "size", /expected a positive integer at most 100000000, got "1e308"/],
  ];

  it("covers every broken fixture folder", () => {
    expect(cases.map((c) => c[0]).sort()).toEqual(
      readdirSync(BROKEN)
        .filter((n) => !n.includes("."))
        .sort(),
    );
  });

  for (const [name, file, line, field, reason] of cases) {
    it(`${name}: names ${file}:${line} ${field ?? "(no field)"} and leaves the provider unchanged`, async () => {
      const before = market.tables;
      const revisionBefore = market.revision;
      const boardBefore = await market.chain("SPY", AFTER);
      const error = await market.reload(join(BROKEN, name)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DataFileError);
      const e = error as DataFileError;
      expect([e.file, e.line, e.field]).toEqual([file, line, field]);
      expect(e.reason).toMatch(reason);
      const where = line > 0 ? `${file}:${line}` : file;
      expect(e.message).toBe(field ? `${where}: field "${field}": ${e.reason}` : `${where}: ${e.reason}`);
      expect(market.tables).toBe(before);
      expect(market.revision).toBe(revisionBefore);
      expect(market.dir).toBe(DATA);
      expect(await market.chain("SPY", AFTER)).toBe(boardBefore);
      expect((await market.optionPrints("SPY", 0, AFTER)).length).toBe(12);
    });
  }

  it("swaps in a good folder on reload", async () => {
    const dir = mkdtempSync(join(tmpdir(), "optionscope-files-"));
    try {
      copyFileSync(join(DATA, "symbols.csv"), join(dir, "symbols.csv"));
      writeFileSync(join(dir, "earnings.csv"), "ticker,date,timing\nAAPL,2025-01-30,amc\n");
      const m = await loadFileMarket(DATA, { clock: fixedClock(AFTER) });
      const revision = m.revision;
      await m.reload(dir);
      expect(m.dir).toBe(dir);
      // Past answers may have changed: live caches keyed by the revision read the market again.
      expect(m.revision).toBe(revision! + 1);
      expect((await m.earnings("AAPL", "2024-01-01", "2025-12-31")).map((e) => e.date)).toEqual(["2025-01-30"]);
      expect(await m.optionPrints("SPY", 0, AFTER)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("file provider: streaming and progress", () => {
  let dir: string;
  const n = 30_000;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "optionscope-stream-"));
    copyFileSync(join(DATA, "symbols.csv"), join(dir, "symbols.csv"));
    const lines = ["ts,ticker,price,size,venue"];
    for (let i = 0; i < n; i++) {
      const t = new Date(ms("2024-03-15T13:30:00Z") + i * 500).toISOString();
      lines.push(`${t},SPY,${(510 + (i % 100) / 100).toFixed(2)},${100 + (i % 7) * 100},${i % 3 ? "FINN" : "FINC"}`);
    }
    writeFileSync(join(dir, "off-exchange-prints-2024-03-15.csv"), lines.join("\n") + "\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("streams a large file part, reporting progress until every byte is read", async () => {
    const events: LoadProgress[] = [];
    const m = await loadFileMarket(dir, { clock: fixedClock(AFTER), onProgress: (p) => events.push(p) });
    const part = events.filter((e) => e.file === "off-exchange-prints-2024-03-15.csv");
    expect(part.length).toBeGreaterThan(5);
    for (let i = 1; i < part.length; i++) expect(part[i].bytesRead).toBeGreaterThanOrEqual(part[i - 1].bytesRead);
    const last = part[part.length - 1];
    expect(last.done).toBe(true);
    expect(last.bytesRead).toBe(last.bytesTotal);
    expect(last.lines).toBe(n + 1);
    expect(events.filter((e) => e.done).map((e) => e.file)).toEqual(["symbols.csv", "off-exchange-prints-2024-03-15.csv"]);
    const prints = await m.offExchangePrints(["SPY"], ms("2024-03-15T13:30:00Z"), ms("2024-03-15T13:31:00Z"));
    expect(prints.length).toBe(120);
  });

  it("draws a progress bar on a TTY and nothing elsewhere", () => {
    const out: string[] = [];
    const tty = {
      isTTY: true,
      write: (s: string) => {
        out.push(s);
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    const draw = progressBar(tty);
    draw({ file: "chains.csv", fileIndex: 0, fileCount: 1, bytesRead: 512, bytesTotal: 1024, lines: 10, done: false });
    draw({ file: "chains.csv", fileIndex: 0, fileCount: 1, bytesRead: 1024, bytesTotal: 1024, lines: 20, done: true });
    expect(out[0]).toContain("50% chains.csv");
    expect(out.join("")).toContain("100% chains.csv");
    expect(out[out.length - 1]).toBe("\n");
    const pipe = {
      isTTY: false,
      write: () => {
        throw new Error("must not write");
      },
    } as unknown as NodeJS.WriteStream;
    progressBar(pipe)({ file: "x.csv", fileIndex: 0, fileCount: 1, bytesRead: 1, bytesTotal: 1, lines: 1, done: true });
  });
});
