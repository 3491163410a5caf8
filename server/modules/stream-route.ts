/**
 * What every stream route declares alike: a GET that opens an event stream (so never a tool),
 * answered with a raw body rather than the envelope, never cached.
 */
export const STREAM_ROUTE = { kind: "stream", method: "GET", envelope: false, cacheControl: "no-store" } as const;

/**
 * How every stream charges and checks its symbols: 1 credit per symbol asked to open (then 1 per
 * symbol per billing interval, by the hub), and those symbols against the plan.
 */
export const PER_SYMBOL_STREAM = {
  cost: (q: { symbols: string[] }) => q.symbols.length,
  symbolsOf: (q: { symbols: string[] }) => q.symbols,
} as const;
