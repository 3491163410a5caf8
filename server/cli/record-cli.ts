/**
 * `optionscope record --underlyings A,B`: record a market into the store of record
 * (`<data-dir>/recorded/`) without serving, one line per minute made durable. From the simulated
 * market by default. See docs/data.md#recorder.
 */
import { parseArgs } from "node:util";
import { createSimulatedMarket, fixedClock, systemClock } from "../../lib/market";
import type { MarketData } from "../../lib/market/market-data";
import { resolveDataDir } from "../accounts/open-db";
import { UsageError } from "../config";
import { createMassiveFeed } from "../feeds/massive/massive-feed";
import { FeedError } from "../feeds/market-feed";
import { recordFeed } from "../feeds/record-feed";
import { openRecordedMarket } from "../recording/recorded-market";
import { RecordingError, startRecording } from "../recording/recorder";
import { EXIT_FAILED, EXIT_OK, isUsageError, processIo, type CliIo } from "./_cli-io";

const RECORD_USAGE = `Usage: optionscope record --underlyings A,B [options]
  Record boards, prints, bars and spot minute by minute, 04:00-20:00 ET (extended-hours boards
  where the market quotes them), into the store of record (recorded/ in the data directory), without
  serving; one recorder per data directory. A minute is printed once it is on disk; a restart
  resumes after the last one. SIGINT/SIGTERM stop after the minute in progress. Source: the
  simulated market, or a live feed with --feed.
  --underlyings A,B      symbols to record, as the API names them (tickers or option roots: SPXW,SPY)
  --feed massive         record the Massive live feed (key from the environment variable
                         MASSIVE_API_KEY, never a flag; docs/data.md#massive-live-feed), 90 s behind it
  --data-dir DIR         data directory (env OPTIONSCOPE_DATA_DIR, default ./.optionscope)
  --retention-days N     delete recorded sessions older than N calendar days (default 0: keep all)
  --from ISO             first minute to record when the store has nothing of a symbol (default: now)
  --now ISO              pin the market clock there (env OPTIONSCOPE_NOW): record up to it, then exit
  --seed S               simulator seed (env OPTIONSCOPE_SEED)
  --poll-seconds N       how often the clock is read (default 5)
  --json                 one JSON line per minute on stdout
`;

function instantOf(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (!Number.isFinite(ms)) throw new UsageError(`Invalid ${flag}: expected an ISO instant such as 2024-03-06T15:00:00Z (got ${JSON.stringify(raw.slice(0, 40))})`);
  return ms;
}

function countOf(raw: string | undefined, flag: string, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`Invalid ${flag}: expected a whole number >= ${min} (got ${JSON.stringify(raw.slice(0, 20))})`);
  return n;
}

/** Options of a run (tests pass a market and a stop signal). */
export interface RecordCliOptions {
  /** The market to record (default: the simulated market). */
  market?: MarketData;
  /** Aborted: stop after the minute in progress. */
  signal?: AbortSignal;
}

/**
 * Runs `record`; resolves to the exit code (0 stopped or caught up, 1 failed, 2 usage).
 * @example await runRecordCli(["record", "--underlyings", "SPY", "--now", "2024-03-06T21:00:00Z"], process.env)
 */
