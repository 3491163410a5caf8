/**
 * Loads a folder of documented CSV files into a file-backed `MarketData`, streaming each file
 * line by line. Used by `optionscope serve --data DIR`.
 * @see docs/data.md#real-data-from-files
 */
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Clock } from "../../lib/market/market-data";
import { createFileMarket, DataFileError, FILE_KINDS, FileMarketBuilder, fileKindOf, type FileMarket, type FileMarketTables } from "../../lib/market/files";
import { progressBar } from "./progress-bar";

/** Progress of a load, reported per file as bytes are read. */
export interface LoadProgress {
  file: string;
  fileIndex: number;
  fileCount: number;
  bytesRead: number;
  bytesTotal: number;
  /** Physical lines read so far (header and blank lines included). */
  lines: number;
  done: boolean;
}

/** Options of `loadFileMarket` and `readFileMarketTables`. */
export interface LoadFileMarketOptions {
  clock?: Clock;
  /**
   * Called as files are read (throttled to about every 64 KiB and at the end of each file).
   * Default: a progress bar on stderr when it is a terminal (`progressBar()`); pass `() => {}` to silence.
   */
  onProgress?: (progress: LoadProgress) => void;
}

/** A file market that can reload its folder in place (all or nothing). */
export interface ReloadableFileMarket extends FileMarket {
  readonly dir: string;
  /**
   * Loads the folder (or another) again and swaps the new tables in only when every row is
   * valid; on error the market keeps answering from the old tables and the error is thrown.
   */
  reload(dir?: string, options?: Pick<LoadFileMarketOptions, "onProgress">): Promise<void>;
}

const PROGRESS_STEP_BYTES = 64 * 1024;

/**
 * Reads and validates every data file of `dir` into fresh tables (nothing shared with any
 * market in use).
 * @throws DataFileError naming file, line and field of the first bad row; `missing_file` without symbols.csv
 */
async function readFileMarketTables(dir: string, options: LoadFileMarketOptions = {}): Promise<FileMarketTables> {
  const onProgress = options.onProgress ?? progressBar();
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => fileKindOf(n) !== null);
  } catch (e) {
    throw new DataFileError("missing_file", dir, 0, null, `cannot read the data folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!names.some((n) => fileKindOf(n) === "symbols")) {
    throw new DataFileError("missing_file", "symbols.csv", 0, null, `file is missing: ${dir} needs a symbols.csv`);
  }
  const ordered = FILE_KINDS.flatMap((kind) => names.filter((n) => fileKindOf(n) === kind).sort());
  const builder = new FileMarketBuilder();
  for (let fileIndex = 0; fileIndex < ordered.length; fileIndex++) {
    const name = ordered[fileIndex];
    const path = join(dir, name);
    const bytesTotal = (await stat(path)).size;
    const sink = builder.openFile(name);
    const input = createReadStream(path, { encoding: "utf8" });
    const reader = createInterface({ input, crlfDelay: Infinity });
    let lines = 0;
    let lastReported = 0;
    const report = (done: boolean) =>
      onProgress({ file: name, fileIndex, fileCount: ordered.length, bytesRead: done ? bytesTotal : input.bytesRead, bytesTotal, lines, done });
    try {
      for await (const line of reader) {
        sink.push(line);
        lines++;
        if (input.bytesRead - lastReported >= PROGRESS_STEP_BYTES) {
          lastReported = input.bytesRead;
          report(false);
        }
      }
      sink.end();
    } finally {
      reader.close();
      input.destroy();
    }
    report(true);
  }
  return builder.finish();
}

/**
 * Loads `dir` into a file-backed `MarketData`.
 * @throws DataFileError for the first bad row (file, line, field, reason)
 * @example
 * const market = await loadFileMarket("./data", { onProgress: progressBar(process.stderr) });
 * await market.chain("SPY", Date.now());
 * @see docs/data.md#real-data-from-files
 */
export async function loadFileMarket(dir: string, options: LoadFileMarketOptions = {}): Promise<ReloadableFileMarket> {
  const market = createFileMarket(await readFileMarketTables(dir, options), { clock: options.clock });
  let current = dir;
  const reload = async (next: string = current, opts: Pick<LoadFileMarketOptions, "onProgress"> = {}) => {
    const tables = await readFileMarketTables(next, { onProgress: opts.onProgress ?? options.onProgress });
    market.replace(tables);
    current = next;
  };
  Object.defineProperties(market, {
    dir: { get: () => current, enumerable: true },
    reload: { value: reload, enumerable: true },
  });
  return market as ReloadableFileMarket;
}
