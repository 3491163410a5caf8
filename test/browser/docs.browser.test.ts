// Issue 34: the API reference at /docs as a person sees it in headless Chromium: Redoc, sent by
// this server, renders every operation of the base document with its response example, loads
// nothing from another origin and breaks no rule of the page's Content-Security-Policy.
// Screenshot: docs/screenshots/docs.png with UPDATE_SCREENSHOTS=1.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { openAccountService } from "../../server/accounts";
import { screenshotsDir, simulatedApp, usePageServer } from "./_page-server";

const WEDNESDAY_MS = Date.parse("2024-03-06T19:00:00Z");

describe("/docs in headless Chromium", () => {
  const accounts = openAccountService({ dbPath: ":memory:" });
  const ctx = usePageServer(() => simulatedApp({ now: WEDNESDAY_MS, accounts }), { afterClose: () => accounts.close() });

  it("renders every operation with its example, from this origin only, within the CSP", async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1366, height: 768 } });
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (!["data:", "blob:"].includes(url.protocol) && url.origin !== new URL(ctx.server.url).origin) foreign.push(r.url());
    });
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(`${ctx.server.url}/docs`);
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 60_000 });
    const doc = (await (await fetch(`${ctx.server.url}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    const rendered = await page.$$eval('[data-section-id^="operation/"]', (els) => new Set(els.map((e) => e.getAttribute("data-section-id"))).size);
    expect(rendered).toBe(operations);
    // The heatmap operation's response sample is the simulated market's answer (SPY, in the example file).
    await page.goto(`${ctx.server.url}/docs#operation/getHeatmap`);
    await page.waitForSelector('[data-section-id="operation/getHeatmap"]');
    const section = await page.textContent('[data-section-id="operation/getHeatmap"]');
    expect(section).toContain("/v1/heatmap?symbols=SPY");
    await page.screenshot({ path: resolve(screenshotsDir(), "docs.png") });
    expect(foreign).toEqual([]);
    expect(problems.filter((p) => /Content.Security.Policy|Refused/i.test(p))).toEqual([]);
    await page.close();
  });
});
