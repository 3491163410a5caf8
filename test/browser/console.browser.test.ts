// The developer console in headless Chromium against a real listening server over a real store
// file: the host onboards a customer with the CLI (account, one-time link), the customer signs in
// through the link, creates a key and uses it on the API, revokes it (next call 403), sets a
// monthly cap (next call 402 monthly_cap_reached), and every tab is photographed into
// docs/screenshots/ with UPDATE_SCREENSHOTS=1 (the README shows one; screenshotsDir).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsDbPath, openAccountService, type SqliteAccountService } from "../../server/accounts";
import { createApp } from "../../server/app";
import { runAccountsCli } from "../../server/cli";
import { runConsoleCli } from "../../server/cli/console-cli";
import { createConsoleApp, createConsoleService, createKeyUseTracker, type KeyUseTracker } from "../../server/console";
import { listen, type Listening } from "../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../server/limits";
import { sharedChromium } from "../_helpers/shared-chromium";
import { screenshotsDir } from "./_page-server";
import { cliJson } from "../_cli-json";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const SHOTS = screenshotsDir();
const NOW_MS = Date.parse("2024-03-06T19:00:00Z"); // Wednesday 14:00 EST
const PASSWORD = "a long console password";
const HEATMAP = "/v1/heatmap?symbols=SPY";

