/**
 * `optionscope apps list|revoke`: the connected apps (tool clients signed in through OAuth) in the
 * same store the server uses, while it runs. Revoking an app ends every token it holds at once.
 * See docs/api.md#oauth-sign-in-for-tool-clients.
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { accountsDbPath, resolveDataDir } from "../accounts/open-db";
import { openAccountStore, type AccountStore } from "../accounts/open-store";
import type { ConnectedApp } from "../oauth/oauth-store";
import { resolveStoreUrl, UsageError } from "../config";
import { cliOutput, EXIT_FAILED, EXIT_OK, EXIT_STORE, EXIT_USAGE, isUsageError, processIo, type CliIo } from "./_cli-io";

const APPS_CLI_USAGE = `Usage:
  optionscope apps list [--account ID] [--json]
  optionscope apps revoke APP_ID [--json]

Options:
  --data-dir DIR   data directory (default $OPTIONSCOPE_DATA_DIR or ./.optionscope)
  --store URL      postgres://... accounts store (default $OPTIONSCOPE_STORE, else the SQLite file)
  --json           machine-readable output on stdout
`;

function state(app: ConnectedApp): string {
  if (app.revokedAt) return "revoked";
  return app.activeRefreshTokens > 0 ? "active" : "signed-out";
}

function table(apps: ConnectedApp[]): string {
  if (apps.length === 0) return "No connected apps.\n";
  const rows = apps.map((a) => [a.appId, a.accountId, state(a), a.clientName ?? "(unnamed)", a.createdAt, a.lastUsedAt ?? "-"]);
  const head = ["APP_ID", "ACCOUNT", "STATE", "CLIENT", "CREATED", "LAST_USED"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd() + "\n";
  return line(head) + rows.map(line).join("");
}

/**
 * Run an `apps` command; `argv` starts at `apps`. Resolves to the exit code (0 done, 1 not found,
 * 2 usage, 3 store error).
 * @example await runAppsCli(["apps", "revoke", "app_abc"], process.env) // 0
 */
export async function runAppsCli(argv: string[], env: Record<string, string | undefined>, io: CliIo = processIo): Promise<number> {
  const output = cliOutput(io, argv);
  const { out, fail } = output;
  let accounts: AccountStore | null = null;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        "data-dir": { type: "string" },
        store: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        account: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    });
    output.json = values.json ?? false;
    const [group, command, ...rest] = positionals;
    if (values.help || group !== "apps" || !command) {
      io.stdout(APPS_CLI_USAGE);
      return values.help ? EXIT_OK : EXIT_USAGE;
    }
    if (command !== "list" && command !== "revoke") throw new UsageError(`Unknown command "apps ${command}".`);
    if (command === "list" && rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);
    if (command === "revoke" && (rest.length !== 1 || values.account !== undefined)) throw new UsageError("apps revoke takes exactly one APP_ID.");

    // Same store as the running server: the SQLite file of the data directory, or PostgreSQL.
    const storeUrl = resolveStoreUrl(values.store, env);
    const dataDir = resolveDataDir(values["data-dir"], env);
    if (!storeUrl && !existsSync(accountsDbPath(dataDir))) {
      if (command === "list") {
        out({ apps: [] }, "No connected apps.\n");
        return EXIT_OK;
      }
      return fail(EXIT_FAILED, "app_not_found", `No connected app ${rest[0]}.`);
    }
    accounts = await openAccountStore({ storeUrl, dataDir });
    const store = accounts.openOAuthStore();
    if (command === "list") {
      const apps = await store.listApps({ accountId: values.account });
      out({ apps: apps.map((a) => ({ ...a, state: state(a) })) }, table(apps));
      return EXIT_OK;
    }
    const r = await store.revokeApp(rest[0]!);
    if (!r) return fail(EXIT_FAILED, "app_not_found", `No connected app ${rest[0]}.`);
    out(
      r,
      r.alreadyRevoked
        ? `App ${r.appId} was already revoked (${r.tokensRevoked} tokens revoked now).\n`
        : `Revoked app ${r.appId} of account ${r.accountId}; ${r.tokensRevoked} tokens revoked.\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`${(error as Error).message}\n${APPS_CLI_USAGE}`);
      return EXIT_USAGE;
    }
    return fail(EXIT_STORE, "store_error", `The store could not be used: ${(error as Error).message}`);
  } finally {
    await accounts?.close();
  }
}
