// Issue 33: the store of record's exactness and file rules: values travel as the same doubles
// (whole cents as integers, anything else beside them), a torn journal line is left out, minute
// boundaries follow the extended session, compaction keeps every board, retention deletes by date.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChainSnapshot } from "../../../lib/market/market-data";
import { decodeBoard, encodeBoard, joinScaled, splitScaled, type ReadColumns } from "../../../lib/market/recorded/board-codec";
import { etInstant } from "../../../lib/time";
import { nextRecordedBoundary } from "../../../server/recording/recorder";
import { applyRetention, compactPartition, JournalWriter, openPartition, parseJournal, writePendingBoard } from "../../../server/recording/store";

/** A small board whose prices include values that are not whole cents, NaN and -0. */
function oddBoard(asOfMs: number): ChainSnapshot {
  const f = (xs: number[]) => Float64Array.from(xs);
  return {
    symbol: "SPY",
    underlying: "SPY",
    asOfMs,
    sessionDate: "2024-03-06",
    spot: 507.71,
    rate: 0.045,
    dividendYield: 0.013,
    simulated: false,
    expirations: ["2024-03-08"],
    expirySettleMs: [etInstant("2024-03-08", "16:00")],
    expiryRoot: ["SPY"],
    strikes: f([500, 505.5]),
    strikeIndex: Int32Array.from([0, 0, 1, 1]),
    expIndex: Int32Array.from([0, 0, 0, 0]),
    right: Uint8Array.from([0, 1, 0, 1]),
    oi: f([10, 2.5, 0, 3e12]),
    bid: f([0.1 + 0.2, 1.23, Number.NaN, 0]),
    ask: f([0.35, 1.24, 1.0000001, -0]),
    last: f([0.3, 1.235, 0, 0.01]),
    iv: f([0.2, 0.123456789012345, 1e-9, 3]),
    volume: f([0, 1, 2, 2 ** 40]),
  };
}

const plain = (b: ChainSnapshot) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v]));

describe("store of record", () => {
  const dir = mkdtempSync(join(tmpdir(), "optionscope-store-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("scaled integers give every double back exactly, with the rest beside them", () => {
    const values = Float64Array.from([0, 0.05, 0.1 + 0.2, 12.35, -1.5, Number.NaN, -0, 1e15, 1.234567]);
    const { ints, rest } = splitScaled(values, 100);
    expect(rest).not.toBeNull();
    const back = joinScaled(ints, rest, 100);
    for (const [i, v] of values.entries()) expect(Object.is(back[i], v)).toBe(true);
    expect(splitScaled(Float64Array.from([0.05, 12.35]), 100).rest).toBeNull();
  });

  it("encodes and decodes a board exactly, odd values included", () => {
    const b = oddBoard(etInstant("2024-03-06", "10:00"));
    const { header, columns } = encodeBoard(b);
    const cols: ReadColumns = Object.fromEntries(columns.map((c) => [c.name, c.data]));
    const back = decodeBoard(header, cols);
    expect(plain(back)).toEqual(plain(b));
    expect(Object.is(back.ask[3], -0)).toBe(true);
  });

  it("writes boards to Parquet and compacts them, every board read back exact", async () => {
    const root = join(dir, "recorded");
    const times = [etInstant("2024-03-06", "10:00"), etInstant("2024-03-06", "10:01")];
    const boards = times.map(oddBoard);
    // The second minute's prices are all whole cents: no `_x` columns in its file.
    boards[1].bid = Float64Array.from([0.3, 1.23, 1, 0]);
    boards[1].ask = Float64Array.from([0.35, 1.24, 1.05, 0.05]);
    boards[1].last = Float64Array.from([0.3, 1.23, 1, 0.01]);
    for (const b of boards) writePendingBoard(root, b);
    const pending = openPartition(root, "2024-03-06", "SPY")!;
    expect(pending.complete).toBe(false);
    for (const b of boards) expect(plain((await pending.readBoard(b.asOfMs))!)).toEqual(plain(b));
    await compactPartition(root, "2024-03-06", "SPY");
    const done = openPartition(root, "2024-03-06", "SPY")!;
    expect(done.complete).toBe(true);
    expect(done.boardTimes).toEqual(times);
    for (const b of boards) expect(plain((await done.readBoard(b.asOfMs))!)).toEqual(plain(b));
    done.close();
    expect(existsSync(join(root, "date=2024-03-06", "symbol=SPY", "boards"))).toBe(false);
  });

  it("leaves a torn last journal line out", () => {
    const line = JSON.stringify({ t: 1, minute: {}, prints: [], off: [] });
    const text = `${line}\n${line.replace("1", "2")}\n{"t":3,"minu`;
    const { lines, used } = parseJournal(text);
    expect(lines.map((l) => l.t)).toEqual([1, 2]);
    expect(used).toBe(2 * (line.length + 1));
  });

  it("a journal torn by a crash is cut back to its last whole line before the next append", () => {
    const path = join(dir, "torn", "journal.ndjson");
    mkdirSync(join(dir, "torn"));
    const line = (t: number) => ({ t, minute: { t, spot: 1, o: null, h: null, l: null, c: null, v: null, bv: null, sv: null, uv: null }, prints: [], off: [] });
    writeFileSync(path, `${JSON.stringify(line(1))}\n{"t":2,"minute":{"t`);
    const w = new JournalWriter(path);
    w.append(line(3));
    w.close();
    expect(parseJournal(readFileSync(path, "utf8")).lines.map((l) => l.t)).toEqual([1, 3]);
  });

  it("minute boundaries run 04:00-20:00 ET on trading days only", () => {
    expect(nextRecordedBoundary(etInstant("2024-03-06", "03:10"))).toBe(etInstant("2024-03-06", "04:00"));
    expect(nextRecordedBoundary(etInstant("2024-03-06", "12:00") + 1)).toBe(etInstant("2024-03-06", "12:01"));
    expect(nextRecordedBoundary(etInstant("2024-03-06", "20:00"))).toBe(etInstant("2024-03-06", "20:00"));
    // Friday 20:01 -> Monday 04:00; Good Friday 2024-03-29 is skipped.
    expect(nextRecordedBoundary(etInstant("2024-03-08", "20:01"))).toBe(etInstant("2024-03-11", "04:00"));
    expect(nextRecordedBoundary(etInstant("2024-03-28", "20:01"))).toBe(etInstant("2024-04-01", "04:00"));
  });

  it("retention deletes sessions older than the kept calendar days, and nothing with 0", () => {
    const root = join(dir, "retention");
    for (const d of ["2024-01-02", "2024-02-29", "2024-03-01", "2024-03-06"]) mkdirSync(join(root, `date=${d}`, "symbol=SPY"), { recursive: true });
    expect(applyRetention(root, 0, "2024-03-06")).toEqual([]);
    expect(applyRetention(root, 5, "2024-03-06")).toEqual(["2024-01-02", "2024-02-29"]);
    expect(existsSync(join(root, "date=2024-03-01"))).toBe(true);
  });
});
