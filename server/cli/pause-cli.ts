/**
 * `optionscope pause --retry-after N [--message TEXT]` and `optionscope resume`: maintenance for a
 * running server, through the shared store (the server applies it within a second). While paused
 * every data call answers 503 `api_paused` and open streams are asked to reconnect.
 * See docs/operations.md#maintenance-and-warm-up.
 */
import { parseArgs } from "node:util";
import { accountsDbPath, openAccountsDb, resolveDataDir } from "../accounts/open-db";
import { resolveStoreUrl, UsageError } from "../config";
import { openPgPool } from "../accounts/postgres/pg-connection";
import { migratePg } from "../accounts/postgres/migrate";
import { openPgPauseStore } from "../accounts/postgres/pg-pause";
import { DEFAULT_PAUSE_MESSAGE, openPauseStore } from "../control/service-state";
import { cliOutput, EXIT_OK, EXIT_STORE, EXIT_USAGE, isUsageError, processIo, type CliIo } from "./_cli-io";

const PAUSE_CLI_USAGE = `Usage:
  optionscope pause --retry-after SECONDS [--message TEXT] [--data-dir DIR | --store URL] [--json]
  optionscope resume [--data-dir DIR | --store URL] [--json]
  --store URL: the PostgreSQL store several instances share (default $OPTIONSCOPE_STORE)
`;

/** Run `pause` or `resume`; resolves to the exit code. */
export async function runPauseCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo = processIo): Promise<number> {
  const output = cliOutput(io, argv);
  let db: ReturnType<typeof openAccountsDb> | null = null;
  let pool: ReturnType<typeof openPgPool> | null = null;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        "retry-after": { type: "string" },
        message: { type: "string" },
        "data-dir": { type: "string" },
        store: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
    output.json = values.json ?? false;
    const [command, ...rest] = positionals;
    if (values.help) {
      io.stdout(PAUSE_CLI_USAGE);
      return EXIT_OK;
    }
    if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);
    const storeUrl = resolveStoreUrl(values.store, env);
    let store: { pause(p: { retryAfterS: number; message: string }, nowMs: number): unknown; resume(): boolean | Promise<boolean> };
    if (storeUrl) {
      pool = openPgPool(storeUrl);
      await migratePg(pool);
      store = openPgPauseStore(pool);
    } else {
      db = openAccountsDb(accountsDbPath(resolveDataDir(values["data-dir"], env)));
      store = openPauseStore(db);
    }
    if (command === "resume") {
      const lifted = await store.resume();
      output.out({ paused: false, lifted }, lifted ? "Resumed: the API serves again.\n" : "The API was not paused.\n");
      return EXIT_OK;
    }
    const raw = values["retry-after"];
    if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 86_400) {
      throw new UsageError("pause needs --retry-after SECONDS (1-86400).");
    }
    const message = (values.message ?? DEFAULT_PAUSE_MESSAGE).slice(0, 500);
    await store.pause({ retryAfterS: Number(raw), message }, Date.now());
    output.out({ paused: true, retryAfterS: Number(raw), message }, `Paused: every data call answers 503 api_paused (Retry-After: ${raw}).\n`);
    return EXIT_OK;
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`${(error as Error).message}\n${PAUSE_CLI_USAGE}`);
      return EXIT_USAGE;
    }
    return output.fail(EXIT_STORE, "store_error", `The store could not be used: ${(error as Error).message}`);
  } finally {
    if (db?.open) db.close();
    await pool?.end({ timeout: 1 });
  }
}
