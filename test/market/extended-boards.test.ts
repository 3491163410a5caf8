// Extended-session boards of the simulator (docs/methodology.md#extended-hours-boards): a board at
// every minute 04:00-20:00 ET (17:00 on early closes) when asked for, identical to the regular
// board inside regular hours, priced at the minute's extended-hours spot (the closes of the
// extended minute bars), with the session's listings and open interest, no option volume before
// the open and the day's volume after the close; no session on holidays and weekends.
import { describe, expect, it } from "vitest";
import type { ChainSnapshot } from "../../lib/market";
import { etInstant, sessionBounds } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(7, Date.parse("2025-01-01T00:00:00Z"));
const MINUTE = 60_000;
const DAY = "2024-03-06"; // an ordinary Wednesday (no AM settlement, no early close)
const EARLY = "2024-11-29"; // 13:00 close, post-market ends 17:00
const at = (date: string, hm: string) => etInstant(date, hm);
const ext = { extended: true };

/** Contract key: expiry, strike, right. */
const keyOf = (c: ChainSnapshot, i: number) => `${c.expirations[c.expIndex[i]]}|${c.strikes[c.strikeIndex[i]]}|${c.right[i]}`;
/** Contract key -> column value. */
const column = (c: ChainSnapshot, col: "oi" | "volume") => new Map(Array.from(c.oi, (_, i) => [keyOf(c, i), c[col][i]]));
/** Whether two typed columns hold the same bytes. */
const sameBytes = (x: ArrayBufferView, y: ArrayBufferView) => Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength));
/** Whether two snapshots are equal field by field (typed columns compared as bytes: fast on ~20,000 rows). */
function sameBoard(a: ChainSnapshot, b: ChainSnapshot): boolean {
  for (const k of Object.keys(a) as (keyof ChainSnapshot)[]) {
    const x = a[k];
    const y = b[k];
    if (ArrayBuffer.isView(x) && ArrayBuffer.isView(y)) {
      if (!sameBytes(x, y)) return false;
    } else if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return Object.keys(a).length === Object.keys(b).length;
}
/**
 * Expects column `col` to give every contract of `a` the value `b` gives it. Boards that list the
 * same contracts in the same rows with the same bytes agree at once; otherwise the comparison by
 * contract key decides (and shows the difference): on ~20,000 rows that Map comparison alone was
 * a second of this file.
 */
function expectSameColumn(a: ChainSnapshot, b: ChainSnapshot, col: "oi" | "volume"): void {
  const sameRows =
    JSON.stringify(a.expirations) === JSON.stringify(b.expirations) &&
    sameBytes(a.strikes, b.strikes) &&
    sameBytes(a.expIndex, b.expIndex) &&
    sameBytes(a.strikeIndex, b.strikeIndex) &&
    sameBytes(a.right, b.right);
  if (sameRows && sameBytes(a[col], b[col])) return;
  expect(column(a, col)).toEqual(column(b, col));
}
/** Close of the extended minute bar that ends at `t` (the spot a board at `t` must carry). */
const barCloseBefore = (symbol: string, t: number) => market.minuteBarsSync(symbol, t - MINUTE, t, ext).c[0];

describe("extended-session boards", () => {
  it("exist at every sampled minute 04:00..19:59 ET stamped at that minute, and equal the regular board in regular hours", () => {
    const { openMs, closeMs } = sessionBounds(DAY, ext);
    expect((closeMs - openMs) / MINUTE).toBe(960);
    for (const symbol of ["SPY", "SPXW", "AAPL"]) {
      for (let t = openMs; t < closeMs; t += 53 * MINUTE) {
        const board = market.chainSync(symbol, t + 20_000, ext)!;
        expect(board.asOfMs).toBe(t);
        expect(board.sessionDate).toBe(DAY);
        expect(board.iv.every((x) => x > 0 && x < 5)).toBe(true);
        const regular = market.chainSync(symbol, t)!;
        if (t >= at(DAY, "09:30") && t < at(DAY, "16:00")) expect(sameBoard(board, regular)).toBe(true);
        else expect(regular.asOfMs).not.toBe(t); // without extended, the last regular board
      }
      // The byte comparison does see a difference between two minutes.
      expect(sameBoard(market.chainSync(symbol, at(DAY, "10:00"))!, market.chainSync(symbol, at(DAY, "10:01"))!)).toBe(false);
    }
  });

  it("carry the extended-hours spot: ETFs and stocks the minute bars' close, indices their family's extended path", () => {
    for (const hm of ["04:01", "06:45", "09:29", "16:01", "18:30", "19:59"]) {
      const t = at(DAY, hm);
      for (const symbol of ["SPY", "QQQ", "AAPL"]) expect(market.chainSync(symbol, t, ext)!.spot).toBe(barCloseBefore(symbol, t));
      // SPX is SPY's path owner: SPX x (SPY/SPX at a regular minute) is SPY's price to the cent rounding.
      const ratio = market.chainSync("SPY", at(DAY, "12:00"))!.spot / market.chainSync("SPX", at(DAY, "12:00"))!.spot;
      const spx = market.chainSync("SPXW", t, ext)!.spot;
      expect(Math.abs(spx * ratio - barCloseBefore("SPY", t))).toBeLessThan(0.02);
      expect(spx).not.toBe(market.chainSync("SPXW", t)!.spot); // not the held close
    }
  });

  it("pre-market: the session's listings and open interest, no option volume; post-market: the close's listings, OI and volume", () => {
    for (const symbol of ["SPY", "SPXW"]) {
      const open = market.chainSync(symbol, at(DAY, "09:30"))!;
      const close = market.chainSync(symbol, at(DAY, "16:00"))!;
      for (const hm of ["04:00", "08:15"]) {
        const pre = market.chainSync(symbol, at(DAY, hm), ext)!;
        expect(pre.expirations).toEqual(open.expirations);
        expectSameColumn(pre, open, "oi");
        expect(pre.volume.every((v) => v === 0)).toBe(true);
      }
      for (const hm of ["16:01", "19:59"]) {
        const post = market.chainSync(symbol, at(DAY, hm), ext)!;
        expect(post.expirations).toEqual(close.expirations); // the 0DTE settled at 16:00 is gone
        expectSameColumn(post, close, "oi");
        expectSameColumn(post, close, "volume");
      }
    }
  });

  it("early close: boards up to 16:59 ET, the 17:00 board after; the next pre-market starts from that level", () => {
    expect(market.chainSync("SPY", at(EARLY, "16:59"), ext)!.asOfMs).toBe(at(EARLY, "16:59"));
    expect(market.chainSync("SPY", at(EARLY, "17:00"), ext)!.asOfMs).toBe(at(EARLY, "17:00"));
    const late = market.chainSync("SPY", at(EARLY, "19:30"), ext)!;
    expect(late.asOfMs).toBe(at(EARLY, "17:00"));
    // Regular boards stop at the 13:00 close.
    expect(market.chainSync("SPY", at(EARLY, "15:00"))!.asOfMs).toBe(at(EARLY, "13:00"));
    // The 17:00 level is where the next session's 04:00 board starts (no gap between the two).
    expect(market.chainSync("SPY", at("2024-12-02", "04:00"), ext)!.spot).toBe(late.spot);
  });

  it("holidays and weekends have no session: the previous session's 20:00 board", () => {
    // Thanksgiving 2024-11-28: the board is Wednesday's 20:00 board all day.
    for (const hm of ["04:00", "10:00", "19:00"]) {
      const b = market.chainSync("SPY", at("2024-11-28", hm), ext)!;
      expect(b.sessionDate).toBe("2024-11-27");
      expect(b.asOfMs).toBe(at("2024-11-27", "20:00"));
    }
    // Saturday 2024-03-09: Friday's 20:00 board.
    expect(market.chainSync("SPXW", at("2024-03-09", "12:00"), ext)!.asOfMs).toBe(at("2024-03-08", "20:00"));
    // Before Monday's 04:00 it is still Friday's.
    expect(market.chainSync("SPXW", at("2024-03-11", "03:59"), ext)!.asOfMs).toBe(at("2024-03-08", "20:00"));
  });

  it("never after the clock, and none before the first session", () => {
    const now = at(DAY, "07:12") + 30_000;
    const live = simulatedMarketAt(7, now);
    expect(live.chainSync("SPY", at(DAY, "12:00"), ext)!.asOfMs).toBe(at(DAY, "07:12"));
    expect(live.chainSync("SPY", at(DAY, "12:00"))!.asOfMs).toBe(at("2024-03-05", "16:00"));
    expect(market.chainSync("SPY", at("2023-03-28", "03:59"), ext)).toBeNull();
    expect(market.chainSync("SPY", at("2023-03-28", "04:00"), ext)!.asOfMs).toBe(at("2023-03-28", "04:00"));
  });
});
