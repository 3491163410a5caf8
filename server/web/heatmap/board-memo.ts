// The /v1/board body of a minute, made once: a minute's board never changes, so its columns and
// their JSON text (memoizeJson: 11,781 SPY contracts are 518 KB, ~35 ms to build and serialise)
// are kept per market for the latest few boards and shared by every caller that asks for them
// (a reload, a second viewer, the replay of a minute). docs/api.md#heatmap-page-first-paint.
import type { ChainSnapshot, MarketData } from "../../../lib/market/market-data";
import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import { memoizeJson } from "../../http/json-body";
import { boardColumns, type BoardJson } from "../../modules/positioning/board-columns";

/** Boards kept per market at most (least recently used out first); bytes bound them too. */
export const BOARD_MEMO_SIZE = 32;

const memos = new WeakMap<MarketData, LruCache<string, BoardJson>>();

/**
 * `boardColumns(chain)`, memoised by symbol and minute; the result must not be mutated.
 * @param maxBytes what the market's memo may hold (made by the first caller; default: the budget's
 *   `heatmapBoards` share of the default total)
 */
export function memoBoardColumns(market: MarketData, chain: ChainSnapshot, maxBytes = cacheShareBytes(undefined, "heatmapBoards")): BoardJson {
  let memo = memos.get(market);
  if (!memo) {
    memo = new LruCache<string, BoardJson>({ maxEntries: BOARD_MEMO_SIZE, maxBytes });
    memos.set(market, memo);
  }
  const key = `${chain.symbol}|${chain.asOfMs}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const data = memoizeJson(boardColumns(chain));
  memo.set(key, data);
  return data;
}
