// The board as JSON columns (`data` of /v1/board): pure, shared by the route and the heatmap
// page's static build, which serves the same shape from the simulated market in the browser.
import type { ChainSnapshot } from "../../../lib/market/market-data";
import { isoUtc } from "../../../lib/positioning/iso-utc";

/** `data` of `/v1/board` (schema: `BoardDataSchema` in board.ts). */
export interface BoardJson {
  symbol: string;
  underlying: string;
  asOf: string;
  asOfMs: number;
  sessionDate: string;
  spot: number;
  rate: number;
  dividendYield: number;
  simulated: boolean;
  expirations: string[];
  expirySettleMs: number[];
  expiryRoot: string[];
  strikes: number[];
  /** Per contract with open interest (the others add no exposure). */
  contracts: {
    strikeIndex: number[];
    expIndex: number[];
    right: number[];
    oi: number[];
    bid: number[];
    ask: number[];
    /** null when the board has none (NaN or <= 0): clients solve it from the mid. */
    iv: (number | null)[];
  };
}

/**
 * A chain snapshot as JSON columns: every strike and expiration, and the contracts with open
 * interest (zero open interest adds no exposure, docs/methodology.md#exposure).
 */
export function boardColumns(chain: ChainSnapshot): BoardJson {
  const rows: number[] = [];
  for (let i = 0; i < chain.oi.length; i++) if (chain.oi[i] > 0) rows.push(i);
  const col = (a: ArrayLike<number>) => rows.map((i) => a[i]);
  return {
    symbol: chain.symbol,
    underlying: chain.underlying,
    asOf: isoUtc(chain.asOfMs),
    asOfMs: chain.asOfMs,
    sessionDate: chain.sessionDate,
    spot: chain.spot,
    rate: chain.rate,
    dividendYield: chain.dividendYield,
    simulated: chain.simulated,
    expirations: [...chain.expirations],
    expirySettleMs: [...chain.expirySettleMs],
    expiryRoot: [...chain.expiryRoot],
    strikes: Array.from(chain.strikes),
    contracts: {
      strikeIndex: col(chain.strikeIndex),
      expIndex: col(chain.expIndex),
      right: col(chain.right),
      oi: col(chain.oi),
      bid: col(chain.bid),
      ask: col(chain.ask),
      iv: rows.map((i) => (chain.iv[i] > 0 ? chain.iv[i] : null)),
    },
  };
}
