// `optionscope console link|sign-out` and `optionscope invite create|list`, in process over a
// store file; and the whole onboarding against a real `optionscope serve` process.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountsDbPath, openAccountService } from "../../../server/accounts";
import { runConsoleCli } from "../../../server/cli/console-cli";
import { createConsoleService } from "../../../server/console";

let dir: string;
let env: Record<string, string>;

async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runConsoleCli(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "osc-console-cli-"));
  env = { OPTIONSCOPE_DATA_DIR: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("optionscope console", () => {
  it("link prints a one-time URL with the token in the fragment; the link signs in once", async () => {
    const accounts = openAccountService({ dbPath: accountsDbPath(dir) });
    const { accountId } = accounts.createAccount({ plan: "api" });
    const r = await cli("console", "link", "--account", accountId, "--base-url", "https://api.example.com/", "--expires-in-hours", "2", "--json");
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { url: string; expiresAt: string };
    expect(out.url).toMatch(/^https:\/\/api\.example\.com\/console#setup=oscl_[0-9A-Za-z]{43}$/);
    const hours = (Date.parse(out.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.99);
    expect(hours).toBeLessThanOrEqual(2);

    const service = createConsoleService({ accounts, passwordCost: { N: 1024, r: 8, p: 1 } });
    const token = out.url.split("#setup=")[1]!;
    const opened = await service.setUp({ token, password: "a long password!" }, "127.0.0.1");
    expect(opened.accountId).toBe(accountId);
    await expect(service.setUp({ token, password: "a long password!" }, "127.0.0.1")).rejects.toMatchObject({ status: 404, code: "link_not_found" });

    const ended = await cli("console", "sign-out", "--account", accountId, "--json");
    expect(JSON.parse(ended.stdout)).toEqual({ accountId, sessionsEnded: 1 });
    expect(await service.session(opened.sessionId)).toBeNull();
    accounts.close();
  });

  it("refuses an unknown account (exit 1) and bad flags (exit 2, naming the flag)", async () => {
    const unknown = await cli("console", "link", "--account", "acct_nope", "--json");
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr).error.code).toBe("account_not_found");
    const cases: [string[], RegExp][] = [
      [["console", "link"], /--account/],
      [["console", "link", "--account", "a", "--base-url", "ftp://x"], /--base-url/],
      [["console", "link", "--account", "a", "--expires-in-hours", "0"], /--expires-in-hours/],
      [["invite", "create", "--plan", "gold"], /--plan must be one of top, api, index-etf, flow, invite/],
      [["invite", "create", "--count", "101"], /--count/],
      [["invite", "create", "--credits", "-5"], /--credits/],
      [["invite", "redeem"], /Unknown command "invite redeem"/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe("optionscope invite", () => {
  it("create shows codes once; list shows their plan, credits and state, never the codes", async () => {
    const made = await cli("invite", "create", "--plan", "api", "--credits", "500", "--count", "2", "--label", "beta", "--expires-in-days", "7", "--json");
    expect(made.code, made.stderr).toBe(0);
    const { invites } = JSON.parse(made.stdout) as { invites: { code: string; inviteId: string; plan: string; credits: number; state: string; expiresAt: string }[] };
    expect(invites).toHaveLength(2);
    expect(new Set(invites.map((i) => i.code)).size).toBe(2);
    for (const i of invites) expect(i).toMatchObject({ plan: "api", credits: 500, state: "open" });
    expect(Math.round((Date.parse(invites[0]!.expiresAt) - Date.now()) / 86_400_000)).toBe(7);

    const listed = await cli("invite", "list");
    expect(listed.code).toBe(0);
    for (const i of invites) {
      expect(listed.stdout).toContain(i.inviteId);
      expect(listed.stdout).not.toContain(i.code);
    }
    expect(listed.stdout).toMatch(/INVITE_ID\s+CODE\s+PLAN\s+CREDITS\s+STATE/);
    expect((await cli("invite", "create", "--credits", "0", "--json")).code).toBe(0);
  });
});

describe("npm start serves the console (real process)", () => {
  it("the host prints a link; the customer sets a password, creates a key and uses it, without the host", async () => {
    const procEnv = { ...process.env, OPTIONSCOPE_DATA_DIR: dir, OPTIONSCOPE_NOW: "2024-03-06T15:00:00Z", PORT: "0" };
    // No daily fill: the console reads none of it, and its worker would compute the whole universe's
    // history beside the test (serve's fill is test/server/daily-store/serve-fill.test.ts's).
    const child = spawn(process.execPath, ["bin/optionscope.mjs", "serve", "--hostname", "127.0.0.1", "--no-access-log", "--no-daily-fill"], { env: procEnv });
    try {
      let stderr = "";
      const consoleUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no console line:\n${stderr}`)), 60_000);
        child.stderr.on("data", (d) => {
          stderr += d;
          const m = /developer console (\S+)\/console/.exec(stderr);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
      });
      const run = (...argv: string[]) => {
        const r = spawnSync(process.execPath, ["bin/optionscope.mjs", ...argv, "--json"], { env: procEnv, encoding: "utf8" });
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(r.stdout);
      };
      const { accountId } = run("account", "create", "--plan", "api");
      const { url } = run("console", "link", "--account", accountId, "--base-url", consoleUrl);
      expect((await fetch(`${consoleUrl}/console`)).status).toBe(200);

      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${consoleUrl}/console/api${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: consoleUrl, ...headers },
          body: JSON.stringify(body),
        });
      const setup = await post("/setup", { token: url.split("#setup=")[1], password: "customer's own password" });
      expect(setup.status).toBe(200);
      const cookie = setup.headers.get("set-cookie")!.split(";")[0]!;
      const { csrfToken } = (await setup.json()) as { csrfToken: string };
      const made = await post("/keys", {}, { Cookie: cookie, "X-CSRF-Token": csrfToken });
      expect(made.status).toBe(201);
      const { key } = (await made.json()) as { key: string };
      expect((await fetch(`${consoleUrl}/v1/account`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
      // The password (hashed at the production scrypt cost) signs in again later.
      const again = await post("/sign-in", { accountId, password: "customer's own password" });
      expect(again.status).toBe(200);
    } finally {
      const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exit).toBe(0);
    }
  }, 120_000);
});
