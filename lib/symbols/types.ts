import type { IsoDate } from "../time/types";

/** Call or put, as in records. */
export type OptionRight = "C" | "P";

/** How a symbol is written: URL-safe `ROOT__YYMMDDC########`, OSI 21-char space-padded, or compact (no separator). */
export type OptionSymbolFormat = "url" | "padded" | "compact";

/** The identity of one option contract. */
export interface OptionContractId {
  /** Option root (OSI symbol root), 1-6 of A-Z/0-9 starting with a letter, e.g. `SPXW`. */
  root: string;
  /** Expiration date as written in the symbol (`YYMMDD` read as 20YY-MM-DD). */
  expiry: IsoDate;
  right: OptionRight;
  /** Strike in the underlying's price units; a multiple of 0.001 in (0, 99999.999]. */
  strike: number;
}
