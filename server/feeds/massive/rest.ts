/**
 * Massive's REST calls the feed makes, on plain `fetch`: the option chain snapshot of one
 * underlying (every page, following `next_url`) and minute aggregates for a gap after a reconnect.
 * A 429 waits `Retry-After` (else exponential backoff with jitter) and retries; 401/403 are the
 * key's fault and are not retried. The key travels as the `apiKey` query parameter, as the vendor
 * documents, and is cut from every URL that reaches a log line or an error.
 * @see docs/data.md#massive-live-feed
 */
import { MassiveSnapshotPageSchema } from "../../../lib/market/massive/wire";

/** Options shared by the REST calls. */
export interface MassiveRestOptions {
  /** `https://api.massive.com` or the fake's loopback URL. */
  baseUrl: string;
  apiKey: string;
  /** Results per page (the vendor's maximum is 250). */
  pageLimit?: number;
  /** Attempts per request on 429, 5xx or a network error (default 5). */
  maxAttempts?: number;
  /** First backoff, ms (doubles, capped at 30 s); default 1000. */
  backoffMs?: number;
  /** Per-request time limit, ms (a slow feed); default 20000. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Told of every 429 and retry (counters, log). */
  onRetry?: (info: { status: number | null; attempt: number; waitMs: number }) => void;
  signal?: AbortSignal;
}

/** A REST failure: `status` is the HTTP status (null for a network error or time-out). */
export class MassiveHttpError extends Error {
  override readonly name = "MassiveHttpError";
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** `url` without its `apiKey` parameter (for logs and errors). */
function redactKey(url: string): string {
  return url.replace(/([?&]apiKey=)[^&]*/gi, "$1***");
}

function withKey(url: string, apiKey: string): string {
  const u = new URL(url);
  u.searchParams.set("apiKey", apiKey);
  return u.toString();
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    t.unref?.();
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), ms; null when absent or unreadable. */
function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const s = Number(header);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}

/** GET `url` as JSON, retrying 429, 5xx and network errors; throws `MassiveHttpError`. */
async function getJson(url: string, o: MassiveRestOptions): Promise<unknown> {
  const f = o.fetch ?? fetch;
  const attempts = o.maxAttempts ?? 5;
  const base = o.backoffMs ?? 1000;
  let last: MassiveHttpError | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let res: Response;
    try {
      const signals = [AbortSignal.timeout(o.timeoutMs ?? 20_000), ...(o.signal ? [o.signal] : [])];
      res = await f(withKey(url, o.apiKey), { signal: AbortSignal.any(signals), headers: { Accept: "application/json" } });
    } catch (error) {
      if (o.signal?.aborted) throw error;
      last = new MassiveHttpError(null, `${redactKey(url)}: ${(error as Error).name === "TimeoutError" ? "timed out" : (error as Error).message}`);
      const waitMs = Math.min(30_000, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      if (attempt < attempts) {
        o.onRetry?.({ status: null, attempt, waitMs });
        await sleep(waitMs, o.signal);
      }
      continue;
    }
    if (res.ok) {
      try {
        return await res.json();
      } catch {
        throw new MassiveHttpError(res.status, `${redactKey(url)}: the answer is not JSON`);
      }
    }
    const body = (await res.text().catch(() => "")).slice(0, 200);
    last = new MassiveHttpError(res.status, `${redactKey(url)}: HTTP ${res.status} ${body}`);
    if (res.status !== 429 && res.status < 500) throw last;
    const waitMs = retryAfterMs(res.headers.get("retry-after"), Date.now()) ?? Math.min(30_000, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
    if (attempt < attempts) {
      o.onRetry?.({ status: res.status, attempt, waitMs });
      await sleep(waitMs, o.signal);
    }
  }
  throw last ?? new MassiveHttpError(null, `${redactKey(url)}: no answer`);
}

/**
 * Every contract of `underlying`'s chain snapshot (`I:SPX` for an index), page after page.
 * @returns the concatenated `results` and the number of pages read
 */
export async function fetchChainSnapshot(underlying: string, o: MassiveRestOptions): Promise<{ results: unknown[]; pages: number }> {
  let url: string | undefined = `${o.baseUrl}/v3/snapshot/options/${encodeURIComponent(underlying)}?limit=${o.pageLimit ?? 250}`;
  const results: unknown[] = [];
  let pages = 0;
  while (url) {
    const page = MassiveSnapshotPageSchema.safeParse(await getJson(url, o));
    if (!page.success) throw new MassiveHttpError(200, `${redactKey(url)}: the page is not a snapshot page`);
    pages++;
    for (const r of page.data.results) results.push(r);
    url = page.data.next_url;
    // A vendor that loops its cursor must not keep us forever: 400 pages is 100,000 contracts.
    if (pages >= 400) break;
  }
  return { results, pages };
}

/** One minute aggregate of the REST answer (`t` start ms, `o h l c v`). */
export interface RestMinuteAgg {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/**
 * Minute aggregates of `ticker` (`SPY`, `I:SPX`) with a start in `[fromMs, toMs]`, to fill a gap
 * the stream left (`GET /v2/aggs/ticker/{ticker}/range/1/minute/{from}/{to}`).
 */
export async function fetchMinuteAggs(ticker: string, fromMs: number, toMs: number, o: MassiveRestOptions): Promise<RestMinuteAgg[]> {
  const url = `${o.baseUrl}/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/minute/${Math.floor(fromMs)}/${Math.floor(toMs)}?adjusted=true&sort=asc&limit=50000`;
  const body = (await getJson(url, o)) as { results?: unknown };
  const rows = Array.isArray(body?.results) ? body.results : [];
  const out: RestMinuteAgg[] = [];
  for (const r of rows as Array<Record<string, unknown>>) {
    const [t, op, h, l, c, v] = [r.t, r.o, r.h, r.l, r.c, r.v].map(Number);
    if ([t, op, h, l, c].every((x) => Number.isFinite(x) && x > 0) && v >= 0) out.push({ t, o: op, h, l, c, v });
  }
  return out;
}
