/**
 * The wire format of Massive (formerly Polygon.io), the fields we read and nothing more: the option
 * chain snapshot (`GET /v3/snapshot/options/{underlyingAsset}`) and the WebSocket events (`T`
 * option trades, `Q` option quotes, `AM` minute aggregates, `status`). Field names as the vendor's
 * documentation and its client repositories' fixtures spell them (cited in docs/data.md#massive-live-feed).
 * Every field we do not need is ignored (`z.object` strips), so a new vendor field changes nothing.
 * @see docs/data.md#massive-live-feed
 */
import * as z from "zod";

const num = z.number().finite();

/** One contract of a chain snapshot page (`results[]`). Optional parts are absent on quiet contracts. */
const MassiveSnapshotContractSchema = z.object({
  details: z.object({
    contract_type: z.enum(["call", "put", "other"]),
    expiration_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    strike_price: num.positive(),
    /** `O:` + the OCC symbol without padding, e.g. `O:SPXW251219C06500000`. */
    ticker: z.string().startsWith("O:"),
    shares_per_contract: num.optional(),
  }),
  day: z.object({ close: num.optional(), volume: num.nonnegative().optional() }).partial().optional(),
  implied_volatility: num.optional(),
  open_interest: num.nonnegative().optional(),
  last_quote: z
    .object({
      bid: num.nonnegative().optional(),
      ask: num.nonnegative().optional(),
      /** Nanoseconds since the epoch. */
      last_updated: num.optional(),
    })
    .optional(),
  last_trade: z.object({ price: num.optional(), sip_timestamp: num.optional() }).partial().optional(),
  underlying_asset: z
    .object({
      price: num.positive().optional(),
      ticker: z.string().optional(),
      /** Nanoseconds since the epoch. */
      last_updated: num.optional(),
    })
    .optional(),
});
export type MassiveSnapshotContract = z.output<typeof MassiveSnapshotContractSchema>;

/** One page of the chain snapshot: `results[]`, and `next_url` while more pages follow. */
export const MassiveSnapshotPageSchema = z.object({
  status: z.string().optional(),
  request_id: z.string().optional(),
  results: z.array(z.unknown()).default([]),
  next_url: z.string().optional(),
});

/** `T`: one option trade. `t` Unix ms, `q` the sequence number (absent in older fixtures). */
const MassiveTradeSchema = z.object({
  ev: z.literal("T"),
  sym: z.string().startsWith("O:"),
  x: z.union([z.number(), z.string()]),
  p: num.nonnegative(),
  s: num.positive(),
  c: z.array(z.number()).optional(),
  t: num,
  q: num.optional(),
});
export type MassiveTrade = z.output<typeof MassiveTradeSchema>;

/** `Q`: one option NBBO update (`bp`/`ap` bid and ask prices, `bs`/`as` sizes, `t` Unix ms). */
const MassiveQuoteSchema = z.object({
  ev: z.literal("Q"),
  sym: z.string().startsWith("O:"),
  bp: num.nonnegative(),
  ap: num.nonnegative(),
  bs: num.optional(),
  as: num.optional(),
  t: num,
});
type MassiveQuote = z.output<typeof MassiveQuoteSchema>;

/** `AM`: one minute aggregate (`s`/`e` start and end, Unix ms; `o h l c v`). */
const MassiveMinuteAggSchema = z.object({
  ev: z.literal("AM"),
  sym: z.string(),
  o: num.positive(),
  h: num.positive(),
  l: num.positive(),
  c: num.positive(),
  v: num.nonnegative().default(0),
  s: num,
  e: num,
});
type MassiveMinuteAgg = z.output<typeof MassiveMinuteAggSchema>;

/** `status`: the server's answers to connecting, `auth` and `subscribe`. */
const MassiveStatusSchema = z.object({ ev: z.literal("status"), status: z.string(), message: z.string().optional() });
type MassiveStatus = z.output<typeof MassiveStatusSchema>;

/** One event of a WebSocket frame (a frame is a JSON array of events). */
export type MassiveEvent = MassiveTrade | MassiveQuote | MassiveMinuteAgg | MassiveStatus;

const BY_EV: Record<string, z.ZodType<MassiveEvent>> = {
  T: MassiveTradeSchema,
  Q: MassiveQuoteSchema,
  AM: MassiveMinuteAggSchema,
  status: MassiveStatusSchema,
};

/** A frame's events and what could not be read (counted and logged by the caller, never guessed). */
export interface ParsedFrame {
  events: MassiveEvent[];
  /** Events that were not JSON objects, had an unknown `ev`, or failed their schema. */
  malformed: number;
}

/**
 * The events of one WebSocket frame. A frame that is not a JSON array counts as one malformed
 * event; each element is checked on its own, so one bad event does not lose its neighbours.
 * @example parseFrame('[{"ev":"status","status":"auth_success"}]').events[0].ev // "status"
 */
export function parseFrame(text: string): ParsedFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { events: [], malformed: 1 };
  }
  const items = Array.isArray(raw) ? raw : [raw];
  const events: MassiveEvent[] = [];
  let malformed = 0;
  for (const item of items) {
    const ev = typeof item === "object" && item !== null ? (item as { ev?: unknown }).ev : undefined;
    const schema = typeof ev === "string" ? BY_EV[ev] : undefined;
    const parsed = schema?.safeParse(item);
    if (parsed?.success) events.push(parsed.data);
    else malformed++;
  }
  return { events, malformed };
}
