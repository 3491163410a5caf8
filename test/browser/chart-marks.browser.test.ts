// Marks on the chart page in headless Chromium against a real listening server: the page draws the
// API's /v1/marks and /v1/timescale_marks as markers on the candles and as links to the minute's
// heatmap, and following a link opens that heatmap. Screenshot for the README:
// docs/screenshots/chart-marks.png with UPDATE_SCREENSHOTS=1 (screenshotsDir).
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openAccountService } from "../../server/accounts";
import { CHART_COUNTBACK } from "../../server/web";
import { screenshotsDir, simulatedApp, usePageServer } from "./_page-server";

const ARTIFACTS = resolve(__dirname, "../../test-artifacts");
const SCREENSHOTS = screenshotsDir();
const NOW_MS = Date.parse("2024-03-06T20:30:00Z"); // Wednesday 15:30 EST

describe("chart marks in headless Chromium", () => {
  const accounts = openAccountService({ dbPath: ":memory:" });
  const key = accounts.createAccount({ plan: "top", credits: 10_000 }).key;
  const ctx = usePageServer(() => simulatedApp({ now: NOW_MS, accounts }));

  beforeAll(() => {
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  /** What the API says for the page's own window: the bars' first start to server time + 60 s. */
  async function apiMarks(): Promise<{ id: string; time: number; url: string }[]> {
    const auth = { headers: { Authorization: `Bearer ${key}` } };
    const to = Math.floor(NOW_MS / 1000) + 60;
    const hq = new URLSearchParams({ symbol: "SPY", resolution: "5", from: String(to - 1), to: String(to), countback: String(CHART_COUNTBACK), extended: "false" });
    const bars = (await (await fetch(`${ctx.server.url}/atlas/v1/history?${hq}`, auth)).json()) as { t: number[] };
    const q = new URLSearchParams({ symbol: "SPY", resolution: "5", from: String(bars.t[0]), to: String(to) });
    const marks = await (await fetch(`${ctx.server.url}/atlas/v1/marks?${q}`, auth)).json();
    const scale = await (await fetch(`${ctx.server.url}/atlas/v1/timescale_marks?${q}`, auth)).json();
    return [...marks, ...scale];
  }

  it("draws the API's marks on 5-minute SPY candles, each a link to the minute's heatmap", async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1200, height: 700 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto(`${ctx.server.url}/atlas/chart?symbol=SPY&resolution=5#key=${key}`);
    await page.waitForSelector("#chart[data-marks-drawn]", { timeout: 90_000 });
    expect(await page.getAttribute("#chart", "data-marks-error")).toBeNull();
    const expected = await apiMarks();
    expect(expected.length).toBeGreaterThan(0);
    expect(Number(await page.getAttribute("#chart", "data-marks-drawn"))).toBe(expected.length);
    const links = page.locator("#marks a");
    expect(await links.count()).toBe(expected.length);
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(expected.map((m) => m.url));
    await page.screenshot({ path: resolve(ARTIFACTS, "chart-spy-5min-marks.png") });
    await page.screenshot({ path: resolve(SCREENSHOTS, "chart-marks.png"), fullPage: true });

    // Following a mark opens the heatmap page at that minute.
    const first = expected[0];
    await links.first().click();
    await page.waitForURL((u) => u.pathname === "/heatmap", { timeout: 30_000 });
    const url = new URL(page.url());
    expect(url.searchParams.get("symbol")).toBe("SPY");
    expect(url.searchParams.get("at")).toBe(new Date(first.time * 1000).toISOString().replace(".000Z", "Z"));
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
