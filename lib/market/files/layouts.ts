/**
 * The documented CSV layouts: file names, required and optional columns.
 * @see docs/data.md#file-layouts
 */

/** The kinds of data file a folder may hold. */
export type FileKind = "symbols" | "chains" | "bars" | "optionPrints" | "offExchangePrints" | "earnings";

/** One layout: its base file name and its columns. */
export interface FileLayout {
  /** `<base>.csv`, or several `<base>-<anything>.csv` parts read in name order. */
  base: string;
  required: readonly string[];
  optional: readonly string[];
}

/** Every layout, in load order (symbols first: the other files are checked against it). */
export const FILE_LAYOUTS: Readonly<Record<FileKind, FileLayout>> = {
  symbols: {
    base: "symbols",
    required: ["ticker", "name", "type", "sector", "industry", "optionRoots"],
    optional: ["underlying", "dividendYield", "tiers"],
  },
  chains: {
    base: "chains",
    required: ["asOf", "symbol", "spot", "root", "expiry", "strike", "right", "bid", "ask", "iv", "oi"],
    optional: ["underlying", "last", "volume", "rate", "dividendYield"],
  },
  bars: {
    base: "bars",
    required: ["ts", "ticker", "open", "high", "low", "close", "volume"],
    optional: ["buyVolume", "sellVolume", "unclassifiedVolume"],
  },
  optionPrints: {
    base: "option-prints",
    required: ["ts", "symbol", "price", "size", "exchange", "bid", "ask", "conditions", "underlyingPrice"],
    optional: ["iv", "id"],
  },
  offExchangePrints: {
    base: "off-exchange-prints",
    required: ["ts", "ticker", "price", "size", "venue"],
    optional: ["id"],
  },
  earnings: {
    base: "earnings",
    required: ["ticker", "date", "timing"],
    optional: ["fiscalQuarter"],
  },
};

/** Load order of the kinds. */
export const FILE_KINDS: readonly FileKind[] = ["symbols", "chains", "bars", "optionPrints", "offExchangePrints", "earnings"];

/**
 * The kind of a file name (`chains.csv`, `chains-2024-03.csv`), or null for anything else.
 * @example
 * fileKindOf("option-prints-2024-03-15.csv"); // "optionPrints"
 */
export function fileKindOf(fileName: string): FileKind | null {
  const lower = fileName.toLowerCase();
  if (!lower.endsWith(".csv")) return null;
  const stem = lower.slice(0, -4);
  // Longest base first so that "option-prints" is not taken for another kind's prefix.
  const kinds = [...FILE_KINDS].sort((a, b) => FILE_LAYOUTS[b].base.length - FILE_LAYOUTS[a].base.length);
  for (const kind of kinds) {
    const base = FILE_LAYOUTS[kind].base;
    if (stem === base || stem.startsWith(`${base}-`)) return kind;
  }
  return null;
}
