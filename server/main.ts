#!/usr/bin/env node
/**
 * The `optionscope` command: `serve` (the API), `account ...` and `key ...` (the accounts store).
 * The only file with process-wide side effects: signals, exit codes, stdout.
 * See docs/api.md#running-the-server.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { runAccountsCli } from "./cli";
import { runAppsCli } from "./cli/apps-cli";
import { runPauseCli } from "./cli/pause-cli";
import { runConsoleCli } from "./cli/console-cli";
import { runPrecomputeCli } from "./cli/precompute-cli";
import { runImportCli } from "./cli/import-cli";
import { runRecordCli } from "./cli/record-cli";
import { isUsageError } from "./cli/_cli-io";
import { resolveServeConfig, SERVE_USAGE } from "./config";
import { startServer } from "./serve";
import { accountLines, bannerSymbolOf, curlLine, firstRunFacts, sessionLines } from "./cli/first-run";
import { packageVersion } from "./version";

export { curlLine };

const USAGE = `optionscope: options analytics API

  optionscope --version              print the version
  optionscope serve [options]        serve the API (see: optionscope serve --help)
  optionscope account ...            manage accounts (see: optionscope account --help)
  optionscope key ...                manage API keys
  optionscope apps list|revoke       connected tool clients (OAuth sign-ins)
  optionscope pause|resume           maintenance: every data call answers 503 api_paused
  optionscope console link|sign-out  a customer's one-time console sign-in link (see: optionscope console --help)
  optionscope invite create|list     invite codes customers redeem in the console at /console
  optionscope precompute [--sessions N|all]  fill the daily store in the foreground (see: optionscope precompute --help)
  optionscope record --underlyings A,B  record boards, prints and bars into the store of record (see: optionscope record --help)
  optionscope import cboe-quotes DIR  import Cboe DataShop Option Quotes files into the store of record (see: optionscope import --help)
`;

async function serve(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(SERVE_USAGE);
    return 0;
  }
  const config = resolveServeConfig(argv, env);
  const running = await startServer(config, {
    log: (line) => process.stdout.write(JSON.stringify(line) + "\n"),
    stderr: (t) => process.stderr.write(t),
  });
  // With --data the server listens while the files load; a file that does not validate ends it.
  const loadFailed = running.ready.then(
    () => null,
    (error: unknown) => error,
  );
  const shown = config.hostname === "0.0.0.0" || config.hostname === "::" ? "localhost" : config.hostname;
  const baseUrl = `http://${shown}:${running.listening.port}`;
  const say = (msg: string) => process.stderr.write(msg + "\n");
  const source = config.feed
    ? `live ${config.feed.name} feed: ${config.feed.underlyings.join(", ")}`
    : config.marketDataDir
      ? `data from ${config.marketDataDir}`
      : "simulated market";
  say(`optionscope ${packageVersion()} listening on ${baseUrl} (${source})`);
  say(`  flow alias ${baseUrl}/flow-alias  price ${baseUrl}/atlas  tools ${baseUrl}/mcp  store ${config.dataDir}`);
  say(`  developer console ${baseUrl}/console`);
  // The account and the curl line need the universe, the live-session hint a board: files load
  // after listening, and a board may take a while to build (docs/operations.md#first-start).
  void loadFailed.then(async (error) => {
    if (error !== null) return;
    const market = running.app.services.market;
    const symbol = await bannerSymbolOf(market).catch(() => null);
    for (const line of accountLines({ baseUrl, accountId: running.demoAccountId, key: running.demoKey, symbol })) say(line);
    const facts = await firstRunFacts(market).catch(() => null);
    if (facts) for (const line of sessionLines(facts)) say(line);
  });
  let exitCode = 0;
  await new Promise<void>((resolve) => {
    void loadFailed.then((error) => {
      if (error === null) {
        if (config.marketDataDir) say(`Data from ${config.marketDataDir} loaded; serving.`);
        return;
      }
      say(`optionscope: ${(error as Error).message}`);
      exitCode = 1;
      running.app
        .shutdown(0)
        .catch(() => {})
        .then(() => running.shutdown(1000))
        .then(resolve, resolve);
    });
    const stop = (signal: string) => {
      say(`${signal}: draining in-flight requests...`);
      // Open streams get `reconnect` with `server_shutdown` first, so clients resume elsewhere.
      running.app
        .shutdown()
        .catch(() => {})
        .then(() => running.shutdown())
        .then(resolve, (error) => {
          say(`shutdown error: ${(error as Error).message}`);
          resolve();
        });
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  return exitCode;
}

/** `precompute` with Ctrl-C ending it after the current row (what is stored is kept). */
async function precomputeUntilSigint(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once("SIGINT", onSigint);
  try {
    return await runPrecomputeCli(argv, env, undefined, { signal: stop.signal });
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** `record` until SIGINT or SIGTERM, which stop it after the minute in progress (what is on disk is kept). */
async function recordUntilSignal(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await runRecordCli(argv, env, undefined, { signal: stop.signal });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * Run the CLI; resolves to the exit code.
 * @example await main(["serve", "--port", "0"], process.env)
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "--version" || command === "-v" || command === "version") {
      process.stdout.write(`optionscope ${packageVersion()}\n`);
      return 0;
    }
    if (command === "serve") return await serve(rest, env);
    if (command === "apps") return await runAppsCli(argv, env);
    if (command === "pause" || command === "resume") return await runPauseCli(argv, env);
    if (command === "console" || command === "invite") return await runConsoleCli(argv, env);
    if (command === "account" || command === "key") return await runAccountsCli(argv, env);
    if (command === "precompute") return await precomputeUntilSigint(argv, env);
    if (command === "record") return await recordUntilSignal(argv, env);
    if (command === "import") return await runImportCli(argv, env);
    if (!command || command === "--help" || command === "-h" || command === "help") {
      process.stdout.write(USAGE);
      return command ? 0 : 2;
    }
    process.stderr.write(`Unknown command: ${command}\n${USAGE}`);
    return 2;
  } catch (error) {
    if (isUsageError(error)) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 2;
    }
    process.stderr.write(`optionscope: ${(error as Error).message}\n`);
    return 1;
  }
}

function isEntry(): boolean {
  try {
    const url = import.meta.url;
    return Boolean(url && process.argv[1] && url === pathToFileURL(realpathSync(process.argv[1])).href);
  } catch {
    return false;
  }
}

if (isEntry()) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
