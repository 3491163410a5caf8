// The console page when a key's revocation succeeds and its OAuth grants' revocation fails (the
// OAuth store's SQLite database closed under it): the key shows as revoked, and the page tells the
// customer that the key is revoked and the grants are being retried, instead of an error that
// would suggest nothing happened.
import { openSqlite, type Sqlite } from "../../server/sqlite";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAccountService, type SqliteAccountService } from "../../server/accounts";
import { hashPassword } from "../../server/accounts/password-hash";
import { createApp } from "../../server/app";
import { createConsoleApp, createConsoleService, type ConsoleService } from "../../server/console";
import { listen, type Listening } from "../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../server/limits";
import { openOAuthStore } from "../../server/oauth/oauth-store";
import { sharedChromium } from "../_helpers/shared-chromium";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const NOW_MS = Date.parse("2024-03-06T19:00:00Z");
const PASSWORD = "a long console password";
const COST = { N: 1024, r: 8, p: 1 };

describe("console key revocation with a failing OAuth store, in headless Chromium", () => {
  let server: Listening;
  let browser: Browser;
  let accounts: SqliteAccountService;
  let oauthDb: Sqlite;
  let service: ConsoleService;

  beforeAll(async () => {
    accounts = openAccountService({ dbPath: ":memory:" });
    oauthDb = openSqlite(":memory:");
    service = createConsoleService({ accounts, oauth: openOAuthStore(oauthDb), passwordCost: COST, grantRevocationRetryMs: [600_000] });
    const app = createApp({
      market: simulatedMarketAt(42, NOW_MS),
      accounts,
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      toolServer: false,
      console: createConsoleApp({ service }),
    });
    server = await listen(app, { port: 0 });
    browser = await sharedChromium(); // the worker's, kept open for its next file
  }, 120_000);

  afterAll(async () => {
    service?.close();
    await server?.close(true);
    accounts?.close();
  });

  it("shows the key revoked and the note that its OAuth grants are being retried", async () => {
    const created = accounts.createAccount({ plan: "top", credits: 100 });
    await service.store.setPasswordHash(created.accountId, await hashPassword(PASSWORD, COST));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("dialog", (d) => void d.accept());
    await page.goto(`${server.url}/console`);
    await page.fill("#sign-in-account", created.accountId);
    await page.fill("#sign-in-password", PASSWORD);
    await page.click('#sign-in-form button[type="submit"]');
    await page.waitForSelector('#tab-overview[data-state="ready"]', { timeout: 30_000 });
    await page.click("#tab-btn-keys");
    await page.waitForSelector(`#keys-body tr[data-key-id="${created.keyId}"][data-key-state="active"]`, { timeout: 30_000 });

    oauthDb.close(); // the OAuth store now fails every call
    await page.click(`button[data-revoke-key="${created.keyId}"]`);
    await page.waitForSelector(`#keys-body tr[data-key-id="${created.keyId}"][data-key-state="revoked"]`, { timeout: 30_000 });
    const note = (await page.textContent("#tab-error")) ?? "";
    expect(note).toMatch(/key is revoked/i);
    expect(note).toMatch(/retried in the background/i);
    expect(service.pendingGrantRevocations()).toEqual([created.keyId]);
    expect(errors).toEqual([]);
  }, 60_000);
});
