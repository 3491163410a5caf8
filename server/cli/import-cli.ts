/**
 * `optionscope import cboe-quotes DIR`: backfill the store of record (`<data-dir>/recorded/`)
 * from Cboe DataShop Option Quotes interval files, with progress on stderr.
 * See docs/data.md#cboe-datashop-option-quotes.
 */
import { parseArgs } from "node:util";
import { isDataFileError } from "../../lib/market/files/data-file-error";
import { resolveDataDir } from "../accounts/open-db";
import { UsageError } from "../config";
import { importCboeQuotes, type ImportProgress } from "../recording/cboe-import";
import { EXIT_FAILED, EXIT_OK, isUsageError, processIo, type CliIo } from "./_cli-io";

const IMPORT_USAGE = `Usage: optionscope import cboe-quotes DIR [options]
  Import Cboe DataShop "Option Quotes" 1-minute interval files (with Calcs and open interest;
  *.csv or *.csv.gz, one row per contract per minute) from DIR into the store of record
  (recorded/ in the data directory): one board per option root and regular-session minute, the
  underlying price per minute. A session imported again is replaced. A malformed row stops the
  import of its file with the file, line and field at fault.
  --data-dir DIR     data directory (env OPTIONSCOPE_DATA_DIR, default ./.optionscope)
  --rate R           continuous risk-free rate of the boards, decimal (default 0.045; the files carry none)
  --json             the summary as one JSON line on stdout
`;

/** A progress line redrawn on a TTY, one line per finished file elsewhere. */
function progressReporter(io: CliIo, tty: boolean): (p: ImportProgress) => void {
  return (p) => {
    const pct = p.bytesTotal > 0 ? Math.min(100, (100 * p.bytesRead) / p.bytesTotal) : 100;
    const text = `import: [${p.fileIndex + 1}/${p.fileCount}] ${p.file} ${pct.toFixed(0)}% ${p.lines} lines, ${p.boards} boards`;
    if (tty) io.stderr(`\r${text}\x1b[K${p.done ? "\n" : ""}`);
    else if (p.done) io.stderr(`${text}\n`);
  };
}

/**
 * Runs `import`; resolves to the exit code (0 done, 1 a file failed, 2 usage).
 * @example await runImportCli(["import", "cboe-quotes", "./cboe", "--data-dir", ".optionscope"], process.env)
 */
export async function runImportCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo = processIo, tty = process.stderr.isTTY === true): Promise<number> {
  let dir: string;
  let dataDir: string;
  let rate: number | undefined;
  let json: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { "data-dir": { type: "string" }, rate: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      io.stdout(IMPORT_USAGE);
      return EXIT_OK;
    }
    const [, kind, source, ...extra] = positionals;
    if (kind !== "cboe-quotes")
      throw new UsageError(`${kind === undefined ? "Missing" : `Unknown`} import kind${kind ? ` "${kind}"` : ""}: expected cboe-quotes.\n${IMPORT_USAGE}`);
    if (source === undefined) throw new UsageError(`Missing DIR: the folder of Cboe files.\n${IMPORT_USAGE}`);
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".\n${IMPORT_USAGE}`);
    if (values.rate !== undefined) {
      rate = Number(values.rate);
      if (!Number.isFinite(rate) || rate < -0.05 || rate > 0.25)
        throw new UsageError(`Invalid --rate: expected a decimal between -0.05 and 0.25 (got ${JSON.stringify(values.rate)})`);
    }
    dir = source;
    dataDir = resolveDataDir(values["data-dir"], env);
    json = values.json === true;
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
  try {
    const started = performance.now();
    const s = await importCboeQuotes(dir, dataDir, { onProgress: progressReporter(io, tty), rate });
    const secs = (performance.now() - started) / 1000;
    io.stdout(
      json
        ? `${JSON.stringify(s)}\n`
        : `Imported ${s.rows} rows from ${s.files} file${s.files === 1 ? "" : "s"}: ${s.boards} boards, sessions ${s.sessions.join(", ")} into ${dataDir}/recorded (${secs.toFixed(1)} s)\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (isDataFileError(error)) {
      io.stderr(`${tty ? "\n" : ""}import: ${error.message}\n`);
      return EXIT_FAILED;
    }
    throw error;
  }
}
