// Issue 33: Cboe DataShop "Option Quotes" 1-minute files (the public layout with Calcs and open
// interest) imported into the store of record: boards equal to the rows they came from, volume
// summed over the session's minutes, the underlying's price kept for the previous close, served
// by an app over the recorded market; a bad row names its file, line and field and writes nothing.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../../lib/market";
import { etInstant } from "../../../lib/time";
import { runImportCli } from "../../../server/cli/import-cli";
import { openRecordedMarket } from "../../../server/recording/recorded-market";
import { partitionDir, recordedRoot } from "../../../server/recording/store";
import { makeHarness } from "../_harness";

const HEADER =
  "underlying_symbol,quote_datetime,root,expiration,strike,option_type,open,high,low,close,trade_volume,bid_size,bid,ask_size,ask," +
  "underlying_bid,underlying_ask,implied_underlying_price,active_underlying_price,implied_volatility,delta,gamma,theta,vega,rho,open_interest";
const DATE = "2024-03-06";
const EXPIRIES = ["2024-03-08", "2024-03-06"];
const STRIKES = [5050, 5100, 5150];
const MINUTES = ["09:29", "09:30", "09:31", "09:32"];

/** One row's values, a deterministic function of its place (so the test can recompute them). */
function quote(m: number, e: number, k: number, right: "C" | "P") {
  const base = 10 + 5 * k + 3 * e + (right === "C" ? 1 : 0) + m * 0.05;
  const bid = Math.round(base * 20) / 20;
  return { bid, ask: Math.round((bid + 0.3) * 100) / 100, close: bid + 0.1, volume: m + k + e, iv: 0.12 + 0.01 * k + 0.001 * m, oi: 100 * (k + 1) + e };
}

/** A file in the public layout; rows in Cboe's order (time, root, expiration, strike, type). */
function cboeFile(): string {
  const lines = [HEADER];
  MINUTES.forEach((hhmm, m) => {
    for (const [e, exp] of EXPIRIES.entries()) {
      for (const [k, strike] of STRIKES.entries()) {
        for (const right of ["C", "P"] as const) {
          const q = quote(m, e, k, right);
          lines.push(
            [
              "^SPX",
              `${DATE} ${hhmm}:00`,
              "SPXW",
              exp,
              strike.toFixed(3),
              right,
              q.close,
              q.close,
              q.close,
              q.close,
              q.volume,
              10,
              q.bid,
              12,
              q.ask,
              5100 + m,
              5100.5 + m,
              5100.2 + m,
              5100.25 + m,
              q.iv,
              0.5,
              0.01,
              -1,
              2,
              0.1,
              q.oi,
            ].join(","),
          );
        }
      }
    }
  });
  return `${lines.join("\r\n")}\r\n`;
}

