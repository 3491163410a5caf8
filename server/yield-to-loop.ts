// Lets the event loop run its other work (timers, sockets, other requests) between two pieces of
// CPU-bound work. Awaiting a resolved promise does not: it runs as a microtask, before anything
// else. A request's time limit is a timer, and the loop's longest task is what every other client
// waits for (docs/architecture.md#worker-pools).

/**
 * Resumed work one check phase of the loop may run before the rest waits a turn, ms. Node runs
 * every immediate queued before its check phase in that phase: sixteen requests that each yield
 * would otherwise all resume back to back, and timers and sockets wait for all of them.
 */
const TURN_BUDGET_MS = 15;
/** When the current check phase resumed its first yielded piece (-1: none yet). */
let turnStartMs = -1;

/**
 * Resolves after the loop's I/O and timers have had their turn (a `setImmediate`), in a check
 * phase that has not yet resumed `TURN_BUDGET_MS` of yielded work; else it waits another turn.
 */
export async function yieldToLoop(): Promise<void> {
  for (;;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const now = performance.now();
    if (turnStartMs < 0) {
      turnStartMs = now;
      // Queued now, it runs first in the next check phase, before the pieces re-queued after it.
      setImmediate(() => {
        turnStartMs = -1;
      });
      return;
    }
    if (now - turnStartMs < TURN_BUDGET_MS) return;
  }
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

/**
 * Run a computation written as steps (a library generator that pauses between pieces, such as
 * `surfaceSteps`) on the loop, yielding once a slice's budget has run: the loop's other work
 * goes between the pieces. Returns the computation's result.
 * @example const s = await runStepsOnLoop(surfaceSteps(board, terms));
 */
export async function runStepsOnLoop<T>(steps: Generator<void, T, void>): Promise<T> {
  const slice = timeSlicer();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await slice();
  }
}
