/**
 * `optionscope console link|sign-out` and `optionscope invite create|list`: what the host does so
 * that customers manage their own keys and cap in the developer console. Same store as the
 * running server. See docs/operations.md#developer-console.
 */
import { parseArgs } from "node:util";
import { isApiError } from "../errors";
import { resolveDataDir } from "../accounts/open-db";
import { DEFAULT_SETUP_LINK_TTL_MS } from "../accounts/console-store";
import type { InviteCode } from "../accounts/console-types";
import { openAccountStore, type AccountStore } from "../accounts/open-store";
import { isPlan } from "../accounts/plans";
import { PLANS } from "../accounts/types";
import { resolveStoreUrl, UsageError } from "../config";
import { cliOutput, EXIT_FAILED, EXIT_OK, EXIT_STORE, EXIT_USAGE, isUsageError, processIo, type CliIo } from "./_cli-io";

const CONSOLE_CLI_USAGE = `Usage:
  optionscope console link --account ID [--base-url URL] [--expires-in-hours N] [--json]
        one-time link that signs the customer in and lets them choose a console password
        (also the way to reset a forgotten password)
  optionscope console sign-out --account ID [--json]
        end every console session of the account
  optionscope invite create [--plan ${PLANS.join("|")}] [--credits N] [--label TEXT]
                            [--expires-in-days N] [--count N] [--json]
        invite codes (shown once): a new customer opens an account with one in the console
  optionscope invite list [--json]

Options for every command:
  --data-dir DIR   data directory (default $OPTIONSCOPE_DATA_DIR or ./.optionscope)
  --store URL      postgres://... accounts store (default $OPTIONSCOPE_STORE, else the SQLite file)
  --json           machine-readable output on stdout
`;

const OPTIONS = {
  "data-dir": { type: "string" },
  store: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  account: { type: "string" },
  "base-url": { type: "string" },
  "expires-in-hours": { type: "string" },
  "expires-in-days": { type: "string" },
  plan: { type: "string" },
  credits: { type: "string" },
  label: { type: "string" },
  count: { type: "string" },
} as const;

function positiveInt(flag: string, raw: string | undefined, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > max) throw new UsageError(`--${flag} must be an integer from 1 to ${max}, got "${raw}".`);
  return n;
}

function baseUrl(raw: string | undefined, env: Record<string, string | undefined>): string {
  const value = raw ?? `http://localhost:${env.PORT ?? "8080"}`;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    return url.origin + url.pathname.replace(/\/+$/, "");
  } catch {
    throw new UsageError(`--base-url must be an http(s) URL such as https://api.example.com, got "${value}".`);
  }
}

function inviteTable(invites: InviteCode[]): string {
  if (invites.length === 0) return "No invite codes.\n";
  const rows = invites.map((i) => [i.inviteId, `${i.prefix}...`, i.plan, String(i.credits), i.state, i.redeemedBy ?? "-", i.expiresAt ?? "-", i.label ?? ""]);
  const head = ["INVITE_ID", "CODE", "PLAN", "CREDITS", "STATE", "REDEEMED_BY", "EXPIRES", "LABEL"];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => v.padEnd(widths[c]!))
      .join("  ")
      .trimEnd() + "\n";
  return line(head) + rows.map(line).join("");
}

/**
 * Run a `console` or `invite` command; `argv` starts at the group word. Resolves to the exit code.
 * @example await runConsoleCli(["console", "link", "--account", "acct_x"], process.env) // 0
 */
export async function runConsoleCli(argv: string[], env: Record<string, string | undefined>, io: CliIo = processIo): Promise<number> {
  const output = cliOutput(io, argv);
  let accounts: AccountStore | null = null;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    output.json = values.json ?? false;
    const [group, command, ...rest] = positionals;
    if (values.help || !command) {
      io.stdout(CONSOLE_CLI_USAGE);
      return values.help ? EXIT_OK : EXIT_USAGE;
    }
    const key = `${group} ${command}`;
    if (!["console link", "console sign-out", "invite create", "invite list"].includes(key)) throw new UsageError(`Unknown command "${key}".`);
    if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);
    // Validate every flag before touching the store.
    const hours = positiveInt("expires-in-hours", values["expires-in-hours"], 24 * 30);
    const days = positiveInt("expires-in-days", values["expires-in-days"], 3650);
    const count = positiveInt("count", values.count, 100) ?? 1;
    const credits = values.credits === undefined || values.credits.trim() === "0" ? 0 : positiveInt("credits", values.credits, 1_000_000_000)!;
    const plan = values.plan ?? "invite";
    if (!isPlan(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")}; got "${plan}".`);
    if (key.startsWith("console") && !values.account) throw new UsageError(`${key} needs --account ID.`);
    const base = key === "console link" ? baseUrl(values["base-url"], env) : "";

    // Same store as the running server: the SQLite file of the data directory, or PostgreSQL.
    const storeUrl = resolveStoreUrl(values.store, env);
    accounts = await openAccountStore({ storeUrl, dataDir: resolveDataDir(values["data-dir"], env) });
    const store = accounts.openConsoleStore();
    const accountExists = async (id: string) => (await store.accountPlan(id)) !== null;

    switch (key) {
      case "console link": {
        const accountId = values.account!;
        if (!(await accountExists(accountId))) return output.fail(EXIT_FAILED, "account_not_found", `No account ${accountId}.`);
        const link = await store.createSetupLink(accountId, hours === undefined ? DEFAULT_SETUP_LINK_TTL_MS : hours * 3_600_000);
        // The token travels in the fragment: never sent to a server, never in an access log or Referer.
        const url = `${base}/console#setup=${link.token}`;
        const expiresAt = new Date(link.expiresMs).toISOString();
        output.out({ accountId, url, expiresAt }, `One-time console link for ${accountId} (valid until ${expiresAt}; send it privately):\n  ${url}\n`);
        return EXIT_OK;
      }
      case "console sign-out": {
        const ended = await store.endSessionsOf(values.account!);
        output.out({ accountId: values.account, sessionsEnded: ended }, `Ended ${ended} console sessions of ${values.account}.\n`);
        return EXIT_OK;
      }
      case "invite create": {
        const expiresAtMs = days === undefined ? null : Date.now() + days * 86_400_000;
        const made = [];
        for (let i = 0; i < count; i++) made.push(await store.createInvite({ plan, credits, label: values.label ?? null, expiresAtMs }));
        output.out(
          { invites: made.map((m) => ({ ...m.invite, code: m.code })) },
          `Invite codes (plan ${plan}${credits > 0 ? `, ${credits} credits` : ""}; shown once, store them now):\n` + made.map((m) => `  ${m.code}\n`).join(""),
        );
        return EXIT_OK;
      }
      case "invite list": {
        const invites = await store.listInvites();
        output.out({ invites }, inviteTable(invites));
        return EXIT_OK;
      }
    }
    throw new UsageError(`Unknown command "${key}".`);
  } catch (error) {
    if (isUsageError(error)) return output.fail(EXIT_USAGE, "usage", `${(error as Error).message}\n\n${CONSOLE_CLI_USAGE}`);
    if (isApiError(error)) return output.fail(error.status === 503 ? EXIT_STORE : EXIT_FAILED, error.code, error.message);
    return output.fail(EXIT_STORE, "store_error", `The store could not be used: ${(error as Error).message}`);
  } finally {
    await accounts?.close();
  }
}
