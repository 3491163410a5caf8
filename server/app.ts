import { H3, type H3Event } from "h3";
import { jsKernels, loadKernelsSync, type KernelEngine } from "../lib/kernels";
import { systemClock } from "../lib/market/clock";
import { buildHostApp, HOST_STYLE, type RestHost } from "./http/host-app";
import { renderError } from "./http/render-error";
import { apiErrors } from "./errors";
import { createToolServer, isOAuthDiscoveryPath, type ToolServerOptions } from "./mcp/tool-server";
import { clientAddress, createIpCeiling, IP_CEILING_RETRY_AFTER_S } from "./limits/ip-ceiling";
import { createCeilingRefusalLog, REFUSAL_LOG_WINDOW_MS } from "./limits/ceiling-refusal-log";
import { ApiError } from "./errors";
import { ALWAYS_OPEN } from "./control/service-state";
import { builtinModules } from "./modules";
import { DEFAULT_COLD_ANSWER_MS } from "./modules/cold-answer";
import { CONSOLE_PREFIX } from "./console/console-app";
import type { MountedModule } from "./modules/define-module";
import { DEFAULT_STREAM_TIMINGS, type AppOptions, type AppServices, type FetchLike } from "./services";
import { guardMarket } from "./market-guard";
import { DEFAULT_STALE_AFTER_MS } from "../lib/market/freshness";
import { DEFAULT_CACHE_MB, mebibytes } from "./cache/cache-budget";

/** Path prefixes of the hosts on one port (DESIGN section 4). */
export const HOST_PREFIXES = { flowAlias: "/flow-alias", atlas: "/atlas", mcp: "/mcp" } as const;

/** What `createApp` returns: fetch-compatible, usable in-process and by `serve()`. */
export interface OptionscopeApp {
  /** The root h3 app (pass to h3's `serve`). */
  h3: H3;
  fetch(request: Request): Promise<Response>;
  /** In-process request: a path (`/v1/account`), a URL or a `Request`. */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  services: AppServices;
  /** Ask every module to wind down (streams get `reconnect`, workers stop); resolves when done or after `graceMs`. */
  shutdown(graceMs?: number): Promise<void>;
}

/** The WASM engine when it loads here, else the JS engine (same results; `name` says which). */
function defaultKernels(): KernelEngine {
  try {
    return loadKernelsSync();
  } catch {
    return jsKernels;
  }
}

function hostOnly(header: string | null): string {
  if (!header) return "";
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const i = h.indexOf(":");
  return i === -1 ? h : h.slice(0, i);
}

function underPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix + "/");
}

/**
 * The API as one fetch handler: one h3 app per host and a root that dispatches on the `Host`
 * header when host names are configured, else (and for unmatched hosts) on the path prefix.
 * A pure factory: no listening, no env reads.
 * @example
 * const app = createApp({ market, accounts, rateLimiter, concurrency }); // every built-in module
 * const res = await app.request("/v1/heatmap?symbols=SPXW", { headers: { Authorization: `Bearer ${key}` } });
 * @see docs/api.md#hosts
 */
