/**
 * zod schemas of the records that cross the `MarketData` boundary (files, HTTP, tests).
 *
 * Types are `z.output<typeof X>`. Option prints and off-exchange prints live beside their
 * generators in `./prints/schemas`.
 * @see docs/methodology.md#records
 */
import * as z from "zod";

// --- shared scalars ---

/** ET session date `YYYY-MM-DD`. */
const IsoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");

/** Ticker or option root: upper-case letters, digits and dots, 1-10 characters. */
export const TickerSchema = z.string().regex(/^[A-Z][A-Z0-9.]{0,9}$/, "expected an upper-case ticker");

/** Kind of instrument. */
export const SymbolTypeSchema = z.enum(["index", "etf", "stock"]);

/** Plan tiers a symbol belongs to: the 63-symbol index/ETF set and the full set. */
export const TierSchema = z.enum(["index-etf", "full"]);

/** Option right as written in records. */
export const RightSchema = z.enum(["C", "P"]);

// --- symbol universe ---

/** One symbol of the universe. `underlying` is the price source (SPXW -> SPX). */
export const SymbolInfoSchema = z.object({
  ticker: TickerSchema,
  name: z.string().min(1),
  type: SymbolTypeSchema,
  /** Ticker whose price the options reference (itself for most symbols). */
  underlying: TickerSchema,
  /** GICS sector (ETFs: the sector they track, or "Multi-Sector"; indices: "Index"). */
  sector: z.string().min(1),
  /** GICS industry (or a short description of the fund/index). */
  industry: z.string().min(1),
  /** Option roots whose contracts `MarketData.chain(ticker)` returns. */
  optionRoots: z.array(TickerSchema).min(1),
  /** Continuous dividend yield per year, decimal. */
  dividendYield: z.number().min(0).max(0.25),
  tiers: z.array(TierSchema).min(1),
  /** True when the data behind this symbol is simulated. */
  simulated: z.boolean(),
});
export type SymbolInfo = z.output<typeof SymbolInfoSchema>;

// --- option chain ---

/** One contract row of a chain snapshot (the row view of `ChainSnapshot`). */
export const ChainContractRowSchema = z
  .object({
    root: TickerSchema,
    expiry: IsoDateSchema,
    strike: z.number().positive(),
    right: RightSchema,
    /** Open interest as of the session's start, contracts. */
    oi: z.number().int().nonnegative(),
    bid: z.number().nonnegative(),
    ask: z.number().nonnegative(),
    last: z.number().nonnegative(),
    /** Implied volatility, decimal. */
    iv: z.number().positive(),
    /** Contracts traded so far in the session. */
    volume: z.number().int().nonnegative(),
  })
  .refine((r) => r.bid <= r.ask, { message: "bid must not exceed ask", path: ["bid"] });
export type ChainContractRow = z.output<typeof ChainContractRowSchema>;

/** The scalar header of a chain snapshot (what one row-file needs besides its rows). */
export const ChainSnapshotHeaderSchema = z.object({
  symbol: TickerSchema,
  underlying: TickerSchema,
  asOfMs: z.number().int(),
  sessionDate: IsoDateSchema,
  spot: z.number().positive(),
  /** Continuous risk-free rate per year, decimal. */
  rate: z.number(),
  dividendYield: z.number().min(0),
  simulated: z.boolean(),
});
export type ChainSnapshotHeader = z.output<typeof ChainSnapshotHeaderSchema>;

// --- minute bars ---

/** One one-minute bar (the row view of `MinuteBars`). `t` is the bar's start, ms. */
export const MinuteBarRowSchema = z
  .object({
    t: z.number().int(),
    o: z.number().positive(),
    h: z.number().positive(),
    l: z.number().positive(),
    c: z.number().positive(),
    v: z.number().nonnegative(),
    /** Volume classified as buyer-initiated. */
    bv: z.number().nonnegative(),
    /** Volume classified as seller-initiated. */
    sv: z.number().nonnegative(),
    /** Volume left unclassified. */
    uv: z.number().nonnegative(),
  })
  .refine((b) => b.h >= Math.max(b.o, b.c) && b.l <= Math.min(b.o, b.c), {
    message: "high/low must bound open and close",
    path: ["h"],
  })
  .refine((b) => Math.abs(b.bv + b.sv + b.uv - b.v) <= 1e-6 * Math.max(1, b.v), {
    message: "bv + sv + uv must equal v",
    path: ["v"],
  });
export type MinuteBarRow = z.output<typeof MinuteBarRowSchema>;

// --- earnings ---

// The earnings record is owned by the prints engineer (it carries `fiscalQuarter` too); one schema.
