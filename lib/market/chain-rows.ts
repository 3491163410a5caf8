/**
 * Row-object view of a columnar chain snapshot (for files, tests and people).
 * @see docs/architecture.md#chain-snapshot-what-marketdatachain-returns
 */
import type { ChainSnapshot } from "./market-data";
import type { ChainContractRow } from "./schemas";

/**
 * One object per contract, in the snapshot's row order.
 * @example
 * chainRows(snapshot)[0]; // { root: "SPXW", expiry: "2024-05-01", strike: 3500, right: "P", oi: 12, ... }
 */
export function chainRows(snapshot: ChainSnapshot): ChainContractRow[] {
  const n = snapshot.right.length;
  const out = new Array<ChainContractRow>(n);
  for (let i = 0; i < n; i++) {
    const e = snapshot.expIndex[i];
    out[i] = {
      root: snapshot.expiryRoot[e],
      expiry: snapshot.expirations[e],
      strike: snapshot.strikes[snapshot.strikeIndex[i]],
      right: snapshot.right[i] === 1 ? "C" : "P",
      oi: snapshot.oi[i],
      bid: snapshot.bid[i],
      ask: snapshot.ask[i],
      last: snapshot.last[i],
      iv: snapshot.iv[i],
      volume: snapshot.volume[i],
    };
  }
  return out;
}
