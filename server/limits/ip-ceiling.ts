/**
 * The edge ceiling per source address (spec, Limits: "edge ceiling far above one key's limit over
 * 5 minutes"): requests from one IP, all keys and hosts combined, over a sliding 5 minutes kept as
 * ten 30-second buckets (the window slides in 30-second steps; memory is 10 counters per address).
 * Over it: 429 `ip_rate_limited`, `Retry-After: 60`, no rate-limit headers, nothing charged.
 * With `--redis` the same counts live on Redis (`createRedisIpCeiling`), so N instances enforce one
 * ceiling per address. See docs/operations.md#per-ip-ceiling.
 */
import type { Redis } from "ioredis";
import { createRedisSlidingLog } from "./redis-rate-limiter";

/** Settings of the ceiling. */
export interface IpCeilingOptions {
  /** Requests per address per window; default 6000 (ten times one key's 120/min over 5 minutes). */
  maxRequests?: number;
  /** Window, seconds; default 300. */
  windowS?: number;
  /** Addresses of reverse proxies whose `X-Forwarded-For` is believed; default none (the socket's address counts). */
  trustedProxies?: readonly string[];
  /** Addresses tracked at once before the idlest are forgotten; default 100000. */
  maxAddresses?: number;
}

/** `Retry-After` of `ip_rate_limited`, seconds (the spec's figure). */
export const IP_CEILING_RETRY_AFTER_S = 60;

const BUCKETS = 10;

interface Counter {
  /** Bucket index (floor(ms / bucketMs)) of `counts[i]`, per slot. */
  epochs: Float64Array;
  counts: Uint32Array;
}

/**
 * The address a request counts against: the socket's, unless it is a trusted proxy, in which case
 * the right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
 * @example clientAddress("10.0.0.2", "203.0.113.9, 10.0.0.2", ["10.0.0.2"]) // "203.0.113.9"
 */
export function clientAddress(socketIp: string, forwardedFor: string | null, trustedProxies: ReadonlySet<string>): string {
  if (!trustedProxies.has(socketIp) || !forwardedFor) return socketIp;
  const hops = forwardedFor
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedProxies.has(hops[i])) return hops[i];
  return hops[0] ?? socketIp;
}

/** A ceiling: the trusted proxies and the count; the shared one answers with a promise. */
export interface IpCeiling {
  trusted: ReadonlySet<string>;
  /** Count one request from `address` at `nowMs`; false when the address is over its ceiling (not counted then). */
  take(address: string, nowMs: number): boolean | Promise<boolean>;
}

/** Create the ceiling (one per app; in process). */
export function createIpCeiling(options: IpCeilingOptions = {}): IpCeiling & { take(address: string, nowMs: number): boolean } {
  const maxRequests = options.maxRequests ?? 6000;
  const bucketMs = ((options.windowS ?? 300) * 1000) / BUCKETS;
  const trusted = new Set(options.trustedProxies ?? []);
  const maxAddresses = options.maxAddresses ?? 100_000;
  const counters = new Map<string, Counter>();

  function windowCount(c: Counter, epoch: number): number {
    let n = 0;
    for (let i = 0; i < BUCKETS; i++) if (epoch - c.epochs[i] < BUCKETS) n += c.counts[i];
    return n;
  }

  return {
    trusted,
    /** Count one request from `address` at `nowMs`; false when the address is over its ceiling (not counted then). */
    take(address: string, nowMs: number): boolean {
      const epoch = Math.floor(nowMs / bucketMs);
      let c = counters.get(address);
      if (!c) {
        if (counters.size >= maxAddresses) {
          // Forget the oldest-inserted address (a Map iterates in insertion order).
          counters.delete(counters.keys().next().value as string);
        }
        c = { epochs: new Float64Array(BUCKETS).fill(-Infinity), counts: new Uint32Array(BUCKETS) };
        counters.set(address, c);
      }
      if (windowCount(c, epoch) >= maxRequests) return false;
      const slot = epoch % BUCKETS;
      if (c.epochs[slot] !== epoch) {
        c.epochs[slot] = epoch;
        c.counts[slot] = 0;
      }
      c.counts[slot]++;
      return true;
    },
  };
}

/**
 * The same ceiling shared by every instance on one Redis: the per-key limiter's sliding-log script
 * (`redis-rate-limiter.ts`) over the window, fed with the start of the request's 30-second bucket
 * instead of its instant. A log of bucket starts admits exactly when the ten buckets above do (its
 * window `(t - 300 s, t]` holds the current bucket and the nine before it), so the decisions are the
 * in-process ones. Memory: at most `maxRequests` entries per address, gone `windowS` after its last
 * request (docs/operations.md#per-ip-ceiling). Redis unreachable: the promise rejects with 503
 * `unavailable` (`sharedLimitsUnavailable`), rendered as such.
 * @example const ceiling = createRedisIpCeiling(redis, { maxRequests: 6000 }); await ceiling.take("203.0.113.9", Date.now()) // true
 */
export function createRedisIpCeiling(redis: Redis, options: IpCeilingOptions & { prefix?: string } = {}): IpCeiling {
  const maxRequests = options.maxRequests ?? 6000;
  const windowMs = (options.windowS ?? 300) * 1000;
  const bucketMs = windowMs / BUCKETS;
  const log = createRedisSlidingLog(redis, { prefix: options.prefix, keyspace: "ip:", windowMs });
  return {
    trusted: new Set(options.trustedProxies ?? []),
    take: async (address, nowMs) => (await log.run(address, maxRequests, Math.floor(nowMs / bucketMs) * bucketMs, true)).allowed,
  };
}
