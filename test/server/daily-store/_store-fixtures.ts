// Shared pieces of the daily-store tests: a temporary data directory, and a market wrapper that
// counts the calls a computation makes (a value served from the store makes none).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MarketData } from "../../../lib/market/market-data";

/** Wednesday 2024-03-06 15:00 UTC = 10:00 ET; 2024-03-05 is the last finished session. */
export const NOW_MS = Date.parse("2024-03-06T15:00:00Z");
export const LAST_SESSION = "2024-03-05";

/** A fresh directory under the OS temp folder, and its removal. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "optionscope-daily-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Calls per market method. */
export type CallCounts = Record<"chain" | "optionPrints", number>;

/** `market` with its `chain` and `optionPrints` calls counted, and the instant of each `chain` call. */
export function countingMarket(market: MarketData): { market: MarketData; calls: CallCounts; chainAt: { symbol: string; atMs: number }[] } {
  const calls: CallCounts = { chain: 0, optionPrints: 0 };
  const chainAt: { symbol: string; atMs: number }[] = [];
  const wrapped = new Proxy(market, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      // The simulator's head of a board (a closing reading's first read) counts as a board read.
      if ((prop === "chain" || prop === "chainHeadSync" || prop === "optionPrints") && typeof v === "function") {
        const counted = prop === "optionPrints" ? prop : "chain";
        return (...args: unknown[]) => {
          calls[counted]++;
          if (counted === "chain") chainAt.push({ symbol: args[0] as string, atMs: args[1] as number });
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { market: wrapped, calls, chainAt };
}

/** The lock tests' fill: KO's flow summaries over the last 3 sessions and its last vol reading (4 rows). */
export const LOCK_SCOPE = { symbols: ["KO"], volSessions: 0, flowFrom: "2023-03-28", flowSessions: 3 } as const;
