/**
 * zod schemas of the print records: option trade prints, off-exchange prints and earnings events.
 * Types are `z.output` of these schemas. @see docs/data.md#option-printscsv
 */
import * as z from "zod";
import { OFF_EXCHANGE_VENUES, OPTION_CONDITIONS, OPTION_EXCHANGES } from "./conditions";
import { isTsNs, tsNsToMs } from "./ts-ns";

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD");
const positive = z.number().positive().finite();
const nonNegative = z.number().nonnegative().finite();
const tsNs = z.string().refine(isTsNs, "expected nanoseconds since the epoch as a decimal string");

/** `tsMs` must be the millisecond floor of `tsNs`. */
const tsAgree = (r: { tsMs: number; tsNs: string }) => tsNsToMs(r.tsNs) === r.tsMs;

/**
 * One option trade print.
 * - `tsNs`: exact trade time, nanoseconds since the epoch as a decimal string; `tsMs` its floor.
 * - `symbol`: the URL-safe OPRA contract symbol (`formatOptionSymbol(c, "url")`).
 * - `price`, `nbboBid`, `nbboAsk`: USD per share of the contract (x100 per contract).
 * - `size`: contracts. `iv`: decimal implied vol at the print, null when unknown.
 */
export const OptionPrintSchema = z
  .object({
    id: z.string().min(1),
    tsMs: z.number().int().nonnegative(),
    tsNs,
    symbol: z.string().min(1),
    root: z.string().min(1),
    underlying: z.string().min(1),
    expiry: isoDate,
    strike: positive,
    right: z.enum(["C", "P"]),
    price: nonNegative,
    size: z.number().int().positive(),
    exchange: z.enum(OPTION_EXCHANGES),
    nbboBid: nonNegative,
    nbboAsk: nonNegative,
    conditions: z.array(z.enum(OPTION_CONDITIONS)).min(1),
    underlyingPrice: positive,
    iv: positive.nullable(),
  })
  .refine(tsAgree, { message: "tsMs must be the millisecond floor of tsNs", path: ["tsMs"] })
  .refine((r) => r.nbboBid <= r.nbboAsk, { message: "nbboBid must not exceed nbboAsk", path: ["nbboBid"] });

/** One option trade print. */
export type OptionPrint = z.output<typeof OptionPrintSchema>;

/**
 * One off-exchange (TRF, "dark pool") equity print: `price` USD per share, `size` shares.
 * Carries no side, NBBO or greeks, as the tape does not.
 */
export const OffExchangePrintSchema = z
  .object({
    id: z.string().min(1),
    tsMs: z.number().int().nonnegative(),
    tsNs,
    ticker: z.string().min(1),
    price: positive,
    size: z.number().int().positive(),
    venue: z.enum(OFF_EXCHANGE_VENUES),
  })
  .refine(tsAgree, { message: "tsMs must be the millisecond floor of tsNs", path: ["tsMs"] });

/** One off-exchange print. */
export type OffExchangePrint = z.output<typeof OffExchangePrintSchema>;

/**
 * One scheduled earnings report: the ET session `date` and whether it comes before the open
 * (`bmo`) or after the close (`amc`); `fiscalQuarter` like `"2024Q1"` (the calendar quarter
 * reported on, for the simulator).
 */
export const EarningsEventSchema = z.object({
  ticker: z.string().min(1),
  date: isoDate,
  timing: z.enum(["bmo", "amc"]),
  fiscalQuarter: z
    .string()
    .regex(/^\d{4}Q[1-4]$/, "expected YYYYQn")
    .nullable(),
});

/** One earnings event. */
export type EarningsEvent = z.output<typeof EarningsEventSchema>;
