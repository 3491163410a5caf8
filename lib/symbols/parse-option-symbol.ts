import { daysInMonth, formatCivil, readDigits } from "../time/_civil";
import { assertRoot } from "./_symbol-parts";
import { OptionSymbolError } from "./option-symbol-error";
import type { OptionContractId, OptionSymbolFormat } from "./types";

/** Length of the part after the root: YYMMDD + C/P + 8-digit strike. */
const TAIL = 15;

function splitSymbol(symbol: string): [string, string, OptionSymbolFormat] {
  const sep = symbol.indexOf("__");
  if (sep >= 0) return [symbol.slice(0, sep), symbol.slice(sep + 2), "url"];
  if (symbol.includes(" ")) {
    if (symbol.length !== 21) {
      throw new OptionSymbolError("malformed", `padded symbol ${JSON.stringify(symbol)} must be exactly 21 characters, got ${symbol.length}`);
    }
    const root = symbol.slice(0, 6).replace(/ +$/, "");
    return [root, symbol.slice(6), "padded"];
  }
  return [symbol.slice(0, Math.max(0, symbol.length - TAIL)), symbol.slice(-TAIL), "compact"];
}

/**
 * Parses an OPRA option symbol in the URL-safe form (`SPXW__250620C05800000`), the 21-character
 * OSI form (`SPXW  250620C05800000`) or the compact form (`SPXW250620C05800000`). Upper case only.
 *
 * @returns the contract; `format` says which form was read
 * @throws OptionSymbolError `malformed`, `bad_date`, `bad_right`, `bad_strike`
 * @example
 * parseOptionSymbol("SPXW__250620C05800000"); // { root: "SPXW", expiry: "2025-06-20", right: "C", strike: 5800, format: "url" }
 * @see docs/methodology.md#option-symbols
 */
export function parseOptionSymbol(symbol: string): OptionContractId & { format: OptionSymbolFormat } {
  if (typeof symbol !== "string") throw new OptionSymbolError("malformed", `option symbol must be a string, got ${typeof symbol}`);
  const [root, tail, format] = splitSymbol(symbol);
  assertRoot(root, symbol);
  if (tail.length !== TAIL) {
    throw new OptionSymbolError(
      "malformed",
      `${JSON.stringify(symbol)}: after the root expected YYMMDD, C or P and an 8-digit strike (15 characters), got ${JSON.stringify(tail)}`,
    );
  }
  const yy = readDigits(tail, 0, 2);
  const mm = readDigits(tail, 2, 2);
  const dd = readDigits(tail, 4, 2);
  if (yy < 0 || mm < 1 || mm > 12 || dd < 1 || dd > daysInMonth(2000 + yy, mm)) {
    throw new OptionSymbolError("bad_date", `${JSON.stringify(symbol)}: expiry ${JSON.stringify(tail.slice(0, 6))} is not a YYMMDD date`);
  }
  const right = tail[6];
  if (right !== "C" && right !== "P") {
    throw new OptionSymbolError("bad_right", `${JSON.stringify(symbol)}: right ${JSON.stringify(right)} must be C or P`);
  }
  const thousandths = readDigits(tail, 7, 8);
  if (thousandths <= 0) {
    throw new OptionSymbolError("bad_strike", `${JSON.stringify(symbol)}: strike ${JSON.stringify(tail.slice(7))} must be 8 digits of strike x 1000, above zero`);
  }
  return { root, expiry: formatCivil(2000 + yy, mm, dd), right, strike: thousandths / 1000, format };
}
