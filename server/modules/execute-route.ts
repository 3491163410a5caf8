/**
 * The one place a route runs, whatever the transport: query validation, the plan's per-call
 * symbol ceiling, entitlement, in-flight slots, the debit, the handler under the time limit and
 * the caller's signal, and the refund of anything charged when it fails. HTTP (`server/http/
 * route-handler.ts`) and MCP (`server/mcp/tool-server.ts`) are thin adapters over it: they
 * authenticate and rate-limit, then render what this returns or throws.
 * See docs/architecture.md#server-pipeline.
 */
import type { Principal } from "../accounts/types";
import { ApiError, apiErrors, toApiError } from "../errors";
import type { CallerSignal } from "../http/caller-signal";
import { validateParams } from "../http/validate";
import { logLine } from "../log-line";
import type { AppServices } from "../services";
import { coldAnswerBudgetMs, stillComputing } from "./cold-answer";
import { routeCost, type AnyRoute, type RouteResult } from "./define-route";

/** One call of one route by an authenticated caller (or none, on `auth: "none"` routes). */
export interface RouteCall {
  route: AnyRoute;
  /** The state of the route's module. */
  state: unknown;
  principal: Principal | null;
  /**
   * The caller's rate-limit answer when it is still coming (HTTP starts the check and goes on:
   * docs/architecture.md#admission-overlap). Nothing with an effect (an in-flight slot, the
   * debit, the handler) happens before it resolves, and its refusal wins over any other error,
   * as when the check came first. Absent: the caller was admitted already.
   */
  admitted?: Promise<void>;
  /** Raw query strings (URL search parameters or tool arguments, stringified). */
  query: URLSearchParams | Record<string, string>;
  /** Raw path parameters (percent-decoded here, before validation). */
  params?: Record<string, string>;
  /** Also the ledger reference of any debit. */
  requestId: string;
  /** Aborted when the caller goes away (client disconnect, tool call cancelled). */
  signal?: CallerSignal;
  /** The HTTP request, when the call came over HTTP (stream routes need it). */
  request?: Request | null;
  /**
   * Lets the transport deliver pending events (a disconnect that arrived while a synchronous
   * handler held the event loop) before the call is settled as delivered and charged.
   */
  settle?: () => Promise<void>;
}

/** A successful call: the handler's result and the balance after the debit (null on free routes). */
export interface RouteExecution {
  result: RouteResult;
  creditsRemaining: number | null;
  /** Credits charged and kept. */
  credits: number;
}

/**
 * A charged handler that ran at least this long (ms) lets the transport deliver pending socket
 * events before the answer is settled, so a disconnect during it is seen and refunded.
 */
const SETTLE_AFTER_MS = 2;

/** 499 `client_closed`: the caller went away; what it was charged is refunded. */
function clientClosed(): ApiError {
  return new ApiError(499, "client_closed", "Client closed the request.");
}

/** Races the handler against the time limit and the caller's signal. */
async function runWithLimits(
  run: (signal: AbortSignal) => RouteResult | Promise<RouteResult>,
  callerSignal: CallerSignal | undefined,
  limitMs: number,
  cold: { budgetMs: number; error: () => Error } | null = null,
): Promise<RouteResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = apiErrors.gatewayTimeout(limitMs);
      controller.abort(err);
      reject(err);
    }, limitMs);
  });
  let onCallerAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onCallerAbort = () => {
      const err = clientClosed();
      controller.abort(err);
      reject(err);
    };
  });
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  timeout.catch(() => {});
  aborted.catch(() => {});
  // Past the cold budget the caller is answered 503 while the work goes on (its rows are kept for
  // the retry), still bounded by the time limit's abort.
  let coldTimer: ReturnType<typeof setTimeout> | undefined;
  let answeredCold = false;
  const coldAnswer = cold
    ? new Promise<never>((_, reject) => {
        coldTimer = setTimeout(() => {
          answeredCold = true;
          reject(cold.error());
        }, cold.budgetMs);
      })
    : null;
  coldAnswer?.catch(() => {});
  const work = Promise.resolve().then(() => run(controller.signal));
  work.catch(() => {});
  try {
    return await Promise.race([work, timeout, aborted, ...(coldAnswer ? [coldAnswer] : [])]);
  } finally {
    clearTimeout(coldTimer);
    if (answeredCold) void work.finally(() => clearTimeout(timer)).catch(() => {});
    else clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }
}

/**
 * 503 `api_paused` (maintenance) or `warming_up` (data still loading), each with `Retry-After`
 * and `retry_after`, unless the service is open.
 * @see docs/operations.md#maintenance-and-warm-up
 */
function assertServing(services: AppServices): void {
  const s = services.control.state();
  if (s.mode === "open") return;
  const retry = { headers: { "Retry-After": String(s.retryAfterS) }, details: { retry_after: s.retryAfterS } };
  if (s.mode === "paused") throw new ApiError(503, "api_paused", s.message, retry);
  const progress = s.progress ? ` (${s.progress.done} of ${s.progress.total} files)` : "";
  throw new ApiError(503, "warming_up", `Market data is loading after a start${progress}; retry after Retry-After.`, {
    ...retry,
    details: { ...retry.details, ...(s.progress ? { progress: s.progress } : {}) },
  });
}

/**
 * Path parameters percent-decoded, once for every route (the router hands them over raw, so the
 * padded contract form arrives as `XOM%20%20%20...`; tool arguments are decoded alike). A value
 * that is not valid percent-encoding stays as written: HTTP answers a malformed path 400 before any
 * route runs, and a tool argument may hold a bare `%`.
 */
export function decodedPathParams(raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!value.includes("%")) {
      out[name] = value;
      continue;
    }
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

