// The chart page in headless Chromium against a real listening server: it loads with the key from
// the URL fragment, draws SPY candles from our own /v1/history (daily, then 5-minute via the
// resolution picker), labels the data as simulated, and leaves screenshots in test-artifacts/.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openAccountService } from "../../server/accounts";
import { CHART_COUNTBACK } from "../../server/web";
import { simulatedApp, usePageServer } from "./_page-server";

const ARTIFACTS = resolve(__dirname, "../../test-artifacts");
const NOW_MS = Date.parse("2024-03-06T19:00:00Z"); // Wednesday 14:00 EST

describe("chart page in headless Chromium", () => {
  const accounts = openAccountService({ dbPath: ":memory:" });
  const key = accounts.createAccount({ plan: "top", credits: 10_000 }).key;
  const ctx = usePageServer(() => simulatedApp({ now: NOW_MS, accounts }));

  beforeAll(() => {
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  /** Bars the API returns for the page's own request (to = server time + 60 s, countback). */
  async function apiBars(resolution: string): Promise<number> {
    const to = Math.floor(NOW_MS / 1000) + 60;
    const q = new URLSearchParams({ symbol: "SPY", resolution, from: String(to - 1), to: String(to), countback: String(CHART_COUNTBACK), extended: "false" });
    const res = await fetch(`${ctx.server.url}/atlas/v1/history?${q}`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { s: string; t: number[] };
    expect(body.s).toBe("ok");
    return body.t.length;
  }

  it("draws SPY daily and 5-minute candles from /v1/history", async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1200, height: 640 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });

    await page.goto(`${ctx.server.url}/atlas/chart?symbol=SPY&resolution=D#key=${key}`);
    await page.waitForSelector('#chart[data-state="ready"][data-resolution="D"]', { timeout: 30_000 });
    // The key left the address bar and lives in localStorage.
    expect(page.url()).not.toContain("key=");
    expect(await page.evaluate(() => localStorage.getItem("optionscope.apiKey"))).toBe(key);
    expect(await page.isVisible("#simulated-label")).toBe(true);
    expect(await page.textContent("#simulated-label")).toBe("Simulated market data");
    expect(await page.locator("#chart canvas").count()).toBeGreaterThan(0);
    const daily = Number(await page.getAttribute("#chart", "data-bars-drawn"));
    // Sessions from the simulator's first (2023-03-28) through 2024-03-06.
    expect(daily).toBe(await apiBars("D"));
    expect(daily).toBeGreaterThan(200);
    await page.screenshot({ path: resolve(ARTIFACTS, "chart-spy-daily.png") });

    await page.selectOption("#resolution", "5");
    await page.waitForSelector('#chart[data-state="ready"][data-resolution="5"]', { timeout: 30_000 });
    const fiveMin = Number(await page.getAttribute("#chart", "data-bars-drawn"));
    expect(fiveMin).toBe(CHART_COUNTBACK);
    expect(fiveMin).toBe(await apiBars("5"));
    expect(page.url()).toContain("resolution=5");
    await page.screenshot({ path: resolve(ARTIFACTS, "chart-spy-5min.png") });

    expect(errors).toEqual([]);
    await page.close();
  });

  it("asks for a key when none is stored, and shows the API's error for an unknown symbol", async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.server.url}/atlas/chart?symbol=SPY`);
    await page.waitForSelector('#chart[data-state="needs-key"]');
    await page.fill("#key", key);
    await page.click('#key-form button[type="submit"]');
    await page.waitForSelector('#chart[data-state="ready"]');
    await page.fill("#symbol", "NOPE");
    await page.press("#symbol", "Enter");
    await page.waitForSelector('#chart[data-state="error"]');
    expect(await page.textContent("#status")).toBe("symbol not found");
    await page.close();
  });
});