export async function runRecordCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo = processIo, options: RecordCliOptions = {}): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        underlyings: { type: "string" },
        "data-dir": { type: "string" },
        "retention-days": { type: "string" },
        from: { type: "string" },
        now: { type: "string" },
        seed: { type: "string" },
        feed: { type: "string" },
        "poll-seconds": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    values = parsed.values;
    if (values.help) {
      io.stdout(RECORD_USAGE);
      return EXIT_OK;
    }
    const extra = parsed.positionals.slice(1);
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".\n${RECORD_USAGE}`);
    if (typeof values.underlyings !== "string" || values.underlyings.trim() === "") throw new UsageError(`Missing --underlyings.\n${RECORD_USAGE}`);
    if (values.feed !== undefined && values.feed !== "massive")
      throw new UsageError(`Invalid --feed: expected massive (got ${JSON.stringify(String(values.feed).slice(0, 20))})`);
    if (values.feed !== undefined && (values.now !== undefined || values.from !== undefined))
      throw new UsageError("--feed records the live feed as it comes: --now and --from do not apply");
    if (values.feed !== undefined && (env.MASSIVE_API_KEY ?? "").trim() === "")
      throw new UsageError("--feed massive needs the key in the environment variable MASSIVE_API_KEY (it is never taken as a flag)");
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
  let nowMs: number | undefined;
  let fromMs: number | undefined;
  let retentionDays: number;
  let pollSeconds: number;
  try {
    nowMs = instantOf((values.now as string | undefined) ?? env.OPTIONSCOPE_NOW, "--now");
    fromMs = instantOf(values.from as string | undefined, "--from");
    retentionDays = countOf(values["retention-days"] as string | undefined, "--retention-days", 0, 0);
    pollSeconds = countOf(values["poll-seconds"] as string | undefined, "--poll-seconds", 5, 1);
  } catch (error) {
    io.stderr(`${(error as Error).message}\n`);
    return 2;
  }
  const dataDir = resolveDataDir(values["data-dir"] as string | undefined, env);
  const underlyings = (values.underlyings as string).split(",");
  if (values.feed === "massive" && !options.market) return recordMassive(dataDir, underlyings, env, io, options.signal);
  const market =
    options.market ??
    createSimulatedMarket({ seed: (values.seed as string | undefined) ?? env.OPTIONSCOPE_SEED, clock: nowMs === undefined ? systemClock : fixedClock(nowMs) });
  const json = values.json === true;
  const say = (t: string) => io.stderr(`record: ${t}\n`);
  let failed: unknown = null;
  let rec: Awaited<ReturnType<typeof startRecording>>;
  try {
    rec = await startRecording(market, {
      dataDir,
      underlyings,
      retentionDays,
      fromMs,
      pollMs: nowMs === undefined ? pollSeconds * 1000 : 0,
      onMinute: (a) => {
        const at = new Date(a.t).toISOString();
        io.stdout(
          json ? `${JSON.stringify({ symbol: a.symbol, t: at, board: a.board, bytes: a.bytes })}\n` : `${a.symbol} ${at}${a.board ? " board" : ""} ${a.bytes} B\n`,
        );
      },
      onSession: (date, symbol, r) => say(`${symbol} ${date} compacted: ${r.boards} boards, ${r.prints} prints, ${(r.bytes / 1_048_576).toFixed(1)} MB`),
      onError: (error) => {
        failed = error;
        say(`error: ${(error as Error).message}`);
      },
    });
  } catch (error) {
    if (error instanceof RecordingError) {
      say(error.message);
      return EXIT_FAILED;
    }
    throw error;
  }
  say(`recording ${underlyings.join(",")} into ${dataDir}/recorded (${market.simulated ? "simulated market" : "market feed"})`);
  if (nowMs !== undefined) {
    // A pinned clock: catch up to it, then stop.
    await rec.catchUp();
    await rec.stop();
    return failed ? EXIT_FAILED : EXIT_OK;
  }
  // The recorder's timer does not hold the process open (inside a server it should not): this does.
  const keepAlive = setInterval(() => {}, 60_000);
  await new Promise<void>((resolve) => {
    if (options.signal?.aborted) resolve();
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  clearInterval(keepAlive);
  await rec.stop();
  say("stopped");
  return EXIT_OK;
}

/** `record --feed massive`: the feed started over the store (its past), recorded as `serve --feed` records it. */
async function recordMassive(dataDir: string, underlyings: string[], env: NodeJS.ProcessEnv, io: CliIo, signal?: AbortSignal): Promise<number> {
  const say = (t: string) => io.stderr(`record: ${t}\n`);
  const log = (line: Record<string, unknown>) => io.stdout(`${JSON.stringify(line)}\n`);
  const history = openRecordedMarket(dataDir, { clock: systemClock });
  const symbols = underlyings.map((u) => u.trim().toUpperCase()).filter((u) => u !== "");
  const feed = createMassiveFeed({
    apiKey: (env.MASSIVE_API_KEY ?? "").trim(),
    symbols,
    restBaseUrl: env.OPTIONSCOPE_MASSIVE_REST_URL || undefined,
    wsBaseUrl: env.OPTIONSCOPE_MASSIVE_WS_URL || undefined,
    clock: systemClock,
    history,
    log,
  });
  try {
    await feed.start();
  } catch (error) {
    history.close();
    if (error instanceof FeedError) {
      say(`${error.code}: ${error.message}`);
      return EXIT_FAILED;
    }
    throw error;
  }
  let rec: Awaited<ReturnType<typeof recordFeed>>;
  try {
    rec = await recordFeed(feed.market, { dataDir, underlyings: symbols, log });
  } catch (error) {
    await feed.stop();
    history.close();
    if (error instanceof RecordingError) {
      say(error.message);
      return EXIT_FAILED;
    }
    throw error;
  }
  say(`recording the Massive feed of ${symbols.join(",")} into ${dataDir}/recorded`);
  const keepAlive = setInterval(() => {}, 60_000);
  await new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  clearInterval(keepAlive);
  await rec.stop();
  await feed.stop();
  history.close();
  say("stopped");
  return EXIT_OK;
}
