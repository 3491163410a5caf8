/**
 * The freshness fields of a live answer (`asOf`, `ageS`, `stale`), from the one staleness rule
 * every module shares (lib/market/freshness.ts) and the app's limit (`--stale-after-s`).
 * @see docs/methodology.md#staleness
 */
import { freshness } from "../../lib/market/freshness";
import { isoUtc } from "../../lib/positioning/iso-utc";
import type { AppServices } from "../services";

/** `asOf` (ISO UTC), `ageS` and `stale` of a board of instant `asOfMs` read at `nowMs`. */
export function freshnessMeta(services: Pick<AppServices, "staleAfterMs">, asOfMs: number, nowMs: number): { asOf: string; ageS: number; stale: boolean } {
  const f = freshness(asOfMs, nowMs, services.staleAfterMs);
  return { asOf: isoUtc(asOfMs), ageS: f.ageS, stale: f.stale };
}

/**
 * With a live feed (`services.feedStatus`), the freshness of the feed's oldest newest board:
 * what answers built from the tape (flow) say about their age, by the same rule. Empty without a
 * feed (the simulator is never behind) or before the feed's first board.
 */
export function feedFreshnessMeta(services: Pick<AppServices, "staleAfterMs" | "feedStatus" | "clock">): { asOf?: string; ageS?: number; stale?: boolean } {
  if (!services.feedStatus) return {};
  const newest = Object.values(services.feedStatus().boards).filter((ms): ms is number => ms !== null);
  if (newest.length === 0) return {};
  return freshnessMeta(services, Math.min(...newest), services.clock.now());
}

/**
 * What a live stream sends instead of a board past the staleness limit: `symbol_unavailable` with
 * reason `stale` and the JSON answers' fields (`asOf`, `ageS`, `stale: true`), so a subscriber
 * holding the last board learns it has gone stale (the hub re-sends only newer boards). Null while
 * the board is fresh. @see docs/methodology.md#staleness
 */
export function staleStreamState(
  services: Pick<AppServices, "staleAfterMs">,
  symbol: string,
  asOfMs: number,
  nowMs: number,
): { kind: "unavailable"; reason: "stale"; message: string; fields: { asOf: string; ageS: number; stale: true } } | null {
  const f = freshnessMeta(services, asOfMs, nowMs);
  if (!f.stale) return null;
  return {
    kind: "unavailable",
    reason: "stale",
    message: `${symbol}'s newest board (${f.asOf}) is ${f.ageS} s old, past the staleness limit: the feed is behind.`,
    fields: { asOf: f.asOf, ageS: f.ageS, stale: true },
  };
}

/**
 * The freshness fields of a symbol's newest board on the live feed (`asOf`, `ageS`, `stale`), for a
 * live read the feed refused (503 `data_unavailable` while it is down); empty without a feed or
 * before the symbol's first board.
 */
export function feedBoardFreshness(
  services: Pick<AppServices, "staleAfterMs" | "feedStatus" | "clock">,
  symbol: string,
): { asOf?: string; ageS?: number; stale?: boolean } {
  const ms = services.feedStatus?.().boards[symbol];
  return typeof ms === "number" ? freshnessMeta(services, ms, services.clock.now()) : {};
}
