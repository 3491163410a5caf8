/**
 * `optionscope precompute [--sessions N|all] [--kinds K,K]`: fill the daily store in the
 * foreground, beyond the background fill's horizon (or instead of it), with progress on stderr.
 * It takes the same fill lease as a server's filler, so it never computes beside one, and runs at
 * the fill's CPU priority (nice 19, FILL_NICE). See docs/operations.md#precompute.
 */
import { parseArgs } from "node:util";
import { createSimulatedMarket, fixedClock } from "../../lib/market";
import type { MarketData } from "../../lib/market/market-data";
import { resolveDataDir } from "../accounts/open-db";
import { parseFillSessions, UsageError } from "../config";
import { loadFileMarket } from "../data";
import {
  dailyDbPath,
  DAILY_KINDS,
  DEFAULT_FLOW_FILL_SESSIONS,
  marketIdentity,
  openDailyStore,
  openFillLease,
  runFill,
  type DailyKind,
  type MarketSource,
} from "../daily-store";
import { dailyProducer } from "../daily-store/compute";
import { FILL_LEASE_RENEW_MS, type LeaseHolder } from "../daily-store/lease";
import { fillPlan, plannedRows } from "../daily-store/plan";
import { lowerFillPriority } from "../daily-store/priority";
import { fillScopeOf } from "../daily-store/scope";
import { FLOW_FIRST_DATE } from "../modules/flow/sessions/tape";
import { DEFAULT_HISTORY_SESSIONS } from "../modules/vol/daily-store";
import { EXIT_FAILED, EXIT_OK, isUsageError, processIo, type CliIo } from "./_cli-io";

const PRECOMPUTE_USAGE = `Usage: optionscope precompute [options]
  Fill the daily store (daily.sqlite in the data directory) in the foreground, newest sessions first.
  --sessions N|all     flow sessions back from the last finished one (default ${DEFAULT_FLOW_FILL_SESSIONS}; all: back to ${FLOW_FIRST_DATE})
  --kinds K,K          ${DAILY_KINDS.join(",")} (default all; the vol window is always ${DEFAULT_HISTORY_SESSIONS + 1} sessions)
  --symbols A,B        only these tickers / symbols (default the whole universe)
  --data-dir DIR       data directory (env OPTIONSCOPE_DATA_DIR, default ./.optionscope)
  --seed S             simulator seed, as given to serve (env OPTIONSCOPE_SEED)
  --data DIR           real data files, as given to serve (env OPTIONSCOPE_DATA)
  --now ISO            market instant (env OPTIONSCOPE_NOW; default now)
  --wait               wait while another process fills this store (default: exit 1)
`;

/** How often a waiting precompute tries the lease again, and how often progress is printed, ms. */
const WAIT_RETRY_MS = 5_000;
const PROGRESS_EVERY_MS = 1_000;

export interface PrecomputeOptions {
  /** Lower this thread's CPU priority (the command line does; in-process tests do not). */
  lowerPriority?: boolean;
  /** Aborted: stop after the current row (SIGINT). */
  signal?: AbortSignal;
  /** Wait between lease tries with `--wait`, ms. */
  waitRetryMs?: number;
}

function kindsOf(raw: string | undefined): DailyKind[] | undefined {
  if (raw === undefined) return undefined;
  const kinds = raw
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "");
  const bad = kinds.find((k) => !(DAILY_KINDS as readonly string[]).includes(k));
  if (bad !== undefined || kinds.length === 0)
    throw new UsageError(`Invalid --kinds: expected one or more of ${DAILY_KINDS.join(", ")} separated by commas (got ${JSON.stringify(raw.slice(0, 60))})`);
  return kinds as DailyKind[];
}

function nowOf(raw: string | undefined): number {
  if (raw === undefined) return Date.now();
  const ms = Date.parse(raw);
  if (!Number.isFinite(ms))
    throw new UsageError(`Invalid --now / OPTIONSCOPE_NOW: expected an ISO instant such as 2024-03-06T15:00:00Z (got ${JSON.stringify(raw.slice(0, 40))})`);
  return ms;
}

const holderText = (h: LeaseHolder) => `pid ${h.pid} on ${h.host} (lease until ${new Date(h.expiresMs).toISOString()})`;
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Run `precompute`; resolves to the exit code (0 done, 1 the store is being filled elsewhere or the
 * lease was lost, 2 usage).
 * @example await runPrecomputeCli(["precompute", "--sessions", "5", "--seed", "42"], process.env)
 */
