// /v1/board's memo (server/web/heatmap/board-memo.ts): one build and one serialisation per minute
// and market, equal to building afresh; bounded; and the route's bodies unchanged by it.
import { describe, expect, it } from "vitest";
import { boardColumns } from "../../../server/modules/positioning/board-columns";
import { BOARD_MEMO_SIZE, memoBoardColumns } from "../../../server/web/heatmap/board-memo";
import { makeHarness, NOW_MS } from "../_harness";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

const AT = Date.parse("2024-03-06T19:00:00Z");

describe("board memo", () => {
  it("the same minute gives the same object, equal to a fresh build; another market has its own", async () => {
    const market = simulatedMarketAt(42, AT);
    const a = await market.chain("SPY", AT);
    const b = await market.chain("SPY", AT);
    expect(a).not.toBe(b); // two chain objects for one minute
    const first = memoBoardColumns(market, a!);
    expect(memoBoardColumns(market, b!)).toBe(first);
    expect(first).toEqual(boardColumns(b!));
    const other = simulatedMarketAt(7, AT);
    const theirs = memoBoardColumns(other, (await other.chain("SPY", AT))!);
    expect(theirs).not.toBe(first);
    expect(theirs).toEqual(boardColumns((await other.chain("SPY", AT))!));
  });

  it(`keeps the latest ${BOARD_MEMO_SIZE} boards: the oldest is rebuilt after one more`, async () => {
    const market = simulatedMarketAt(42, AT);
    const minute = (k: number) => AT - k * 60_000;
    const first = memoBoardColumns(market, (await market.chain("IWM", minute(0)))!);
    for (let k = 1; k <= BOARD_MEMO_SIZE; k++) memoBoardColumns(market, (await market.chain("IWM", minute(k)))!);
    const again = memoBoardColumns(market, (await market.chain("IWM", minute(0)))!);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  }, 60_000);

  it("the route's body is the same on the memo's second serve, and each call is charged", async () => {
    const h = makeHarness({ credits: 100 });
    const at = new Date(NOW_MS - 12 * 60_000).toISOString();
    const one = await h.get(`/v1/board?symbol=SPY&at=${at}`);
    const two = await h.get(`/v1/board?symbol=SPY&at=${at}`);
    expect([one.status, two.status]).toEqual([200, 200]);
    const [t1, t2] = [await one.text(), await two.text()];
    expect(JSON.parse(t2).data).toEqual(JSON.parse(t1).data);
    expect(JSON.parse(t1).data.asOf).toBe(at.replace(".000Z", "Z"));
    expect(h.accounts.balance(h.accountId)).toBe(90);
  });
});
