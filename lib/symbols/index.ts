// Types and errors
export type { OptionContractId, OptionRight, OptionSymbolFormat } from "./types";
export { OptionSymbolError } from "./option-symbol-error";
export type { OptionSymbolErrorCode } from "./option-symbol-error";

// Symbols
export { parseOptionSymbol } from "./parse-option-symbol";
export { formatOptionSymbol } from "./format-option-symbol";

// Roots and settlement
export { optionRoot, KNOWN_OPTION_ROOTS } from "./option-roots";
export type { OptionRootInfo, Settlement, ExpirationCycle } from "./option-roots";
export { settlementInstantMs, monthlyExpiration, isMonthlyExpiration } from "./settlement";
