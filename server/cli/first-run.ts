// What `optionscope serve` prints once its market is ready (docs/operations.md#first-start): the
// landing page, the demo account's id with the commands that need it, a curl line for a symbol
// the data really has and, when no session is live, how to watch one. Facts are gathered from
// the market (`firstRunFacts`); the text is a pure function of them (`firstRunLines`).
import type { MarketData } from "../../lib/market";
import { etDateOf, etInstant, marketStateAt, sessionDateAt } from "../../lib/time";

/** Symbols the curl line prefers, in order, when the data has them (else the data's first). */
const PREFERRED_SYMBOLS = ["SPXW", "SPX", "SPY"];

/** The ET minute a `--now` hint starts a replayed session at (midday: the board is full by then). */
const HINT_ET_TIME = "11:00";

/** The simulated market's first session opens then (docs/methodology.md#the-marketdata-interface). */
const SIMULATOR_FIRST_OPEN_MS = etInstant("2023-03-28", "09:30");

/** What the banner says, gathered once the market is ready. */
export interface FirstRunFacts {
  /** The symbol the curl line and the page links ask for (one the data has); null when none. */
  symbol: string | null;
  /** True when the clock is inside a regular session the data has a board of. */
  live: boolean;
  /** The clock's now, ms. */
  nowMs: number;
  /** The latest session the data has at or before now (its closing board is what pages show). */
  lastSession: string | null;
}

/** The symbol to show: a preferred one the data has, else its first option root. */
export function bannerSymbol(roots: readonly string[]): string | null {
  return PREFERRED_SYMBOLS.find((s) => roots.includes(s)) ?? roots[0] ?? null;
}

/**
 * Reads the market: its option roots, and the board of the banner's symbol at the clock's now
 * (between sessions, the last session's closing board, whose date says which session that is).
 */
export async function firstRunFacts(market: MarketData): Promise<FirstRunFacts> {
  const nowMs = market.clock.now();
  const roots = (await market.universe()).flatMap((s) => s.optionRoots);
  const symbol = bannerSymbol(roots);
  const { session: lastSession, live } = symbol ? await shownSession(market, symbol, nowMs) : { session: null, live: false };
  return { symbol, live, nowMs, lastSession };
}

/**
 * The session the pages show at `nowMs` (the date of `symbol`'s board then: between sessions, the
 * last one's closing board) and whether it is live: the regular session is open and the data has
 * today's board. docs/operations.md#first-start
 */
export async function shownSession(market: MarketData, symbol: string, nowMs: number): Promise<{ session: string | null; live: boolean }> {
  // The simulator has every session from its first: the calendar answers without building a board
  // (which would queue in the board worker before the first visitor's).
  if (market.simulated && nowMs >= SIMULATOR_FIRST_OPEN_MS) return { session: sessionDateAt(nowMs), live: marketStateAt(nowMs) === "open" };
  const board = await market.chain(symbol, nowMs).catch(() => null);
  const session = board?.sessionDate ?? null;
  return { session, live: marketStateAt(nowMs) === "open" && session !== null && session === etDateOf(nowMs) };
}

/** The ready-to-paste request printed on first start. */
export function curlLine(baseUrl: string, key: string, symbol = "SPXW"): string {
  return `curl -s -H "Authorization: Bearer ${key}" "${baseUrl}/v1/heatmap?symbols=${encodeURIComponent(symbol)}"`;
}

/** ET wall time of an instant, "Sat 2026-11-28 13:53 ET". */
function etLabel(ms: number): string {
  const f = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const parts = Object.fromEntries(f.formatToParts(ms).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${etDateOf(ms)} ${parts.hour}:${parts.minute} ET`;
}

/**
 * The banner's lines after the "listening" line: `accountLines`, then `sessionLines`.
 * @example firstRunLines({ baseUrl: "http://localhost:8080", accountId: "acct_1", key: null, facts })
 */
export function firstRunLines(o: { baseUrl: string; accountId: string; key: string | null; facts: FirstRunFacts }): string[] {
  return [...accountLines({ ...o, symbol: o.facts.symbol }), ...sessionLines(o.facts)];
}

/** The symbol the banner asks for, from the universe alone (no board is built). */
export async function bannerSymbolOf(market: MarketData): Promise<string | null> {
  return bannerSymbol((await market.universe()).flatMap((s) => s.optionRoots));
}

/** The landing page, the demo account and its key's curl line: printed as soon as the universe is known. */
export function accountLines(o: { baseUrl: string; accountId: string; key: string | null; symbol: string | null }): string[] {
  const { baseUrl, accountId, key, symbol } = o;
  const lines = [`  start here: ${baseUrl}/  (heatmap, chart, developer console, API reference, server status)`];
  if (key) {
    lines.push(`Demo account ${accountId} created. Its key is shown only now:`);
    if (symbol) {
      lines.push(`  ${curlLine(baseUrl, key, symbol)}`);
      lines.push(`  heatmap page with this key: ${baseUrl}/heatmap?symbol=${encodeURIComponent(symbol)}#key=${key}`);
    } else lines.push(`  key: ${key}`);
  } else {
    lines.push(`Demo account ${accountId} exists (its key was shown on the first start). A new key: optionscope key create --account ${accountId}`);
  }
  lines.push(`  console sign-in link for it: optionscope console link --account ${accountId}`);
  return lines;
}

/** Outside a live session: which session the pages show and how to watch one live (it needs a board). */
export function sessionLines(facts: FirstRunFacts): string[] {
  const lines: string[] = [];
  if (!facts.live) {
    const shown = facts.lastSession ? `the pages show the ${facts.lastSession} session as of its close` : "the data has no session before now";
    lines.push(`No live session now (${etLabel(facts.nowMs)}): ${shown}.`);
    if (facts.lastSession) {
      const at = new Date(etInstant(facts.lastSession, HINT_ET_TIME)).toISOString().replace(".000Z", "Z");
      lines.push(`  To watch a session live: optionscope serve --now ${at} --clock-speed 1`);
    }
  }
  return lines;
}
