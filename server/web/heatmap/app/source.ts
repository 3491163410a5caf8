// Where the page's boards and session history come from: the API (the served page) or the
// simulated market computed in the browser (the static build). The page only sees `DataSource`.
import type { MarketData } from "optionscope/market";
import type { KernelEngine } from "optionscope/kernels";
import { exposureGrid, heatmapFrame, type Metric } from "optionscope/positioning";
import { boardColumns, type BoardJson } from "../../../modules/positioning/board-columns";

/** One minute of the session history: per-strike net values on the frame's strikes. */
export interface SessionFrame {
  tMs: number;
  spot: number;
  strikes: number[];
  values: number[];
}

/** The board query options the session history is computed with (the page's window). */
interface HistoryOptions {
  metric: Metric;
  maxStrikes: number | "all";
  maxExpirations: number | "all";
}

export interface DataSource {
  /** "api" (served page) or "simulated" (static build: everything computed in the browser). */
  readonly kind: "api" | "simulated";
  /** Symbols to offer. */
  symbols(): Promise<string[]>;
  /** The board at or before `atMs` (null: now). */
  board(symbol: string, atMs: number | null): Promise<BoardJson>;
  /** One frame per board minute of `[fromMs, toMs]` (the API caps one call at 15 minutes). */
  history(symbol: string, fromMs: number, toMs: number, options: HistoryOptions): Promise<SessionFrame[]>;
  /** The market clock's now, ms. */
  nowMs(): Promise<number>;
}

/** An API error the page shows as is (status and the API's own code and message). */
export class PageApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the page tells the user for an API error (docs/api.md#heatmap-page). */
export function explainError(error: unknown): string {
  if (!(error instanceof PageApiError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 401) return "No API key: paste your key above (it stays in this browser).";
  if (error.status === 403 && error.code === "forbidden") return "This API key is not valid (unknown, revoked or expired).";
  if (error.status === 402) return `Out of credits (${error.code}): ${error.message}`;
  return `${error.message} (${error.status} ${error.code})`;
}

/** What the page's inline boot script started (server/web/heatmap/boot-script.ts). */
interface BootPrefetch {
  url: string;
  key: string;
  response: Promise<Response>;
}

/**
 * The boot script's board response when it is for exactly this URL and key, once (a second
 * request, or any other, goes to the network).
 */
function takePrefetch(url: string, key: string): Promise<Response> | null {
  const g = globalThis as { __heatmapPrefetch?: BootPrefetch };
  const pre = g.__heatmapPrefetch;
  if (!pre || pre.url !== url || pre.key !== key) return null;
  g.__heatmapPrefetch = undefined;
  return pre.response;
}

const RANGE_WINDOW_MS = 15 * 60_000;
const MINUTE_MS = 60_000;

/**
 * The API source: `Authorization: Bearer <key>` on every call; `onCredits` sees each
 * `X-Credits-Remaining`. `serverNowMs` is the market clock's now when the page was served.
 */
export function apiSource(base: string, serverNowMs: number, key: () => string, onCredits: (credits: string) => void): DataSource {
  async function get<T>(path: string, query: Record<string, string>): Promise<{ data: T; meta: Record<string, unknown> }> {
    const k = key();
    const url = `${base}${path}?${new URLSearchParams(query)}`;
    const res = await (takePrefetch(url, k) ?? fetch(url, { headers: k ? { Authorization: `Bearer ${k}` } : {} }));
    const credits = res.headers.get("X-Credits-Remaining");
    if (credits !== null) onCredits(credits);
    const body = await res.json().catch(() => null);
    if (!res.ok) {
      const err = body?.error ?? {};
      throw new PageApiError(res.status, String(err.code ?? "error"), String(err.message ?? `HTTP ${res.status}`));
    }
    return body;
  }
  return {
    kind: "api",
    async symbols() {
      const { data } = await get<{ symbols: { symbol: string }[] }>("/v1/symbols", {});
      return data.symbols.map((s) => s.symbol);
    },
    async board(symbol, atMs) {
      const q: Record<string, string> = { symbol };
      if (atMs !== null) q.at = new Date(atMs).toISOString();
      return (await get<BoardJson>("/v1/board", q)).data;
    },
    async history(symbol, fromMs, toMs, o) {
      const out: SessionFrame[] = [];
      for (let from = fromMs; from <= toMs; from += RANGE_WINDOW_MS + MINUTE_MS) {
        const to = Math.min(from + RANGE_WINDOW_MS, toMs);
        const q = {
          symbols: symbol,
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
          metric: o.metric,
          maxStrikes: String(o.maxStrikes),
          maxExpirations: String(o.maxExpirations),
        };
        type Range = { symbols: { axes: { strikes: number[] }[]; frames: { asOf: string; axis: number; spot: number; values: number[] }[] }[] };
        try {
          const { data } = await get<Range>("/v1/historical/range", q);
          const s = data.symbols[0];
          for (const f of s.frames) out.push({ tMs: Date.parse(f.asOf), spot: f.spot, strikes: s.axes[f.axis].strikes, values: f.values });
        } catch (error) {
          if (!(error instanceof PageApiError && error.code === "no_data")) throw error;
        }
      }
      return out;
    },
    async nowMs() {
      return serverNowMs;
    },
  };
}

/** The static build's source: the simulated market and the kernels, all in the browser. */
export function simulatedSource(market: MarketData, engine: KernelEngine): DataSource {
  async function chainAt(symbol: string, atMs: number) {
    const chain = await market.chain(symbol, atMs);
    if (!chain) throw new PageApiError(404, "no_data", `No board for ${symbol} at ${new Date(atMs).toISOString()}.`);
    return chain;
  }
  return {
    kind: "simulated",
    async symbols() {
      return (await market.universe()).flatMap((s) => s.optionRoots);
    },
    async board(symbol, atMs) {
      return boardColumns(await chainAt(symbol, atMs ?? market.clock.now()));
    },
    async history(symbol, fromMs, toMs, o) {
      const out: SessionFrame[] = [];
      for (let t = Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS; t <= toMs; t += MINUTE_MS) {
        const chain = await market.chain(symbol, t);
        if (!chain || chain.asOfMs !== t) continue;
        const frame = heatmapFrame(exposureGrid(chain, { ...o, layout: "net" }, engine), { layout: "net" });
        out.push({ tMs: t, spot: frame.spot, strikes: frame.strikes.map((s) => s.strike), values: frame.strikes.map((s) => s.value) });
      }
      return out;
    },
    async nowMs() {
      return market.clock.now();
    },
  };
}
