import { assertRoot } from "./_symbol-parts";

/** Settlement style: `AM` settles on opening prints (09:30 ET), `PM` on the close. */
export type Settlement = "AM" | "PM";

/**
 * Expiration cycle a root is listed on: `daily` (every trading day), `weekly` (weeklies plus
 * monthlies), `monthly` (the standard monthly only).
 */
export type ExpirationCycle = "daily" | "weekly" | "monthly";

/** What a root means: its underlying, settlement style and cycle. */
export interface OptionRootInfo {
  root: string;
  /** Ticker of the underlying (an index for index options). */
  underlying: string;
  settlement: Settlement;
  cycle: ExpirationCycle;
  /** `european` for cash-settled index options, `american` for equities and ETFs. */
  exercise: "european" | "american";
  /** False when the root is not in the table and the equity default was applied. */
  known: boolean;
}

type Row = Omit<OptionRootInfo, "root" | "known">;

/**
 * Roots whose meaning differs from "an equity or ETF with the same ticker".
 * @see docs/methodology.md#option-roots
 */
const ROOTS: Readonly<Record<string, Row>> = Object.freeze({
  SPX: { underlying: "SPX", settlement: "AM", cycle: "monthly", exercise: "european" },
  SPXW: { underlying: "SPX", settlement: "PM", cycle: "daily", exercise: "european" },
  XSP: { underlying: "XSP", settlement: "PM", cycle: "daily", exercise: "european" },
  NDX: { underlying: "NDX", settlement: "AM", cycle: "monthly", exercise: "european" },
  NDXP: { underlying: "NDX", settlement: "PM", cycle: "daily", exercise: "european" },
  RUT: { underlying: "RUT", settlement: "AM", cycle: "monthly", exercise: "european" },
  RUTW: { underlying: "RUT", settlement: "PM", cycle: "daily", exercise: "european" },
  VIX: { underlying: "VIX", settlement: "AM", cycle: "monthly", exercise: "european" },
  VIXW: { underlying: "VIX", settlement: "AM", cycle: "weekly", exercise: "european" },
  SPY: { underlying: "SPY", settlement: "PM", cycle: "daily", exercise: "american" },
  QQQ: { underlying: "QQQ", settlement: "PM", cycle: "daily", exercise: "american" },
  IWM: { underlying: "IWM", settlement: "PM", cycle: "daily", exercise: "american" },
});

/** The roots with special meaning, in table order. */
export const KNOWN_OPTION_ROOTS: readonly string[] = Object.freeze(Object.keys(ROOTS));

/**
 * Settlement style, underlying and cycle of an option root. Roots not in the table are taken as
 * equities/ETFs: PM-settled, American, weekly cycle, underlying = the root.
 *
 * @throws OptionSymbolError `malformed` when the root is not 1-6 upper-case letters/digits
 * @example
 * optionRoot("SPXW"); // { root: "SPXW", underlying: "SPX", settlement: "PM", cycle: "daily", exercise: "european", known: true }
 * @see docs/methodology.md#option-roots
 */
export function optionRoot(root: string): OptionRootInfo {
  assertRoot(root, root);
  const row = Object.hasOwn(ROOTS, root) ? ROOTS[root] : undefined;
  if (row) return { root, ...row, known: true };
  return { root, underlying: root, settlement: "PM", cycle: "weekly", exercise: "american", known: false };
}
