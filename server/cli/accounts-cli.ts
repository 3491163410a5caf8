/**
 * `optionscope account ...` and `optionscope key ...`: manage accounts and keys in the same
 * store the server uses, while it runs. See docs/operations.md#accounts-cli.
 */
import { parseArgs } from "node:util";
import { isApiError } from "../errors";
import type { AccountDetails } from "../accounts/admin-types";
import { resolveDataDir } from "../accounts/open-db";
import { openAccountStore, type AccountStore } from "../accounts/open-store";
import { redactUrl } from "../accounts/postgres/pg-connection";
import { isPlan } from "../accounts/plans";
import { ACCOUNT_STATUSES, PLANS, type AccountStatus, type Plan } from "../accounts/types";
import { resolveStoreUrl, UsageError } from "../config";
import { cliOutput, EXIT_FAILED, EXIT_OK, EXIT_STORE, EXIT_USAGE, isUsageError, processIo, type CliIo } from "./_cli-io";
import { revokeKeyGrants } from "./_revoke-key-grants";

export type { CliIo } from "./_cli-io";

/** What the CLI needs of the store: the admin operations, the balance, the OAuth grants beside it. */
type CliStore = AccountStore;

export interface AccountsCliOptions {
  /** Waits between attempts to revoke a revoked key's OAuth grants (default `CLI_GRANT_RETRY_MS`; tests shorten it). */
  grantRetryMs?: readonly number[];
}

/** `text` as one shell word. */
const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/**
 * The command that finishes a half-done `key revoke`: by key id (the key itself is a secret), with
 * the store flags given (a URL's password shown as `***`; environment variables still apply).
 */
function keyRevokeCommand(keyId: string, flags: { "data-dir"?: string; store?: string }): string {
  const words = ["optionscope", "key", "revoke", keyId];
  if (flags["data-dir"]) words.push("--data-dir", shellWord(flags["data-dir"]));
  if (flags.store) words.push("--store", shellWord(redactUrl(flags.store)));
  return words.join(" ");
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const ACCOUNTS_CLI_USAGE = `Usage:
  optionscope account create --plan ${PLANS.join("|")} [--credits N] [--label TEXT]
                             [--daily-cap N|none] [--monthly-cap N|none] [--opra-agreement signed|unsigned] [--json]
  optionscope account set ID [--status active|suspended|blocked] [--credits N] [--add-credits N]
                             [--daily-cap N|none] [--monthly-cap N|none] [--plan PLAN]
                             [--opra-agreement signed|unsigned] [--json]
  optionscope account show ID [--ledger N] [--json]
  optionscope account list [--json]
  optionscope account verify [--json]
  optionscope key create --account ID [--expires-in-days N] [--json]
  optionscope key revoke KEY_OR_ID [--json]

Options for every command:
  --data-dir DIR   data directory (default $OPTIONSCOPE_DATA_DIR or ./.optionscope)
  --store URL      PostgreSQL accounts store, postgres://user@host:port/db (default $OPTIONSCOPE_STORE,
                   else the SQLite file in the data directory)
  --json           machine-readable output on stdout
`;

const OPTIONS = {
  "data-dir": { type: "string" },
  store: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  plan: { type: "string" },
  credits: { type: "string" },
  "add-credits": { type: "string" },
  label: { type: "string" },
  status: { type: "string" },
  "daily-cap": { type: "string" },
  "monthly-cap": { type: "string" },
  "opra-agreement": { type: "string" },
  account: { type: "string" },
  "expires-in-days": { type: "string" },
  ledger: { type: "string" },
} as const;

function nonNegativeInt(flag: string, raw: string): number {
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--${flag} must be a non-negative integer, got "${raw}".`);
  }
  return Number(raw);
}

function cap(flag: string, raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  return raw.trim().toLowerCase() === "none" ? null : nonNegativeInt(flag, raw);
}

function planFlag(raw: string | undefined): Plan | undefined {
  if (raw === undefined) return undefined;
  if (!isPlan(raw)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")}; got "${raw}".`);
  return raw;
}

function statusFlag(raw: string | undefined): AccountStatus | undefined {
  if (raw === undefined) return undefined;
  if (!(ACCOUNT_STATUSES as readonly string[]).includes(raw)) {
    throw new UsageError(`--status must be one of ${ACCOUNT_STATUSES.join(", ")}; got "${raw}".`);
  }
  return raw as AccountStatus;
}

function opraFlag(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === "signed") return true;
  if (raw === "unsigned") return false;
  throw new UsageError(`--opra-agreement must be signed or unsigned; got "${raw}".`);
}