export function createApp(
  options: AppOptions & {
    toolServer?: ToolServerOptions | false;
    /** The developer console (`createConsoleApp`), served under `/console` on {base_url}; absent -> 404 there. */
    console?: FetchLike;
  },
): OptionscopeApp {
  const modules: MountedModule[] = [];
  const services: AppServices = {
    // A failed market read is 503 `data_unavailable`, never a 500 (server/market-guard.ts).
    market: guardMarket(options.market, (error, method) =>
      (options.logger ?? (() => {}))({
        ts: new Date().toISOString(),
        level: "error",
        msg: "market_read_failed",
        method,
        error: String((error as Error)?.message ?? error).slice(0, 500),
      }),
    ),
    accounts: options.accounts,
    rateLimiter: options.rateLimiter,
    concurrency: options.concurrency,
    kernels: options.kernels ?? defaultKernels(),
    clock: options.clock ?? options.market.clock ?? systemClock,
    wallNowMs: options.wallNowMs ?? (() => Date.now()),
    logger: options.logger ?? (() => {}),
    requestTimeoutMs: options.requestTimeoutMs ?? 25_000,
    coldAnswerMs: options.coldAnswerMs ?? DEFAULT_COLD_ANSWER_MS,
    anonymousRequestsPerMinute: options.anonymousRequestsPerMinute ?? 120,
    publicBaseUrl: options.publicBaseUrl,
    streams: { ...DEFAULT_STREAM_TIMINGS, ...options.streams },
    streamTuning: {},
    resumeStore: options.resumeStore,
    control: options.control ?? ALWAYS_OPEN,
    dailyStore: options.dailyStore,
    cacheBytes: mebibytes(options.cacheMb ?? DEFAULT_CACHE_MB),
    computePool: options.computePool,
    metrics: options.metrics,
    serveMetrics: options.serveMetrics === true && options.metrics !== undefined,
    feedStatus: options.feedStatus,
    staleAfterMs: options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
    modules,
    routes: [],
  };
  // Each module's state sees the app-wide services (its routes list included) once all are mounted.
  const defs = options.modules ?? builtinModules;
  services.routes = defs.flatMap((d) => d.routes);
  for (const def of defs) modules.push({ def, state: def.createState?.(services) });
  const hosts = options.hosts ?? {};
  const byPrefix: Record<RestHost, H3> = {
    base: buildHostApp("base", "", services),
    flowAlias: buildHostApp("flowAlias", HOST_PREFIXES.flowAlias, services),
    atlas: buildHostApp("atlas", HOST_PREFIXES.atlas, services),
  };
  const byName = new Map<string, H3 | FetchLike | null>();
  if (hosts.base) byName.set(hosts.base.toLowerCase(), byPrefix.base);
  if (hosts.flowAlias) byName.set(hosts.flowAlias.toLowerCase(), buildHostApp("flowAlias", "", services));
  if (hosts.atlas) byName.set(hosts.atlas.toLowerCase(), buildHostApp("atlas", "", services));
  // The tool server (server/mcp) is built from this app's route table unless one is injected.
  const mcp: FetchLike | undefined = options.mcp ?? (options.toolServer === false ? undefined : createToolServer(services, options.toolServer).fetch);
  if (hosts.mcp) byName.set(hosts.mcp.toLowerCase(), mcp ?? null);

  const mcpOrNotFound = (request: Request): Response | Promise<Response> =>
    mcp ? mcp(request) : renderError(apiErrors.notFound(), { style: "lower", method: request.method });

  // The edge ceiling per source address, before any host: requests that arrived over a socket only.
  // A built ceiling (the shared one on Redis, whose answer is a promise) is used as given.
  const given = options.ipCeiling;
  const ceiling = given === false ? null : given && "take" in given ? given : createIpCeiling(given);
  // Refusals reach the access log aggregated per address and minute (docs/operations.md#per-ip-ceiling).
  const refusalLog = createCeilingRefusalLog(services);
  const refusalFlush = ceiling ? setInterval(() => refusalLog.flush(), REFUSAL_LOG_WINDOW_MS) : null;
  refusalFlush?.unref?.();
  const ceilingRefusal = (event: H3Event, ip: string): Response => {
    const request = event.req;
    refusalLog.refused({ ip, method: request.method, path: event.url.pathname });
    return renderError(
      new ApiError(429, "ip_rate_limited", "Too many requests from this address over the last 5 minutes (all keys combined); retry after Retry-After.", {
        headers: { "Retry-After": String(IP_CEILING_RETRY_AFTER_S) },
      }),
      { style: "lower", method: request.method },
    );
  };

  const dispatch = (event: H3Event): Response | Promise<Response> => {
    const socketIp = (event.req as Request & { ip?: string }).ip;
    if (!ceiling || socketIp === undefined) return route(event);
    const ip = clientAddress(socketIp, event.req.headers.get("x-forwarded-for"), ceiling.trusted);
    const within = ceiling.take(ip, services.wallNowMs());
    if (within === true) return route(event);
    if (within === false) return ceilingRefusal(event, ip);
    // The shared ceiling: Redis unreachable rejects with 503 `unavailable` (nothing charged).
    return within.then(
      (ok) => (ok ? route(event) : ceilingRefusal(event, ip)),
      (error: unknown) => renderError(error, { style: "lower", method: event.req.method }),
    );
  };

  const route = (event: H3Event): Response | Promise<Response> => {
    const request = event.req;
    const path = event.url.pathname;
    if (byName.size > 0) {
      const named = byName.get(hostOnly(request.headers.get("host")));
      // The developer console lives on {base_url} only (server/console).
      if (named === byPrefix.base && options.console && underPrefix(path, CONSOLE_PREFIX)) return options.console(request);
      if (named !== undefined) {
        if (named === null) return mcpOrNotFound(request);
        return typeof named === "function" ? named(request) : named.fetch(request);
      }
    }
    if (underPrefix(path, HOST_PREFIXES.mcp)) return mcpOrNotFound(request);
    if (options.console && underPrefix(path, CONSOLE_PREFIX)) return options.console(request);
    // OAuth discovery documents live at the origin root (RFC 8414, RFC 9728), not under /mcp.
    if (mcp && isOAuthDiscoveryPath(path)) return mcp(request);
    if (underPrefix(path, HOST_PREFIXES.flowAlias)) return byPrefix.flowAlias.fetch(request);
    if (underPrefix(path, HOST_PREFIXES.atlas)) return byPrefix.atlas.fetch(request);
    return byPrefix.base.fetch(request);
  };

  const root = new H3({
    silent: true,
    allowMalformedURL: true,
    onError: (error, event) => renderError(error, { style: HOST_STYLE.base, method: event.req.method }),
  });
  root.use((event) => dispatch(event));

  return {
    h3: root,
    services,
    fetch: (request) => Promise.resolve(root.fetch(request)),
    request: (input, init) => Promise.resolve(root.request(input, init)),
    async shutdown(graceMs = 2000) {
      if (refusalFlush) clearInterval(refusalFlush);
      refusalLog.flush();
      await Promise.all(modules.map(async (m) => m.def.shutdown?.(m.state, graceMs)));
    },
  };
}
