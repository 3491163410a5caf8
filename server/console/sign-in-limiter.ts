/**
 * Brute-force limits on console sign-in: failed attempts counted per account and per source
 * address over a sliding window; past either limit, attempts are refused (before any password
 * work) until the oldest failure leaves the window. In memory for one instance; on Redis with
 * `--redis` (`createRedisSignInLimiter`), so N instances enforce one limit.
 * Thresholds: docs/methodology.md#console-thresholds; design: docs/operations.md#console-sign-in.
 */
import type { Redis } from "ioredis";
import { createRedisSlidingLog } from "../limits/redis-rate-limiter";

export interface SignInLimits {
  /** Failed attempts allowed per account in the window. */
  perAccount: number;
  /** Failed attempts allowed per source address in the window. */
  perIp: number;
  windowMs: number;
}

const DEFAULT_SIGN_IN_LIMITS: SignInLimits = Object.freeze({ perAccount: 5, perIp: 20, windowMs: 15 * 60_000 });

/** Keys tracked at most; the oldest entries go first (bounds memory under a spray of addresses). */
const MAX_TRACKED = 50_000;

/** The shared (Redis) limiter answers with promises; both are awaited. */
export interface SignInLimiter {
  /** Seconds to wait when `account` or `ip` is over its limit, else 0. */
  blockedForS(account: string | null, ip: string, nowMs: number): number | Promise<number>;
  recordFailure(account: string | null, ip: string, nowMs: number): void | Promise<void>;
  /** A success clears the account's failures (not the address's). */
  recordSuccess(account: string): void | Promise<void>;
}

/** The in-memory limiter answers synchronously. */
export interface InMemorySignInLimiter extends SignInLimiter {
  blockedForS(account: string | null, ip: string, nowMs: number): number;
  recordFailure(account: string | null, ip: string, nowMs: number): void;
  recordSuccess(account: string): void;
}

export function createSignInLimiter(limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS): InMemorySignInLimiter {
  const failures = new Map<string, number[]>();

  const recent = (key: string, nowMs: number): number[] => {
    const list = (failures.get(key) ?? []).filter((t) => t > nowMs - limits.windowMs);
    if (list.length === 0) failures.delete(key);
    else failures.set(key, list);
    return list;
  };
  const waitS = (key: string, max: number, nowMs: number): number => {
    const list = recent(key, nowMs);
    if (list.length < max) return 0;
    // Free again when the failure that made the count reach `max` leaves the window.
    return Math.max(1, Math.ceil((list[list.length - max]! + limits.windowMs - nowMs) / 1000));
  };
  const add = (key: string, nowMs: number) => {
    const list = recent(key, nowMs);
    list.push(nowMs);
    failures.delete(key);
    failures.set(key, list);
    if (failures.size > MAX_TRACKED) failures.delete(failures.keys().next().value!);
  };

  return {
    blockedForS(account, ip, nowMs) {
      const byIp = waitS(`ip:${ip}`, limits.perIp, nowMs);
      const byAccount = account ? waitS(`acct:${account}`, limits.perAccount, nowMs) : 0;
      return Math.max(byIp, byAccount);
    },
    recordFailure(account, ip, nowMs) {
      add(`ip:${ip}`, nowMs);
      if (account) add(`acct:${account}`, nowMs);
    },
    recordSuccess(account) {
      failures.delete(`acct:${account}`);
    },
  };
}

/**
 * The same limits on Redis, shared by every instance: one sliding log per account and per address
 * on the rate limiter's script (`redis-rate-limiter.ts`). `blockedForS` peeks (the wait runs from
 * the failure that made the count reach the limit, as above); a failure is recorded by a take whose
 * limit is four times the threshold, so a key holds at most that many entries (attempts are refused
 * from the threshold on, so only concurrent attempts get past it). Redis unreachable: 503
 * `unavailable` (no attempt is decided without the shared counts).
 * @example const limiter = createRedisSignInLimiter(redis); await limiter.blockedForS("acct_1", "203.0.113.9", Date.now()) // 0
 */
export function createRedisSignInLimiter(redis: Redis, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS, prefix?: string): SignInLimiter {
  const log = createRedisSlidingLog(redis, { prefix, keyspace: "signin:", windowMs: limits.windowMs });
  const waitS = async (key: string, max: number, nowMs: number): Promise<number> => {
    const { used, oldestMs } = await log.run(key, max, nowMs, false);
    return used < max ? 0 : Math.max(1, Math.ceil((oldestMs + limits.windowMs - nowMs) / 1000));
  };
  return {
    async blockedForS(account, ip, nowMs) {
      const [byIp, byAccount] = await Promise.all([waitS(`ip:${ip}`, limits.perIp, nowMs), account ? waitS(`acct:${account}`, limits.perAccount, nowMs) : 0]);
      return Math.max(byIp, byAccount);
    },
    async recordFailure(account, ip, nowMs) {
      await Promise.all([log.run(`ip:${ip}`, 4 * limits.perIp, nowMs, true), account ? log.run(`acct:${account}`, 4 * limits.perAccount, nowMs, true) : null]);
    },
    recordSuccess: (account) => log.clear(`acct:${account}`),
  };
}