export async function runPrecomputeCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo = processIo, options: PrecomputeOptions = {}): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        sessions: { type: "string" },
        kinds: { type: "string" },
        symbols: { type: "string" },
        "data-dir": { type: "string" },
        seed: { type: "string" },
        data: { type: "string" },
        now: { type: "string" },
        wait: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      io.stdout(PRECOMPUTE_USAGE);
      return EXIT_OK;
    }
    const extra = positionals.slice(1);
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".\n${PRECOMPUTE_USAGE}`);
    const flowSessions = parseFillSessions(values.sessions, "--sessions") ?? DEFAULT_FLOW_FILL_SESSIONS;
    const kinds = kindsOf(values.kinds);
    const symbols = values.symbols
      ?.split(",")
      .map((s) => s.trim().toUpperCase())
      .filter((s) => s !== "");
    const nowMs = nowOf(values.now ?? env.OPTIONSCOPE_NOW);
    const dataDir = resolveDataDir(values["data-dir"], env);
    const marketDir = values.data ?? env.OPTIONSCOPE_DATA;
    const source: MarketSource = marketDir ? { kind: "files", dir: marketDir } : { kind: "simulated", seed: values.seed ?? env.OPTIONSCOPE_SEED };
    return await precompute({ dataDir, source, nowMs, flowSessions, kinds, symbols: symbols?.length ? symbols : undefined, wait: values.wait ?? false }, io, options);
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}

interface PrecomputeRun {
  dataDir: string;
  source: MarketSource;
  nowMs: number;
  flowSessions: number;
  kinds?: DailyKind[];
  symbols?: string[];
  wait: boolean;
}

async function precompute(r: PrecomputeRun, io: CliIo, options: PrecomputeOptions): Promise<number> {
  const say = (t: string) => io.stderr(`precompute: ${t}\n`);
  if (options.lowerPriority !== false && lowerFillPriority() === null) say("could not lower the CPU priority; running at normal priority");
  const store = openDailyStore(dailyDbPath(r.dataDir), marketIdentity(r.source), {
    log: (l) => l.msg === "daily_store_corrupt" && say(`${String(l.file)} was corrupt (${String(l.error)}); moved to ${String(l.movedTo)}, filling a new store`),
  });
  const lease = openFillLease(store.path);
  try {
    for (let waited = false; ; waited = true) {
      const took = lease.take();
      if (took.held) {
        if (took.replaced) say(`took over from ${holderText(took.replaced)}, which is gone`);
        break;
      }
      if (!r.wait) {
        say(`${store.path} is being filled by ${holderText(took.holder)}. Run again with --wait, or stop that process (or start it with --no-daily-fill).`);
        return EXIT_FAILED;
      }
      if (!waited) say(`waiting: ${store.path} is being filled by ${holderText(took.holder)}`);
      await sleep(options.waitRetryMs ?? WAIT_RETRY_MS, options.signal);
      if (options.signal?.aborted) return EXIT_FAILED;
    }
    const clock = fixedClock(r.nowMs);
    const market: MarketData = r.source.kind === "simulated" ? createSimulatedMarket({ seed: r.source.seed, clock }) : await loadFileMarket(r.source.dir, { clock });
    const scope = await fillScopeOf(market, {
      symbols: r.symbols,
      kinds: r.kinds,
      volSessions: DEFAULT_HISTORY_SESSIONS,
      flowFrom: FLOW_FIRST_DATE,
      flowSessions: r.flowSessions,
    });
    const steps = fillPlan(scope, r.nowMs);
    const totals = plannedRows(steps);
    const flowDates = steps.filter((s) => s.kind === "flow-summary").map((s) => s.session);
    say(
      `${store.path}: flow summaries of ${scope.flowTickers.length} tickers over ${flowDates.length} sessions` +
        (flowDates.length ? ` (${flowDates[0]} back to ${flowDates[flowDates.length - 1]})` : "") +
        `, vol readings of ${scope.volSymbols.length} symbols over ${scope.volSymbols.length ? scope.volSessions + 1 : 0} sessions; ${totals["flow-summary"] + totals["vol-reading"]} rows planned`,
    );
    const started = performance.now();
    let printed = 0;
    let lost = false;
    let renewed = Date.now();
    const computed = await runFill({
      store,
      produce: dailyProducer(market),
      scope,
      nowMs: r.nowMs,
      stopped: () => {
        if (!lost && Date.now() - renewed >= FILL_LEASE_RENEW_MS) {
          lost = !lease.renew();
          renewed = Date.now();
        }
        return lost || options.signal?.aborted === true;
      },
      onProgress: (kind, p) => {
        const t = performance.now();
        if (p.total === 0 || (!p.finished && t - printed < PROGRESS_EVERY_MS)) return;
        printed = t;
        say(`${kind} ${p.done}/${p.total} rows${p.finished ? " (done)" : ""}, ${((t - started) / 1000).toFixed(1)} s`);
      },
    });
    const took = ((performance.now() - started) / 1000).toFixed(1);
    if (lost) {
      say(`stopped: the lease was taken by ${lease.holder() ? holderText(lease.holder()!) : "another process"} after ${took} s (${computed} rows computed)`);
      return EXIT_FAILED;
    }
    if (options.signal?.aborted) {
      say(`interrupted after ${took} s; ${computed} rows computed and kept (run again to continue)`);
      return EXIT_FAILED;
    }
    say(`done: ${computed} rows computed in ${took} s; the store holds ${DAILY_KINDS.map((k) => `${store.count(k)} ${k}`).join(", ")} rows`);
    return EXIT_OK;
  } finally {
    lease.release();
    lease.close();
    store.close();
  }
}
