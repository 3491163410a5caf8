// Issue 17: the heatmap page's key errors in live mode (no `?at=`), in headless Chromium against a
// real listening server. Live mode follows the positioning stream, whose first snapshot asks for
// the board again: once the board is refused (401/402/403) the page must keep saying why, start
// nothing by itself (no second board, no stream) and charge nothing; a later successful load, on
// the user's action, replaces the message and resumes following (docs/methodology.md, "Heatmap
// page states").
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { openAccountService } from "../../../server/accounts";
import { buildBrowserBundle } from "../../../server/web/bundle";
import { HEATMAP_SCRIPT } from "../../../server/web/page-scripts";
import { simulatedApp, usePageServer } from "../../browser/_page-server";

const NOW_MS = Date.parse("2024-03-06T19:00:00Z"); // Wednesday 14:00 EST, inside the session
/** No request starts or ends for this long: whatever the page does by itself has been done. */
const QUIET_MS = 2_000;

type Shown = { state: string; status: string; error: boolean };

/**
 * Runs before the page's scripts: records every (state, status) pair the page shows, in order
 * (a MutationObserver sees them after each task, as a user or a screen reader would).
 */
const RECORDER = () => {
  const seen: Shown[] = [];
  (window as any).__seen = seen;
  const record = () => {
    const status = document.getElementById("status");
    const shown = { state: document.getElementById("board")?.dataset.state ?? "", status: status?.textContent ?? "", error: status?.className === "error" };
    const last = seen[seen.length - 1];
    if (!last || last.state !== shown.state || last.status !== shown.status || last.error !== shown.error) seen.push(shown);
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
};

/** A page on the server in live mode, with its API requests logged and the time of its last network event. */
interface Visit {
  page: Page;
  requests: string[];
  lastNetworkMs: number;
}

describe("heatmap page key errors, live mode", () => {
  const accounts = openAccountService({ dbPath: ":memory:" });
  const ctx = usePageServer(() => simulatedApp({ now: NOW_MS, accounts }));

  beforeAll(async () => {
    // The page under test is the current source: the served script is what esbuild makes of the
    // entry now (not a prebuilt file, not a stale disk cache).
    const served = await fetch(`${ctx.server.url}/heatmap/app.js`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(await buildBrowserBundle(HEATMAP_SCRIPT.entry));
  }, 120_000);

  async function visit(key: string, query = "symbol=SPY"): Promise<Visit> {
    const page = await ctx.browser.newPage();
    await page.addInitScript(RECORDER);
    const v: Visit = { page, requests: [], lastNetworkMs: Date.now() };
    const touch = () => (v.lastNetworkMs = Date.now());
    page.on("request", (r) => {
      touch();
      const url = new URL(r.url());
      if (url.pathname.startsWith("/v1/")) v.requests.push(`${url.pathname}?${url.searchParams}`);
    });
    page.on("response", touch);
    page.on("requestfinished", touch);
    page.on("requestfailed", touch);
    await page.goto(`${ctx.server.url}/heatmap?${query}${key ? `#key=${key}` : ""}`);
    return v;
  }

  /** Waits until the page shows `state` with a status matching `message` (both at once). */
  async function waitShown(v: Visit, state: string, message: RegExp) {
    await v.page
      .waitForFunction(
        ([state, source]) => document.getElementById("board")?.dataset.state === state && new RegExp(source).test(document.getElementById("status")?.textContent ?? ""),
        [state, message.source] as const,
        { timeout: 30_000 },
      )
      .catch(() => undefined); // the assertions below say what the page shows instead
    expect(await v.page.getAttribute("#board", "data-state")).toBe(state);
    expect(await v.page.textContent("#status")).toMatch(message);
  }

  /** Waits until no request has started or ended for QUIET_MS. */
  async function waitQuiet(v: Visit) {
    const deadline = Date.now() + 30_000;
    while (Date.now() - v.lastNetworkMs < QUIET_MS) {
      expect(Date.now(), "the page's network never went quiet").toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const seenBy = (v: Visit) => v.page.evaluate(() => (window as any).__seen as Shown[]);

  /**
   * The refusal stands: shown with its message (as an error), never replaced by a reload, and
   * the page asked for nothing more (one board, the boot script's; no stream).
   */
  async function expectRefusalStands(v: Visit, message: RegExp) {
    await waitShown(v, "needs-key", message);
    await waitQuiet(v);
    const seen = await seenBy(v);
    const first = seen.findIndex((s) => s.state === "needs-key");
    const after = seen.slice(first);
    expect(after.length, JSON.stringify(seen)).toBeGreaterThan(0);
    for (const s of after) {
      expect(s.state, JSON.stringify(seen)).toBe("needs-key");
      expect(s.status).toMatch(message);
      expect(s.error).toBe(true);
    }
    expect(after.map((s) => s.status).filter((s, i, all) => all.indexOf(s) === i)).toHaveLength(1);
    expect(await v.page.getAttribute("#board", "data-state")).toBe("needs-key");
    expect(await v.page.textContent("#status")).toMatch(message);
    expect(v.requests.filter((r) => r.startsWith("/v1/board"))).toEqual(["/v1/board?symbol=SPY"]);
    expect(v.requests.filter((r) => r.startsWith("/v1/stream"))).toEqual([]);
    expect(await v.page.isChecked("#live")).toBe(true); // the user's choice stays; the page just does not follow
  }

  it("3 credits (enough for the stream, not for the 5-credit board): out of credits, stands, nothing charged", async () => {
    const { accountId, key } = accounts.createAccount({ plan: "top", credits: 3 });
    const v = await visit(key);
    await expectRefusalStands(v, /^Out of credits \(insufficient_credits\): .*costs 5 credits; the balance is 3\./);
    expect(accounts.balance(accountId)).toBe(3);
    await v.page.close();
  });

  it("0 credits: out of credits, stands, nothing charged", async () => {
    const { accountId, key } = accounts.createAccount({ plan: "top", credits: 0 });
    const v = await visit(key);
    await expectRefusalStands(v, /^Out of credits \(insufficient_credits\): .*the balance is 0\./);
    expect(accounts.balance(accountId)).toBe(0);
    await v.page.close();
  });

  it("no key (401): asks for one, stands", async () => {
    const v = await visit("");
    await expectRefusalStands(v, /^No API key: paste your key above/);
    expect(await v.page.getAttribute("#board", "data-error-code")).toBe("unauthorized");
    await v.page.close();
  });

  it("a key that is not valid (403 forbidden): says so, stands", async () => {
    const v = await visit("os_live_not_a_real_key_000000000000");
    await expectRefusalStands(v, /^This API key is not valid/);
    expect(await v.page.getAttribute("#board", "data-error-code")).toBe("forbidden");
    await v.page.close();
  });

  it("a later successful load (the user picks a symbol after a top-up) replaces the message and resumes following", async () => {
    const { accountId, key } = accounts.createAccount({ plan: "top", credits: 3 });
    const v = await visit(key);
    await expectRefusalStands(v, /^Out of credits/);
    // The symbol list loads after the first board settles, refused or not.
    await v.page.waitForSelector('#symbol option[value="QQQ"]', { state: "attached", timeout: 30_000 });
    accounts.updateAccount(accountId, { credits: 10_000 });
    await v.page.selectOption("#symbol", "QQQ");
    await waitShown(v, "ready", /^QQQ board of 2024-03-06 14:00 ET: \d+ contracts$/);
    expect(await v.page.getAttribute("#status", "class")).toBe("");
    // Live again, on the symbol now shown.
    const streamed = () => v.requests.filter((r) => r.startsWith("/v1/stream")).map((r) => new URL(r, ctx.server.url).searchParams.get("symbols"));
    await expect.poll(streamed, { timeout: 30_000 }).toEqual(["QQQ"]);
    await v.page.close();
  });

  it("a refused session history, loaded after a top-up, gives the board back its ready state and resumes following", async () => {
    // 10 credits buy the 5-credit board but not the 25-credit history loaded with it.
    const { accountId, key } = accounts.createAccount({ plan: "top", credits: 10 });
    const v = await visit(key);
    await waitShown(v, "needs-key", /^Out of credits \(insufficient_credits\)/);
    await waitQuiet(v);
    expect(v.requests.filter((r) => r.startsWith("/v1/stream"))).toEqual([]);
    accounts.updateAccount(accountId, { credits: 10_000 });
    await v.page.click("#history-load");
    await waitShown(v, "ready", /^SPY board of 2024-03-06 14:00 ET: \d+ contracts$/);
    expect(Number(await v.page.getAttribute("#session", "data-frames"))).toBeGreaterThan(1);
    const streamed = () => v.requests.filter((r) => r.startsWith("/v1/stream")).length;
    await expect.poll(streamed, { timeout: 30_000 }).toBe(1);
    await v.page.close();
  });
});
