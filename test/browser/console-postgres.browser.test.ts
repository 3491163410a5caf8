// The developer console in headless Chromium on the PostgreSQL store, served by two instances
// (two apps, two pools, one database): the host onboards a customer with the CLI against the
// store (OPTIONSCOPE_STORE), the customer signs in through the one-time link on instance A,
// carries the session to instance B (cookies ignore the port), creates a key there, sees it
// listed on A, and revokes it (the next API call is 403).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openAccountStore, type AccountStore } from "../../server/accounts";
import { runAccountsCli } from "../../server/cli";
import { runConsoleCli } from "../../server/cli/console-cli";
import { createConsoleApp, createConsoleService } from "../../server/console";
import { startPostgres, type PostgresProcess } from "../_services/postgres-server";
import { simulatedApp, usePageServer } from "./_page-server";
import { cliJson } from "../_cli-json";

const NOW_MS = Date.parse("2024-03-06T19:00:00Z");
const PASSWORD = "a long console password";

describe("developer console on PostgreSQL, two instances, in headless Chromium", () => {
  let pg: PostgresProcess;
  let dir: string;
  let env: Record<string, string>;
  const stores: AccountStore[] = [];
  // Two apps, two pools, one database.
  const ctx = usePageServer(
    async () => {
      pg = await startPostgres();
      dir = mkdtempSync(join(tmpdir(), "osc-console-pg-"));
      env = { OPTIONSCOPE_DATA_DIR: dir, OPTIONSCOPE_STORE: pg.url };
      for (let i = 0; i < 2; i++) stores.push(await openAccountStore({ storeUrl: pg.url, dataDir: dir }));
      return stores.map((accounts) => {
        const service = createConsoleService({ accounts, passwordCost: { N: 1024, r: 8, p: 1 } });
        return simulatedApp({ now: NOW_MS, accounts, console: createConsoleApp({ service }) });
      });
    },
    {
      async afterClose() {
        for (const accounts of stores) await accounts.close();
        await pg?.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    },
  );

  const tab = async (page: Page, name: string) => {
    await page.click(`#tab-btn-${name}`);
    await page.waitForSelector(`#tab-${name}[data-state="ready"]`, { timeout: 30_000 });
  };

  it("signs in on one instance, creates a key on the other, sees it listed, and revokes it", async () => {
    const [a, b] = ctx.servers.map((server, i) => ({ server, accounts: stores[i]! }));
    if (!a || !b) throw new Error("two instances expected");
    const created = await cliJson(runAccountsCli, ["account", "create", "--plan", "api", "--credits", "5000"], env);
    const link = await cliJson(runConsoleCli, ["console", "link", "--account", created.accountId, "--base-url", a.server.url], env);

    const page = await ctx.browser.newPage({ viewport: { width: 1100, height: 760 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("dialog", (d) => void d.accept());
    await page.goto(link.url);
    await page.waitForSelector("#setup-card:not([hidden])");
    await page.fill("#setup-password", PASSWORD);
    await page.click('#setup-form button[type="submit"]');
    await page.waitForSelector('#tab-overview[data-state="ready"]', { timeout: 30_000 });
    expect(await page.textContent("#who")).toBe(created.accountId);

    // The same browser session on instance B: signed in already (the session lives in PostgreSQL).
    await page.goto(`${b.server.url}/console`);
    await page.waitForSelector('#tab-overview[data-state="ready"]', { timeout: 30_000 });
    expect(await page.textContent("#who")).toBe(created.accountId);
    await tab(page, "keys");
    await page.click("#create-key");
    await page.waitForSelector("#new-key:not([hidden])");
    const key = (await page.textContent("#new-key-value"))!.trim();
    expect(key).toMatch(/^osk_live_[0-9A-Za-z]{43}$/);
    const onA = await fetch(`${a.server.url}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(onA.status).toBe(200);

    // Listed on instance A, then revoked there: the next call on B is 403.
    await page.goto(`${a.server.url}/console`);
    await page.waitForSelector('#tab-overview[data-state="ready"]', { timeout: 30_000 });
    await tab(page, "keys");
    const keyId = (await a.accounts.authenticate(`Bearer ${key}`)).keyId;
    await page.waitForSelector(`#keys-body tr[data-key-id="${keyId}"][data-key-state="active"]`);
    await page.click(`button[data-revoke-key="${keyId}"]`);
    await page.waitForSelector(`#keys-body tr[data-key-id="${keyId}"][data-key-state="revoked"]`);
    const onB = await fetch(`${b.server.url}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(onB.status).toBe(403);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