function describe(d: AccountDetails): string {
  const capText = (v: number | null) => (v == null ? "none" : `${v} credits`);
  const lines = [
    `Account ${d.accountId}${d.label ? ` (${d.label})` : ""}`,
    `  plan:            ${d.plan}`,
    `  status:          ${d.status}`,
    `  balance:         ${d.creditsBalance} credits (ledger sum ${d.ledgerSumCredits})`,
    `  daily cap:       ${capText(d.dailyCapCredits)}, used today ${d.usedTodayCredits}`,
    `  monthly cap:     ${capText(d.monthlyCapCredits)}, used this month ${d.usedThisMonthCredits}`,
    `  OPRA agreement:  ${d.opraAgreement ? "signed" : "unsigned"}`,
    `  created:         ${d.createdAt}`,
    `  keys:`,
    ...d.keys.map((k) => `    ${k.keyId}  ${k.prefix}...  ${k.state}${k.expiresAt ? `  expires ${k.expiresAt}` : ""}`),
  ];
  if (d.keys.length === 0) lines.push("    (none)");
  return lines.join("\n") + "\n";
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`Expected exactly one ${what}.`);
  return positionals[0];
}

/**
 * Run an `account` or `key` command. `argv` starts at the command group (`["account", "create",
 * "--plan", "top"]`). Resolves to the process exit code; never calls `process.exit`.
 * @example await runAccountsCli(["key", "revoke", "key_abc"], process.env) // 0
 * `key revoke` exits 3 when the key is revoked but its OAuth grants could not be marked revoked
 * after a few retries, naming the command to run again (docs/operations.md#key-revocation-and-its-oauth-grants).
 */
