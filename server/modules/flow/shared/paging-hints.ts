// The one detector behind `X-Skylit-Hint` on both trade feeds (`/v1/flow/{ticker}`,
// `/v1/contract/{symbol}/trades`): per account, feed and filters, the windows sent lately, in a
// bounded LRU. The rule itself is `noteWindow` (lib/flow/window-hint.ts).
// @see docs/methodology.md#flow-paging-hint
import { noteWindow, sentBounds, type SentWindow } from "../../../../lib/flow/window-hint";
import { cacheShareBytes } from "../../../cache/cache-budget";
import { LruCache } from "../../../cache/lru-cache";

/**
 * Keys (account x feed x filters) kept app-wide by default; with at most `HINT_MAX_KEPT` windows
 * each, and within the budget's `flowPagingHints` share, the detector's memory is bounded whatever
 * the clients send. An evicted key only loses a hint.
 */
const HINT_KEYS_KEPT = 4_096;

/** Where each feed's cursor paging is explained (the header's docs link). */
export const FEED_PAGING_HINT = "use next_cursor (/docs/api.md#flow-feed-paging)";
export const CONTRACT_PAGING_HINT = "use next_cursor (/docs/api.md#flow-contract-trades-paging)";

export interface PagingHints {
  /**
   * Records the window a request sent (`start`/`end` as given, exclusive end; absent = open) and
   * answers whether this account has been splitting windows of the same feed and filters.
   */
  note(o: { account: string; feed: string; filters: string; start?: number; end?: number; atMs: number }): boolean;
  /** Keys held (for the memory bound's test). */
  readonly size: number;
}

export function createPagingHints(maxKeys = HINT_KEYS_KEPT, maxBytes = cacheShareBytes(undefined, "flowPagingHints")): PagingHints {
  const byKey = new LruCache<string, SentWindow[]>({ maxEntries: maxKeys, maxBytes });
  return {
    note({ account, feed, filters, start, end, atMs }) {
      const key = `${account}\u0000${feed}\u0000${filters}`;
      const { kept, hint } = noteWindow(byKey.get(key) ?? [], { ...sentBounds(start, end), atMs });
      byKey.set(key, kept);
      return hint;
    },
    get size() {
      return byKey.size;
    },
  };
}
