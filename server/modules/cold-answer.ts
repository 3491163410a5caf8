/**
 * The first answer of a cold flow or volatility call, honest and in bounded time: with a compute
 * pool, a call whose rows are still being computed in the workers after `coldAnswerMs` answers
 * `503 warming_up` with `Retry-After` (refunded), and the rows go on computing, so a retry is
 * answered from them. See docs/operations.md#compute-workers.
 */
import type { AnyRoute } from "./define-route";
import { ApiError } from "../errors";
import type { AppServices } from "../services";

/** Default `coldAnswerMs`: under the 10 s a first answer may take on a quiet machine. */
export const DEFAULT_COLD_ANSWER_MS = 8000;
/** `Retry-After` of a cold answer, seconds. */
const COLD_RETRY_AFTER_S = 10;

/** The modules whose cold rows run in the compute pool. */
const POOLED_MODULES: ReadonlySet<string> = new Set(["flow", "volatility"]);

/** The cold-answer budget of a call of `route`, ms, or null when none applies (no pool, another module). */
export function coldAnswerBudgetMs(services: AppServices, route: AnyRoute): number | null {
  return services.computePool && POOLED_MODULES.has(route.module) && services.coldAnswerMs < services.requestTimeoutMs ? services.coldAnswerMs : null;
}

/** The 503 a call still computing gets, with what the workers are busy with. */
export function stillComputing(services: AppServices): ApiError {
  const s = services.computePool?.stats();
  const busy = s ? ` (${s.running} running and ${s.queued} queued in ${s.workers} compute worker${s.workers === 1 ? "" : "s"})` : "";
  return new ApiError(503, "warming_up", `This call's data is still being computed off the request loop${busy}; it goes on computing, so retry after Retry-After.`, {
    headers: { "Retry-After": String(COLD_RETRY_AFTER_S) },
    details: { retry_after: COLD_RETRY_AFTER_S },
  });
}
