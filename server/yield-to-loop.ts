// Lets the event loop run its other work (timers, sockets, other requests) between two pieces of
// CPU-bound work. Awaiting a resolved promise does not: it runs as a microtask, before anything
// else. A request's time limit is a timer, and the loop's longest task is what every other client
// waits for (docs/architecture.md#worker-pools).

/** Resolves after the loop's I/O and timers have had their turn (a `setImmediate`). */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A slice's default budget, ms: well under the event-loop delay targets (docs/architecture.md#worker-pools). */
const DEFAULT_SLICE_MS = 10;

/**
 * A loop's yield point that only yields once `budgetMs` of work has run since the last one: call
 * it between the items of a long synchronous run (decoding 146 stored summaries, building one
 * symbol's modules) so no stretch holds the loop much longer than the budget, without paying a
 * loop turn per item. Items queued at once with `setImmediate` would all run in one turn: the
 * caller awaits each yield before starting the next item.
 * @example const slice = timeSlicer(); for (const t of tickers) { work(t); await slice(); }
 */
export function timeSlicer(budgetMs = DEFAULT_SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await yieldToLoop();
    since = performance.now();
  };
}