describe("optionscope import cboe-quotes", () => {
  let work: string;
  let dataDir: string;
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "optionscope-cboe-"));
    dataDir = join(work, "data");
    mkdirSync(join(work, "good"));
    writeFileSync(join(work, "good", `UnderlyingOptionsIntervalsCalcs_60sec_${DATE}.csv`), cboeFile());
    expect(await runImportCli(["import", "cboe-quotes", join(work, "good"), "--data-dir", dataDir], {}, io, false)).toBe(0);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("prints progress per file and a summary", () => {
    expect(err.join("")).toContain(`import: [1/1] UnderlyingOptionsIntervalsCalcs_60sec_${DATE}.csv 100% 49 lines, 3 boards`);
    expect(out.join("")).toMatch(/^Imported 36 rows from 1 file: 3 boards, sessions 2024-03-06\/SPXW into /);
  });

  it("stores one board per regular-session minute, equal to the file's rows, with volume summed over the session", async () => {
    const market = openRecordedMarket(dataDir, { clock: fixedClock(etInstant(DATE, "16:30")) });
    expect(await market.universe()).toMatchObject([{ ticker: "SPXW", underlying: "SPX", simulated: false }]);
    expect(await market.chain("SPXW", etInstant(DATE, "09:29") + 30_000)).toBeNull();
    for (let m = 1; m < MINUTES.length; m++) {
      const board = (await market.chain("SPXW", etInstant(DATE, MINUTES[m]) + 59_000))!;
      expect(board.asOfMs).toBe(etInstant(DATE, MINUTES[m]));
      expect(board.spot).toBe(5100.25 + m);
      expect(board.simulated).toBe(false);
      // 2024-03-06 expires at this session's close: still listed, sorted first.
      expect(board.expirations).toEqual(["2024-03-06", "2024-03-08"]);
      expect(board.expirySettleMs).toEqual([etInstant("2024-03-06", "16:00"), etInstant("2024-03-08", "16:00")]);
      expect(Array.from(board.strikes)).toEqual(STRIKES);
      let i = 0;
      for (const e of [1, 0]) {
        for (let k = 0; k < STRIKES.length; k++) {
          for (const right of ["P", "C"] as const) {
            const q = quote(m, e, k, right);
            // The session's volume from its first board minute (09:30, file minute 1) on.
            let cum = 0;
            for (let j = 1; j <= m; j++) cum += quote(j, e, k, right).volume;
            expect([board.expIndex[i], board.strikeIndex[i], board.right[i]]).toEqual([e === 1 ? 0 : 1, k, right === "C" ? 1 : 0]);
            expect([board.bid[i], board.ask[i], board.last[i], board.iv[i], board.oi[i], board.volume[i]]).toEqual([q.bid, q.ask, q.close, q.iv, q.oi, cum]);
            i++;
          }
        }
      }
    }
    // The underlying's price per minute, under its own ticker.
    expect(await market.spot("SPX", etInstant(DATE, "09:31") + 1)).toBe(5102.25);
    market.close();
  });

  it("serves the imported boards: /v1/historical over the recorded market", async () => {
    const market = openRecordedMarket(dataDir, { clock: fixedClock(etInstant(DATE, "16:30")) });
    const h = makeHarness({ market, nowMs: etInstant(DATE, "16:30") });
    const res = await h.get(`/v1/historical?symbols=SPXW&at=${new Date(etInstant(DATE, "09:31") + 5_000).toISOString()}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { symbols: { asOf: string; spot: number }[] }; meta: { simulated: boolean } };
    expect(body.data.symbols[0]).toMatchObject({ asOf: "2024-03-06T14:31:00Z", spot: 5102.25 });
    expect(body.meta.simulated).toBe(false);
    market.close();
  });

  it("stops at a bad row with its file, line and field, and writes nothing of that file", async () => {
    const bad = join(work, "bad");
    mkdirSync(bad);
    const lines = cboeFile().split("\r\n");
    lines[5] = lines[5].replace(",5150.000,", ",abc,");
    writeFileSync(join(bad, "2024-03-07.csv"), lines.join("\n").replaceAll(DATE, "2024-03-07"));
    const e: string[] = [];
    const code = await runImportCli(["import", "cboe-quotes", bad, "--data-dir", dataDir], {}, { stdout: () => {}, stderr: (t) => e.push(t) }, false);
    expect(code).toBe(1);
    expect(e.join("")).toContain('import: 2024-03-07.csv:6: field "strike": expected a number >= 0, got "abc"');
    expect(existsSync(partitionDir(recordedRoot(dataDir), "2024-03-07", "SPXW"))).toBe(false);

    writeFileSync(join(bad, "2024-03-07.csv"), "underlying_symbol,quote_datetime,root,expiration,strike,option_type\n");
    const e2: string[] = [];
    expect(await runImportCli(["import", "cboe-quotes", bad, "--data-dir", dataDir], {}, { stdout: () => {}, stderr: (t) => e2.push(t) }, false)).toBe(1);
    expect(e2.join("")).toContain('2024-03-07.csv:1: field "close": missing columns close, trade_volume, bid, ask');

    writeFileSync(join(bad, "2024-03-07.csv"), `${HEADER}\n^SPX,2024-03-07 25:00:00,SPXW,2024-03-08,5000,C,1,1,1,1,1,1,1,1,1,1,1,1,1,0.2,0,0,0,0,0,1\n`);
    const e3: string[] = [];
    expect(await runImportCli(["import", "cboe-quotes", bad, "--data-dir", dataDir], {}, { stdout: () => {}, stderr: (t) => e3.push(t) }, false)).toBe(1);
    expect(e3.join("")).toContain('2024-03-07.csv:2: field "quote_datetime"');
  });

  it("answers usage errors with exit 2", async () => {
    const e: string[] = [];
    const quiet = { stdout: () => {}, stderr: (t: string) => e.push(t) };
    expect(await runImportCli(["import", "cboe-quotes"], {}, quiet, false)).toBe(2);
    expect(await runImportCli(["import", "thetadata", work], {}, quiet, false)).toBe(2);
    expect(e.join("")).toContain('Unknown import kind "thetadata": expected cboe-quotes.');
  });
});