/** The balance, or null when the store cannot be read (the figure is left out rather than guessed). */
async function balanceOrNull(services: AppServices, accountId: string): Promise<number | null> {
  try {
    return await services.accounts.balance(accountId);
  } catch {
    return null;
  }
}

/**
 * Run one route call. Throws the one `ApiError` (any other failure becomes one through the error
 * table), after refunding what the call was charged; on a chargeable route the error carries the
 * balance after the refund in `creditsRemaining`.
 * @example const { result, creditsRemaining } = await executeRoute(services, { route, state, principal, query: { symbols: "SPY" }, requestId });
 */
export async function executeRoute(services: AppServices, call: RouteCall): Promise<RouteExecution> {
  const { route, principal } = call;
  const ref = { requestId: call.requestId, route: route.path };
  let charged = 0;
  let creditsRemaining: number | null = null;
  let release: (() => void) | null = null;
  // Known before validation, so a 400 on a chargeable route also states the balance.
  const chargeable = principal !== null && route.cost !== 0;
  try {
    // Maintenance and warm-up stop every data route before anything is charged; the account view
    // and the API descriptions (modules `account` and `meta`) keep answering.
    if (route.module !== "meta" && route.module !== "account") assertServing(services);
    const query = validateParams(route.query, call.query, route.unknownQuery ?? "ignore");
    const params = route.params ? validateParams(route.params, decodedPathParams(call.params ?? {})) : {};
    const nowMs = services.clock.now();
    route.check?.(query, { nowMs });
    const cost = routeCost(route, query);
    const symbols = route.symbolsOf?.(query, params);
    if (principal) {
      if (route.symbolsLimit && symbols) {
        const max = route.symbolsLimit.max(principal);
        if (symbols.length > max) {
          throw apiErrors.invalidParameter(route.symbolsLimit.param, `at most ${max} symbols per call on this plan (got ${symbols.length}).`);
        }
      }
      await services.accounts.assertEntitled(principal, route.entitlement, symbols);
      if (route.concurrency) {
        await call.admitted;
        const max = route.concurrency.max(principal);
        release = await services.concurrency.tryAcquire(principal.accountId, route.concurrency.kind, max);
        if (!release) {
          const { kind, retryAfterS, code } = route.concurrency;
          throw code === "too_many_concurrent_queries" ? apiErrors.tooManyConcurrentQueries(max, retryAfterS) : apiErrors.tooManyConcurrent(kind, max, retryAfterS);
        }
        // A caller that goes away frees its slot at once, even if the handler runs on.
        const r = release;
        call.signal?.addEventListener("abort", () => r(), { once: true });
      }
      if (cost > 0) {
        // Group-committed: resolves only after the commit (fsync) that holds this debit.
        const a = services.accounts;
        // Queued now, written only once the rate limit admits the call (`call.admitted`).
        if (!a.debitAsync) await call.admitted;
        const r = a.debitAsync ? await a.debitAsync(principal, cost, ref, call.admitted) : await a.debit(principal, cost, ref);
        charged = cost;
        creditsRemaining = r.balance;
      }
    }
    await call.admitted;
    const coldBudget = coldAnswerBudgetMs(services, route);
    const handlerStartMs = performance.now();
    const result = await runWithLimits(
      (signal) => route.handler({ query, params, principal, requestId: call.requestId, signal, nowMs, services, state: call.state, request: call.request ?? null }),
      call.signal,
      Math.min(services.requestTimeoutMs, route.timeoutMs ?? Number.POSITIVE_INFINITY),
      coldBudget === null ? null : { budgetMs: coldBudget, error: () => stillComputing(services) },
    );
    // A synchronous handler cannot be interrupted: a caller gone meanwhile is not charged either.
    // Only a handler that held the loop long enough for a disconnect to hide behind it pays the
    // two extra event-loop turns (a cached answer does not).
    const heldMs = performance.now() - handlerStartMs;
    if (charged > 0 && call.settle && !result.response && heldMs >= SETTLE_AFTER_MS) await call.settle();
    if (call.signal?.aborted) throw clientClosed();
    return { result, creditsRemaining, credits: charged };
  } catch (thrown) {
    // A refused rate limit answers first, whatever else failed meanwhile, and as it did when the
    // check came first: nothing was charged (the debit waits for the admission) and no balance is read.
    const refusal =
      charged === 0 && call.admitted
        ? await call.admitted.then(
            () => null,
            (e: unknown) => e,
          )
        : null;
    if (refusal !== null) throw toApiError(refusal);
    const error = toApiError(thrown);
    if ((error.status === 500 || error.code === "store_unavailable") && !(thrown instanceof ApiError)) {
      // A raw store failure is answered 503 but still logged: the operator needs to see the outage.
      const msg = error.status === 500 ? "unhandled" : "store_unavailable";
      logLine(services, { level: "error", msg, requestId: call.requestId, error: String((thrown as Error)?.message ?? thrown).slice(0, 500) });
    }
    if (principal && charged > 0) {
      try {
        const a = services.accounts;
        const r = a.refundAsync ? await a.refundAsync(principal, charged, ref) : await a.refund(principal, charged, ref);
        creditsRemaining = r.balance;
      } catch {
        // The refund is retried by nobody: log it loudly; the ledger keeps the debit.
        logLine(services, { level: "error", msg: "refund_failed", requestId: call.requestId });
      }
    } else if (chargeable && creditsRemaining === null) {
      creditsRemaining = await balanceOrNull(services, principal.accountId);
    }
    error.creditsRemaining = chargeable ? creditsRemaining : null;
    throw error;
  } finally {
    release?.();
  }
}
