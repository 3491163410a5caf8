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
