/**
 * The reference's legacy single-symbol wire format of `/v1/stream` (`symbol=`, or `format=v1`):
 * the v2 connection's frames mapped one by one to the v1 events, so both formats share the hub,
 * billing, limits and lifecycle. See docs/api.md#v1-stream-format.
 */
import type { z } from "zod";
import { type HeatmapStreamQuerySchema, V1_STREAM_MAX_STRIKES } from "../../../lib/api/positioning";
import { ApiError, apiErrors } from "../../errors";
import type { OutFrame, SharedEvent, StreamSink } from "../../streams/sink";
import type { StreamQuery } from "./stream-query";

type HeatmapStreamQuery = z.output<typeof HeatmapStreamQuerySchema>;

/** The reference's cap of open v1 streams per account ("v1 also keeps its 5-streams cap"). */
const V1_STREAMS_PER_ACCOUNT = 5;
/** Concurrency slot kind of the open v1 streams. */
const SLOT_V1_STREAMS = "stream-v1";
/** Seconds between the v1 format's `: keepalive` comments (the reference's 30 s). */
const V1_KEEPALIVE_S = 30;

/** The wire format a query asks for: v2 by default with `symbols=`, v1 by default with `symbol=`. */
export function streamFormatOf(q: Pick<HeatmapStreamQuery, "format" | "symbol">): "v1" | "v2" {
  return q.format ?? (q.symbol ? "v1" : "v2");
}

/** The symbols a `/v1/stream` query streams, whichever parameter named them. */
export function streamSymbolsOf(q: Pick<HeatmapStreamQuery, "symbols" | "symbol">): string[] {
  return q.symbols ?? q.symbol ?? [];
}

/**
 * The cross-parameter rules of `/v1/stream` (400s naming the parameter): one of `symbols` and
 * `symbol`; v1 streams one symbol, at most 400 strikes, and takes none of the v2-only options.
 */
export function checkStreamFormat(q: HeatmapStreamQuery): void {
  if (q.symbols && q.symbol) throw apiErrors.invalidParameter("symbol", "send `symbol` or `symbols`, not both.");
  if (!q.symbols && !q.symbol) throw apiErrors.missingParameter("symbols");
  if (streamFormatOf(q) === "v2") return;
  if (streamSymbolsOf(q).length > 1) throw apiErrors.invalidParameter("format", "v1 streams a single symbol; use format=v2 for several.");
  if (q.expirations !== undefined) throw apiErrors.invalidParameter("expirations", "not accepted by the v1 format (v2 only).");
  if (q.maxStrikes === "all" || q.maxStrikes > V1_STREAM_MAX_STRIKES) {
    throw apiErrors.invalidParameter("maxStrikes", `the v1 format takes an integer from 1 to ${V1_STREAM_MAX_STRIKES} (no all).`);
  }
  if (q.includeEmpty) throw apiErrors.invalidParameter("includeEmpty", "not supported by the v1 format (v2 only).");
  if (q.layout === "matrix") throw apiErrors.invalidParameter("layout", "matrix is v2 only; the v1 format takes net.");
}

/** The v2 stream query of a `/v1/stream` query (the symbols in `symbols`, the legacy fields dropped). */
export function v2QueryOf(q: HeatmapStreamQuery): StreamQuery {
  const { symbol: _s, format: _f, ...rest } = q;
  return { ...rest, symbols: streamSymbolsOf(q) };
}

/**
 * 429 `stream_limit_reached` once the account has `V1_STREAMS_PER_ACCOUNT` v1 streams open.
 * Returns the slot's release (run when the stream ends).
 */
export async function acquireV1Slot(
  concurrency: { tryAcquire(a: string, k: string, max: number): (() => void) | null | Promise<(() => void) | null> },
  accountId: string,
  retryAfterS: number,
): Promise<() => void> {
  const release = await concurrency.tryAcquire(accountId, SLOT_V1_STREAMS, V1_STREAMS_PER_ACCOUNT);
  if (release) return release;
  throw new ApiError(429, "stream_limit_reached", `This account may keep at most ${V1_STREAMS_PER_ACCOUNT} v1 streams (symbol=) open at once.`, {
    headers: { "Retry-After": String(retryAfterS) },
    details: { retry_after: retryAfterS },
  });
}

/**
 * A key in PascalCase: `asOf` -> `AsOf`, `nodeType` -> `NodeType`.
 * @example pascalKey("previousClose") // "PreviousClose"
 */
function pascalKey(k: string): string {
  return k.length === 0 ? k : k[0].toUpperCase() + k.slice(1);
}

/**
 * A JSON value with every object key in PascalCase (the reference's "internal PascalCase board
 * shape"); values, arrays and nesting unchanged.
 * @example pascalCased({ asOf: "t", strikes: [{ strike: 1, nodeType: null }] }) // { AsOf: "t", Strikes: [{ Strike: 1, NodeType: null }] }
 */
function pascalCased(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(pascalCased);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[pascalKey(k)] = pascalCased(x);
  return out;
}

/** Per shared v2 board or velocity event, its v1 data text: made once for every v1 subscriber. */
const V1_DATA = new WeakMap<SharedEvent, string>();

function v1DataOf(shared: SharedEvent): string {
  let data = V1_DATA.get(shared);
  if (data === undefined) {
    data = JSON.stringify(pascalCased(JSON.parse(shared.data)));
    V1_DATA.set(shared, data);
  }
  return data;
}

/**
 * A sink that writes the v1 format onto `inner` (the SSE sink): `connected` becomes
 * `{symbol, creditsRemaining, attribution}`, the first `snapshot` `initial_data` and later ones
 * `snapshot_update`, `velocity` `velocity_update` (board and velocity in PascalCase), `credits`,
 * `closed` and `reconnect` pass as they are; no event carries an `id:` (v1 does not resume);
 * `symbol_unavailable` is not part of v1 and is not sent; one `: keepalive` comment per
 * `V1_KEEPALIVE_S` seconds of the connection's pings (`keepaliveS` apart).
 */
export function v1Sink(inner: StreamSink, symbol: string, keepaliveS: number): StreamSink {
  const pingsPerKeepalive = Math.max(1, Math.round(V1_KEEPALIVE_S / keepaliveS));
  let pings = 0;
  let sentBoard = false;
  const map = (f: OutFrame): OutFrame | null => {
    if (f.ping) return ++pings % pingsPerKeepalive === 0 ? { ping: true, comment: "keepalive" } : null;
    const retry = f.retry === undefined ? {} : { retry: f.retry };
    if (f.shared) {
      if (f.shared.event === "velocity") return { event: "velocity_update", data: v1DataOf(f.shared) };
      if (f.shared.event !== "snapshot") return null;
      const event = sentBoard ? "snapshot_update" : "initial_data";
      sentBoard = true;
      return { event, data: v1DataOf(f.shared) };
    }
    switch (f.event) {
      case "connected": {
        const c = JSON.parse(f.data ?? "{}") as { creditsRemaining?: number | null; attribution?: unknown };
        return { ...retry, event: "connected", data: JSON.stringify({ symbol, creditsRemaining: c.creditsRemaining ?? null, attribution: c.attribution }) };
      }
      case "credits":
      case "closed":
      case "reconnect":
        return { ...retry, event: f.event, data: f.data };
      default:
        // symbol_unavailable, resumed, lagged: v2 only.
        return null;
    }
  };
  return {
    write(frame) {
      const out = map(frame);
      return out ? inner.write(out) : undefined;
    },
    end: (code) => inner.end(code),
    abort: () => inner.abort(),
  };
}
