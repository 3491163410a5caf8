/**
 * The access log of `429 ip_rate_limited` refusals (the per-IP ceiling), aggregated so a flood
 * cannot flood the disk: per source address, the first refusal of each window gets the usual
 * access line (`msg: "request"`, status 429, plus `code` and `ip`), and the refusals after it in
 * that window are counted into one `ip_refusals` summary line written when the window ends.
 * At most two lines per refused address per window, whatever the request rate.
 * @see docs/operations.md#per-ip-ceiling
 */
import { logLine } from "../log-line";
import type { AppServices } from "../services";

/** Window of the aggregation, ms (one summary per refused address per minute). */
export const REFUSAL_LOG_WINDOW_MS = 60_000;
/** Addresses counted in one window before it is closed early (bounds the memory of a spread flood). */
const REFUSAL_LOG_MAX_ADDRESSES = 10_000;

/** One refused request, as the access log shows it. */
interface CeilingRefusal {
  ip: string;
  method: string;
  path: string;
}

export interface CeilingRefusalLog {
  /** Record one refusal (writes the access line when it is the address's first in the window). */
  refused(refusal: CeilingRefusal): void;
  /** Write the pending summaries and start a new window (timer, shutdown, tests). */
  flush(): void;
}

/** The refusal log of one app, writing through `services.logger`. */
export function createCeilingRefusalLog(
  services: Pick<AppServices, "logger" | "wallNowMs">,
  options: { windowMs?: number; maxAddresses?: number } = {},
): CeilingRefusalLog {
  const windowMs = options.windowMs ?? REFUSAL_LOG_WINDOW_MS;
  const maxAddresses = options.maxAddresses ?? REFUSAL_LOG_MAX_ADDRESSES;
  /** Refusals per address in the current window (the first one was logged in full). */
  let counts = new Map<string, number>();
  let windowStartMs = Number.NEGATIVE_INFINITY;

  const flush = (): void => {
    const closing = counts;
    counts = new Map();
    const windowS = Math.round(windowMs / 1000);
    for (const [ip, refused] of closing) {
      // The first refusal already has its line; only a flood's remainder is summarised.
      if (refused > 1) logLine(services, { level: "warn", msg: "ip_refusals", code: "ip_rate_limited", ip, refused, windowS });
    }
  };

  return {
    refused({ ip, method, path }) {
      const nowMs = services.wallNowMs();
      if (nowMs - windowStartMs >= windowMs || (counts.size >= maxAddresses && !counts.has(ip))) {
        flush();
        windowStartMs = nowMs;
      }
      const seen = counts.get(ip) ?? 0;
      counts.set(ip, seen + 1);
      if (seen === 0) logLine(services, { msg: "request", method, path: path.slice(0, 200), status: 429, code: "ip_rate_limited", ip });
    },
    flush() {
      flush();
      windowStartMs = services.wallNowMs();
    },
  };
}
