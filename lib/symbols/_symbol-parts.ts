import { OptionSymbolError } from "./option-symbol-error";

/** An option root: a letter then up to five letters or digits (OSI). */
const ROOT_PATTERN = /^[A-Z][A-Z0-9]{0,5}$/;

/** Largest strike the 8-digit field holds, in thousandths. */
export const MAX_STRIKE_THOUSANDTHS = 99_999_999;

export function assertRoot(root: unknown, symbol: string): asserts root is string {
  if (typeof root !== "string" || !ROOT_PATTERN.test(root)) {
    throw new OptionSymbolError(
      "malformed",
      `option root ${JSON.stringify(root)} in ${JSON.stringify(symbol)} must be 1-6 upper-case letters or digits starting with a letter`,
    );
  }
}