export async function runAccountsCli(argv: string[], env: Record<string, string | undefined>, io: CliIo = processIo, options: AccountsCliOptions = {}): Promise<number> {
  const output = cliOutput(io, argv);
  const { out, fail } = output;
  let service: CliStore | null = null;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    output.json = values.json ?? false;
    const [group, command, ...rest] = positionals;
    if (values.help || !group) {
      io.stdout(ACCOUNTS_CLI_USAGE);
      return values.help ? EXIT_OK : EXIT_USAGE;
    }
    const key = `${group} ${command ?? ""}`.trim();
    const known = ["account create", "account set", "account show", "account list", "account verify", "key create", "key revoke"];
    if (!known.includes(key)) throw new UsageError(`Unknown command "${key}".`);

    // Validate every flag before touching the store.
    const plan = planFlag(values.plan);
    const status = statusFlag(values.status);
    const credits = values.credits === undefined ? undefined : nonNegativeInt("credits", values.credits);
    const addCredits = values["add-credits"] === undefined ? undefined : nonNegativeInt("add-credits", values["add-credits"]);
    const dailyCap = cap("daily-cap", values["daily-cap"]);
    const monthlyCap = cap("monthly-cap", values["monthly-cap"]);
    const opra = opraFlag(values["opra-agreement"]);
    const expiresDays = values["expires-in-days"] === undefined ? undefined : nonNegativeInt("expires-in-days", values["expires-in-days"]);
    const ledgerRows = values.ledger === undefined ? 0 : nonNegativeInt("ledger", values.ledger);

    const dataDir = resolveDataDir(values["data-dir"], env);
    const storeUrl = resolveStoreUrl(values.store, env);
    const open = async (): Promise<CliStore> => (service = await openAccountStore({ storeUrl, dataDir }));

    switch (key) {
      case "account create": {
        if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`);
        if (!plan) throw new UsageError(`account create needs --plan (${PLANS.join(", ")}).`);
        const s = await open();
        const created = await s.createAccount({
          plan,
          credits,
          label: values.label,
          dailyCapCredits: dailyCap,
          monthlyCapCredits: monthlyCap,
          opraAgreement: opra,
          status,
        });
        const balance = await s.balance(created.accountId);
        out(
          { accountId: created.accountId, key: created.key, keyId: created.keyId },
          `Created account ${created.accountId} (plan ${plan}, ${balance} credits).\nAPI key (shown once, store it now): ${created.key}\n`,
        );
        return EXIT_OK;
      }
      case "account set": {
        const id = one(rest, "account id");
        if ([status, credits, addCredits, dailyCap, monthlyCap, plan, opra, values.label].every((v) => v === undefined)) {
          throw new UsageError("account set needs at least one of --status, --credits, --add-credits, --daily-cap, --monthly-cap, --plan, --opra-agreement, --label.");
        }
        const d = await (await open()).updateAccount(id, {
          status,
          credits,
          addCredits,
          dailyCapCredits: dailyCap,
          monthlyCapCredits: monthlyCap,
          plan,
          opraAgreement: opra,
          label: values.label,
        });
        out(d, describe(d));
        return EXIT_OK;
      }
      case "account show": {
        const id = one(rest, "account id");
        const s = await open();
        const d = await s.getAccount(id);
        const ledger = ledgerRows > 0 ? await s.ledger(id, { limit: ledgerRows }) : undefined;
        const ledgerText = ledger
          ? "  ledger (newest first):\n" +
            ledger
              .map(
                (e) => `    #${e.id} ${new Date(e.tsMs).toISOString()} ${e.kind} ${e.delta > 0 ? "+" : ""}${e.delta} -> ${e.balanceAfter}${e.route ? ` ${e.route}` : ""}`,
              )
              .join("\n") +
            "\n"
          : "";
        out(ledger ? { ...d, ledger } : d, describe(d) + ledgerText);
        return EXIT_OK;
      }
      case "account list": {
        if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`);
        const all = await (await open()).listAccounts();
        out(
          all,
          all.length === 0
            ? "No accounts.\n"
            : all.map((d) => `${d.accountId}  ${d.plan.padEnd(9)}  ${d.status.padEnd(9)}  ${d.creditsBalance} credits${d.label ? `  (${d.label})` : ""}`).join("\n") +
                "\n",
        );
        return EXIT_OK;
      }
      case "account verify": {
        const mismatches = await (await open()).verifyLedger();
        out(
          { ok: mismatches.length === 0, mismatches },
          mismatches.length === 0
            ? "Every balance equals its ledger sum.\n"
            : mismatches.map((m) => `MISMATCH ${m.accountId}: balance ${m.balance}, ledger ${m.ledgerSum}`).join("\n") + "\n",
        );
        return mismatches.length === 0 ? EXIT_OK : EXIT_FAILED;
      }
      case "key create": {
        if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`);
        if (!values.account) throw new UsageError("key create needs --account ID.");
        const s = await open();
        const expiresAtMs = expiresDays === undefined ? null : Date.now() + expiresDays * 86_400_000;
        const k = await s.createKey(values.account, { expiresAtMs });
        out({ accountId: values.account, keyId: k.keyId, key: k.key }, `Created key ${k.keyId} for ${values.account}.\nAPI key (shown once, store it now): ${k.key}\n`);
        return EXIT_OK;
      }
      case "key revoke": {
        const s = await open();
        const r = await s.revokeKey(one(rest, "key or key id"));
        const keyText = r.alreadyRevoked ? `Key ${r.keyId} was already revoked.` : `Revoked key ${r.keyId} of ${r.accountId}.`;
        // The key's OAuth grants already fail their checks; marking them revoked shows it in `apps list`.
        const grants = await revokeKeyGrants(s.openOAuthStore(), r.keyId, options.grantRetryMs);
        if (grants.done) {
          out(
            { ...r, oauthTokensRevoked: grants.tokensRevoked, oauthGrants: "revoked" },
            keyText + (grants.tokensRevoked > 0 ? ` Revoked ${grants.tokensRevoked} OAuth tokens signed in with it.` : "") + "\n",
          );
          return EXIT_OK;
        }
        // Half done: say exactly what stands, and what to run to finish it.
        const again = keyRevokeCommand(r.keyId, values);
        out({ ...r, oauthTokensRevoked: null, oauthGrants: "failed", retryCommand: again }, keyText + "\n");
        return fail(
          EXIT_STORE,
          "oauth_grants_not_revoked",
          `Key ${r.keyId} is revoked: it no longer authenticates, and the tool endpoint refuses OAuth tokens signed in with it. ` +
            `Marking those tokens revoked failed ${grants.attempts} times (${errorText(grants.error)}), so \`apps list\` may still show them live. ` +
            `Run again once the store is reachable (safe to repeat): ${again}`,
        );
      }
    }
    throw new UsageError(`Unknown command "${key}".`);
  } catch (error) {
    if (isUsageError(error)) {
      return fail(EXIT_USAGE, "usage", `${(error as Error).message}\n\n${ACCOUNTS_CLI_USAGE}`);
    }
    if (isApiError(error)) {
      return fail(error.status === 503 ? EXIT_STORE : EXIT_FAILED, error.code, error.message);
    }
    return fail(EXIT_STORE, "store_error", `The accounts store could not be used: ${(error as Error).message}`);
  } finally {
    await (service as CliStore | null)?.close();
  }
}
