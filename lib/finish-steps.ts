// The one-call form of a computation written as steps (a generator that pauses between pieces so
// an event loop can run other work): run it to its end in one go.

/**
 * Run `steps` to completion and return its result.
 * @example finishSteps(surfaceSteps(chain, terms)).expiries
 */
export function finishSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
