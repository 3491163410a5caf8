/**
 * Simulated option prints of a ticker or root over a time range: the minute generator run over
 * every regular-session minute in the range, on boards fetched from the simulator.
 * @see docs/methodology.md#option-prints
 */
import { etDateOf, sessionBounds, tradingDaysBetween } from "../../time";
import type { ChainSnapshot, PrintGrid, SimulatedMarketContext } from "../market-data";
import { chainIndex } from "./_chain-index";
import { optionPrintProfile, type OptionPrintProfile } from "./print-profile";
import type { OptionPrint } from "./schemas";
import { optionPrintSizesForMinute, optionPrintsForMinute } from "./simulated-option-minute";
import { compareTsNs } from "./ts-ns";

const MINUTE_MS = 60_000;

/**
 * Boards are read every this many minutes from the open (quotes in between are shifted by delta
 * to each minute's spot), which keeps a full day cheap. @see docs/methodology.md#option-prints
 */
export const CHAIN_REFRESH_MINUTES = 15;

/**
 * Option prints of `ticker` (a ticker or an option root) with `fromMs <= tsMs < toMs`, in time
 * order, never after `ctx.clock.now()`. Deterministic in `(ctx.seed, root, minute)`: the same
 * minute gives the same prints whatever range it was asked in.
 * @example
 * const prints = simulatedOptionPrints(ctx, "SPXW", Date.parse("2024-03-15T13:30:00Z"), Date.parse("2024-03-15T13:31:00Z"));
 * @see docs/methodology.md#option-prints
 */
export function simulatedOptionPrints(ctx: SimulatedMarketContext, ticker: string, fromMs: number, toMs: number): OptionPrint[] {
  const info = ctx.symbolInfoSync(ticker);
  const endMs = Math.min(toMs, ctx.clock.now());
  if (!info || !(endMs > fromMs)) return [];
  const firstMinute = Math.floor(fromMs / MINUTE_MS) * MINUTE_MS;
  let days: string[];
  try {
    days = tradingDaysBetween(etDateOf(firstMinute), etDateOf(endMs - 1));
  } catch {
    return []; // outside the calendar's years: no sessions to simulate
  }
  const profiles = new Map<string, OptionPrintProfile>();
  const profileOf = (root: string) => {
    let p = profiles.get(root);
    if (!p) {
      p = optionPrintProfile(root, info.type);
      profiles.set(root, p);
    }
    return p;
  };
  const out: OptionPrint[] = [];
  const cadenceMs = CHAIN_REFRESH_MINUTES * MINUTE_MS;
  for (const day of days) {
    const session = sessionBounds(day);
    const start = Math.max(session.openMs, firstMinute);
    const end = Math.min(session.closeMs, endMs);
    if (!(end > start)) continue;
    const grid = sessionGrid(ctx, ticker, session.openMs);
    if (!grid) continue;
    let anchorMs = -1;
    let chain: ChainSnapshot | null = null;
    let sessionOpenUsd: number | undefined;
    for (let m = start; m < end; m += MINUTE_MS) {
      const a = session.openMs + Math.floor((m - session.openMs) / cadenceMs) * cadenceMs;
      if (a !== anchorMs) {
        anchorMs = a;
        chain = ctx.chainSync(ticker, a);
      }
      if (!chain) continue;
      sessionOpenUsd ??= ctx.spotSync(chain.underlying, session.openMs) ?? undefined;
      const spotUsd = ctx.spotSync(chain.underlying, m) ?? chain.spot;
      const roots = [...chainIndex(grid).expirationsByRoot.keys()];
      let minute: OptionPrint[] = [];
      for (const root of roots) {
        const prints = optionPrintsForMinute({
          seed: ctx.seed,
          root,
          minuteMs: m,
          session,
          grid,
          chain,
          spotUsd,
          sessionOpenUsd,
          profile: profileOf(root),
        });
        minute = minute.length === 0 ? prints : minute.concat(prints);
      }
      if (roots.length > 1) minute.sort((p, q) => compareTsNs(p.tsNs, q.tsNs));
      const edge = m < fromMs || m + MINUTE_MS > endMs;
      for (const p of minute) if (!edge || (p.tsMs >= fromMs && p.tsMs < endMs)) out.push(p);
    }
  }
  return out;
}

/**
 * The contract grid of a session's order stream: `ctx.printGridSync`, or the structure of the
 * board at the open. @see docs/methodology.md#option-prints
 */
function sessionGrid(ctx: SimulatedMarketContext, ticker: string, openMs: number): PrintGrid | null {
  return ctx.printGridSync ? ctx.printGridSync(ticker, openMs) : ctx.chainSync(ticker, openMs);
}

/**
 * The sizes of a session's `simulatedOptionPrints(ctx, ticker, open, close)` (or of its whole
 * minutes in `[fromMs, toMs)`), print by print, without quotes or records: `add(grid, row, size,
 * minuteMs)` with the session's grid, the print's row there and the start of its minute. The same order stream as the records (any
 * order within a minute; the sum is what is read): only the grid and the spot path, never a
 * board's quotes. What a board's volume column and the next session's open interest read.
 * @see docs/methodology.md#open-interest-carry-from-the-tape
 */
export function simulatedOptionSessionSizes(
  ctx: SimulatedMarketContext,
  ticker: string,
  day: string,
  add: (grid: PrintGrid, row: number, size: number, minuteMs: number) => void,
  fromMs = -Infinity,
  toMs = Infinity,
): void {
  const info = ctx.symbolInfoSync(ticker);
  if (!info) return;
  const session = sessionBounds(day);
  const end = Math.min(session.closeMs, toMs, Math.floor(ctx.clock.now() / MINUTE_MS) * MINUTE_MS);
  const start = Math.max(session.openMs, Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS);
  if (!(end > start)) return;
  const grid = sessionGrid(ctx, ticker, session.openMs);
  if (!grid) return;
  const roots = [...chainIndex(grid).expirationsByRoot.keys()].map((root) => ({ root, profile: optionPrintProfile(root, info.type) }));
  let m = start;
  const onFill = (row: number, size: number) => add(grid, row, size, m);
  for (; m < end; m += MINUTE_MS) {
    const spotUsd = ctx.spotSync(grid.underlying, m);
    if (spotUsd === null) continue;
    for (const { root, profile } of roots) {
      optionPrintSizesForMinute({ seed: ctx.seed, root, minuteMs: m, session, grid, spotUsd, profile }, onFill);
    }
  }
}
