import { parseIsoDate } from "../time/_civil";
import { assertRoot, MAX_STRIKE_THOUSANDTHS } from "./_symbol-parts";
import { OptionSymbolError } from "./option-symbol-error";
import type { OptionContractId, OptionSymbolFormat } from "./types";

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** Strike x 1000 as an integer, refusing strikes that are not a multiple of 0.001 (to 1e-6 of a tick). */
function strikeThousandths(strike: unknown, root: string): number {
  if (typeof strike === "number" && Number.isFinite(strike)) {
    const scaled = strike * 1000;
    const n = Math.round(scaled);
    if (Math.abs(scaled - n) <= 1e-6 && n > 0 && n <= MAX_STRIKE_THOUSANDTHS) return n;
  }
  throw new OptionSymbolError("bad_strike", `${root}: strike ${String(strike)} must be a multiple of 0.001 in (0, 99999.999]`);
}

/**
 * Writes a contract as an OPRA symbol: `"url"` (`ROOT__YYMMDDC########`, canonical), `"padded"`
 * (OSI, root left-justified to 6 with spaces, exactly 21 characters) or `"compact"` (no separator).
 *
 * @throws OptionSymbolError `malformed` (root), `bad_date` (expiry outside 2000-2099 or not a date), `bad_right`, `bad_strike`
 * @example
 * formatOptionSymbol({ root: "SPXW", expiry: "2025-06-20", right: "C", strike: 5800 }, "padded"); // "SPXW  250620C05800000"
 * @see docs/methodology.md#option-symbols
 */
export function formatOptionSymbol(contract: OptionContractId, format: OptionSymbolFormat = "url"): string {
  const { root, expiry, right } = contract;
  assertRoot(root, String(root));
  let ymd: [number, number, number];
  try {
    ymd = parseIsoDate(expiry);
  } catch {
    throw new OptionSymbolError("bad_date", `${root}: expiry ${JSON.stringify(expiry)} is not a YYYY-MM-DD date`);
  }
  if (ymd[0] < 2000 || ymd[0] > 2099) {
    throw new OptionSymbolError("bad_date", `${root}: expiry ${expiry} must be in 2000-2099 to fit YYMMDD`);
  }
  if (right !== "C" && right !== "P") {
    throw new OptionSymbolError("bad_right", `${root}: right ${JSON.stringify(right)} must be C or P`);
  }
  const tail = `${pad(ymd[0] - 2000, 2)}${pad(ymd[1], 2)}${pad(ymd[2], 2)}${right}${pad(strikeThousandths(contract.strike, root), 8)}`;
  if (format === "url") return `${root}__${tail}`;
  if (format === "padded") return `${root.padEnd(6, " ")}${tail}`;
  if (format === "compact") return `${root}${tail}`;
  throw new OptionSymbolError("malformed", `unknown symbol format ${JSON.stringify(format)}`);
}
