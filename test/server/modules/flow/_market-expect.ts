// Independent expectations for the market-wide flow screens, recomputed from the simulator's raw
// option prints and boards (no session summary, no tape): per-ticker and per-contract sums, the
// direction of a print from its side against the NBBO, and open interest at a session's open.
import { openInterestBySymbol } from "../../../../lib/flow";
import { classifySide, SIDE_AGGRESSION, SIDE_CODE } from "../../../../lib/flow/trade-side";
import type { MarketData, OptionPrint } from "../../../../lib/market/market-data";
import { isCrossPrint } from "../../../../lib/market/prints/conditions";
import { sessionBounds } from "../../../../lib/time";

export const premiumOf = (p: OptionPrint) => p.price * p.size * 100;

/** +1 buyer-initiated, -1 seller-initiated, 0 mid, no NBBO or a cross. */
export function aggressionSign(p: OptionPrint, countCrosses = false): number {
  if (!countCrosses && isCrossPrint(p)) return 0;
  return Math.sign(SIDE_AGGRESSION[SIDE_CODE[classifySide(p.price, p.nbboBid, p.nbboAsk)]]);
}

/** +1 bullish (calls bought, puts sold), -1 bearish, 0 neutral. */
const directionOf = (p: OptionPrint) => aggressionSign(p) * (p.right === "C" ? 1 : -1);

/** A session's prints up to `nowMs` (the whole session once it closed). */
export function printsOf(sim: MarketData, ticker: string, date: string, nowMs: number): Promise<OptionPrint[]> {
  const { openMs, closeMs } = sessionBounds(date);
  return sim.optionPrints(ticker, openMs, Math.min(closeMs, nowMs));
}

export interface TickerTotals {
  ticker: string;
  totalPremium: number;
  totalVolume: number;
  callPremium: number;
  putPremium: number;
  callVolume: number;
  putVolume: number;
  bullish: number;
  bearish: number;
}

export function tickerTotals(ticker: string, prints: readonly OptionPrint[]): TickerTotals {
  const t: TickerTotals = { ticker, totalPremium: 0, totalVolume: 0, callPremium: 0, putPremium: 0, callVolume: 0, putVolume: 0, bullish: 0, bearish: 0 };
  for (const p of prints) {
    const prem = premiumOf(p);
    t.totalPremium += prem;
    t.totalVolume += p.size;
    if (p.right === "C") {
      t.callPremium += prem;
      t.callVolume += p.size;
    } else {
      t.putPremium += prem;
      t.putVolume += p.size;
    }
    const d = directionOf(p);
    if (d > 0) t.bullish += prem;
    else if (d < 0) t.bearish += prem;
  }
  return t;
}

export const firOf = (bull: number, bear: number) => (bull + bear > 0 ? (100 * (bull - bear)) / (bull + bear) : 0);

/** Per contract: volume, premium, trade count and notional (price x size). */
export function contractSums(prints: readonly OptionPrint[]): Map<string, { volume: number; premium: number; trades: number; notional: number; ticker: string }> {
  const out = new Map<string, { volume: number; premium: number; trades: number; notional: number; ticker: string }>();
  for (const p of prints) {
    const c = out.get(p.symbol) ?? { volume: 0, premium: 0, trades: 0, notional: 0, ticker: p.root };
    c.volume += p.size;
    c.premium += premiumOf(p);
    c.trades++;
    c.notional += p.price * p.size;
    out.set(p.symbol, c);
  }
  return out;
}

/** Open interest by contract at a session's open, from the board. */
export async function openingOi(sim: MarketData, ticker: string, date: string): Promise<Map<string, number>> {
  const board = await sim.chain(ticker, sessionBounds(date).openMs);
  return board && board.sessionDate === date ? openInterestBySymbol(board) : new Map();
}