describe("developer console in headless Chromium", () => {
  let dir: string;
  let env: Record<string, string>;
  let server: Listening;
  let browser: Browser;
  let accounts: SqliteAccountService;
  let keyUses: KeyUseTracker;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "osc-console-"));
    env = { OPTIONSCOPE_DATA_DIR: dir };
    accounts = openAccountService({ dbPath: accountsDbPath(dir) });
    keyUses = createKeyUseTracker((uses) => service.store.recordKeyUses(uses));
    // A cheap scrypt cost for the shared test machine; the code path is the production one.
    const service = createConsoleService({ accounts, passwordCost: { N: 1024, r: 8, p: 1 } });
    const app = createApp({
      market: simulatedMarketAt(42, NOW_MS),
      accounts: keyUses.wrap(accounts),
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      toolServer: false,
      console: createConsoleApp({ service }),
    });
    server = await listen(app, { port: 0 });
    browser = await sharedChromium(); // the worker's, kept open for its next file
  }, 120_000);

  afterAll(async () => {
    await server?.close(true);
    keyUses?.stop();
    accounts?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = (path: string, key: string) => fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const tab = async (page: Page, name: string) => {
    await page.click(`#tab-btn-${name}`);
    await page.waitForSelector(`#tab-${name}[data-state="ready"]`, { timeout: 30_000 });
  };
  const shot = (page: Page, name: string) => page.screenshot({ path: resolve(SHOTS, `console-${name}.png`), fullPage: true });

  it("onboards a customer who then manages keys and the monthly cap alone", async () => {
    // The host: an account and a one-time link, through the CLI, on the store the server uses.
    const created = await cliJson(runAccountsCli, ["account", "create", "--plan", "api", "--credits", "5000", "--label", "Acme"], env);
    const link = await cliJson(runConsoleCli, ["console", "link", "--account", created.accountId, "--base-url", server.url], env);
    expect(link.url).toMatch(new RegExp(`^${server.url}/console#setup=oscl_[0-9A-Za-z]{43}$`));
    // Some spend for the usage chart and a connected app for its tab.
    for (let i = 0; i < 4; i++) expect((await api(HEATMAP, created.key)).status).toBe(200);
    const oauth = accounts.openOAuthStore();
    const client = oauth.registerClient({ clientName: "Claude Desktop", redirectUris: ["http://127.0.0.1:33418/callback"], authMethod: "none", metadata: {} });
    oauth.connectApp({ accountId: created.accountId, clientId: client.clientId, resource: `${server.url}/mcp`, scope: "read" });
    keyUses.flush();

    const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("dialog", (d) => void d.accept());

    // The customer opens the link and chooses a password: signed in, the token gone from the URL.
    await page.goto(link.url);
    await page.waitForSelector("#setup-card:not([hidden])");
    await shot(page, "sign-in");
    await page.fill("#setup-password", PASSWORD);
    await page.click('#setup-form button[type="submit"]');
    await page.waitForSelector('#tab-overview[data-state="ready"]', { timeout: 30_000 });
    expect(page.url()).not.toContain("oscl_");
    expect(await page.textContent("#who")).toBe(created.accountId);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([["osc_session", true, "Strict"]]);
    expect(await page.evaluate(() => document.cookie)).toBe(""); // HttpOnly: scripts cannot read it
    expect(await page.textContent("#overview-list")).toContain("api");
    await shot(page, "overview");

    await tab(page, "usage");
    expect(await page.locator("#usage-chart rect").count()).toBe(30);
    // The store runs on wall time: the last bar is today (ET), where all the spend is.
    const today = Number(await page.locator("#usage-chart rect").last().getAttribute("data-credits"));
    expect(today).toBe(
      -accounts
        .ledger(created.accountId)
        .filter((e) => e.kind === "debit" || e.kind === "refund")
        .reduce((s, e) => s + e.delta, 0),
    );
    expect(await page.textContent("#usage-endpoints")).toContain("/v1/heatmap");
    await shot(page, "usage");

    // Create a key: shown once, works on the API.
    await tab(page, "keys");
    await page.click("#create-key");
    await page.waitForSelector("#new-key:not([hidden])");
    const key = (await page.textContent("#new-key-value"))!.trim();
    expect(key).toMatch(/^osk_live_[0-9A-Za-z]{43}$/);
    await page.waitForSelector('#keys-body tr[data-key-state="active"] >> nth=1');
    expect((await api("/v1/account", key)).status).toBe(200);
    await shot(page, "keys");
    // Revoke it in the page: the next call gets 403.
    const keyId = accounts.authenticate(`Bearer ${key}`).keyId;
    await page.click(`button[data-revoke-key="${keyId}"]`);
    await page.waitForSelector(`#keys-body tr[data-key-id="${keyId}"][data-key-state="revoked"]`);
    expect((await api("/v1/account", key)).status).toBe(403);

    await tab(page, "apps");
    expect(await page.textContent("#apps-body")).toContain("Claude Desktop");
    await shot(page, "apps");

    // An invite code the host made adds credits on the account's own plan.
    const invite = await cliJson(runConsoleCli, ["invite", "create", "--plan", "api", "--credits", "1000"], env);
    await tab(page, "invite");
    await page.fill("#invite-code", invite.invites[0].code);
    await page.click('#invite-form button[type="submit"]');
    await page.waitForFunction(() => document.getElementById("invite-result")!.textContent!.startsWith("Redeemed"));
    await shot(page, "invite");

    // A cap at this month's spend: the next paid call is refused with 402 monthly_cap_reached.
    await tab(page, "cap");
    const spent = accounts.getAccount(created.accountId).usedThisMonthCredits;
    await page.fill("#cap-value", String(spent));
    await page.click('#cap-form button[type="submit"]');
    await page.waitForSelector(`#cap-current[data-cap="${spent}"]`);
    const capped = await api(HEATMAP, created.key);
    expect(capped.status).toBe(402);
    expect(((await capped.json()) as { error: { code: string } }).error.code).toBe("monthly_cap_reached");
    await shot(page, "cap");
    await page.click("#cap-remove");
    await page.waitForSelector('#cap-current[data-cap="none"]');
    expect((await api(HEATMAP, created.key)).status).toBe(200);

    // Sign out, then back in with the password: no host involved.
    await page.click("#sign-out");
    await page.waitForSelector('body[data-session="signed-out"]');
    await page.fill("#sign-in-account", created.accountId);
    await page.fill("#sign-in-password", PASSWORD);
    await page.click('#sign-in-form button[type="submit"]');
    await page.waitForSelector('#tab-overview[data-state="ready"]', { timeout: 30_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
