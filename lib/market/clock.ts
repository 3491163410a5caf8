/**
 * Clocks for `MarketData`: the system clock, a pinned clock, and a scaled clock.
 * @see docs/methodology.md#clocks
 */
import type { Clock } from "./market-data";

/**
 * The wall clock (`Date.now()`).
 * @example
 * systemClock.now(); // ms since the epoch
 */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock pinned at `nowMs` (for tests and `OPTIONSCOPE_NOW` without a speed).
 * @example
 * fixedClock(Date.parse("2024-05-01T18:00:00Z")).now(); // always that instant
 */
export function fixedClock(nowMs: number): Clock {
  if (!Number.isFinite(nowMs)) throw new RangeError("fixedClock: nowMs must be a finite number");
  return { now: () => nowMs };
}

/** Options of `scaledClock`. */
export interface ScaledClockOptions {
  /** Simulated instant at creation, ms since the epoch. */
  startMs: number;
  /** Simulated seconds per real second (1 = real time, 60 = a minute per second, 0 = pinned). */
  speed: number;
  /** Real time source in ms; defaults to `Date.now` (inject a fake in tests). */
  realNow?: () => number;
}

/**
 * A clock that starts at `startMs` and runs `speed` times faster than real time
 * (`OPTIONSCOPE_NOW` + `OPTIONSCOPE_CLOCK_SPEED`, DESIGN section 7).
 * @example
 * const clock = scaledClock({ startMs: Date.parse("2024-05-01T13:30:00Z"), speed: 60 });
 * // one real second later, clock.now() is one simulated minute later
 */
export function scaledClock({ startMs, speed, realNow = () => Date.now() }: ScaledClockOptions): Clock {
  if (!Number.isFinite(startMs)) throw new RangeError("scaledClock: startMs must be a finite number");
  if (!Number.isFinite(speed) || speed < 0) throw new RangeError("scaledClock: speed must be >= 0");
  const realStartMs = realNow();
  return { now: () => startMs + (realNow() - realStartMs) * speed };
}
