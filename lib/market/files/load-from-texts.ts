/**
 * Builds file-provider tables from file contents held in memory (browsers, tests); the server's
 * `loadFileMarket(dir)` streams from disk into the same builder.
 * @see docs/data.md#real-data-from-files
 */
import { FileMarketBuilder, type FileMarketTables } from "./file-market-builder";
import { FILE_KINDS, fileKindOf } from "./layouts";

/**
 * Validates and packs `{ fileName: contents }` (symbols first, then each kind in load order,
 * parts of a kind in name order). Files whose names match no layout are ignored.
 * @throws DataFileError for the first bad row, naming file, line and field
 * @example
 * const tables = tablesFromTexts({ "symbols.csv": "ticker,name,type,sector,industry,optionRoots\nSPY,SPDR S&P 500,etf,Multi-Sector,Broad market,SPY\n" });
 */
export function tablesFromTexts(files: Readonly<Record<string, string>>): FileMarketTables {
  const builder = new FileMarketBuilder();
  for (const kind of FILE_KINDS) {
    const names = Object.keys(files)
      .filter((n) => fileKindOf(n) === kind)
      .sort();
    for (const name of names) {
      const sink = builder.openFile(name, kind);
      const text = files[name];
      let start = 0;
      while (start <= text.length) {
        const nl = text.indexOf("\n", start);
        const end = nl < 0 ? text.length : nl;
        if (nl >= 0 || end > start) sink.push(text.slice(start, end));
        if (nl < 0) break;
        start = nl + 1;
      }
      sink.end();
    }
  }
  return builder.finish();
}
