// Issue 31: the chart and console pages' scripts are TypeScript bundles made like the heatmap's
// (server/web/bundle.ts): `npm run build` writes each one (scripts/build-page-scripts.ts), and
// each page loads its bundle as an external script, with no inline script for the CSP to allow.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPageScript } from "../../../scripts/build-page-scripts";
import type { ConsoleService } from "../../../server/console";
import { createConsoleApp } from "../../../server/console";
import type { AppServices } from "../../../server/services";
import { chartPages } from "../../../server/web";
import { loadBrowserAsset, servedAsset } from "../../../server/web/bundle";
import { CHART_SCRIPT, CONSOLE_SCRIPT, PAGE_SCRIPTS } from "../../../server/web/page-scripts";

const out = mkdtempSync(join(tmpdir(), "page-scripts-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Opening tags of the page's scripts that run inline (no `src`): the CSP allows none here. */
const inlineScripts = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !/\ssrc=/.test(tag));

const chartRoute = (path: string) => chartPages.find((p) => p.path === path)!;
// The chart page reads only whether the market is simulated; its script reads no services.
const services = { market: { simulated: true } } as AppServices;

describe("the page scripts' bundles", () => {
  it("npm run build writes each page's bundle to its own file, which the packaged server reads without esbuild", async () => {
    expect(new Set(PAGE_SCRIPTS.map((s) => s.prebuilt)).size).toBe(PAGE_SCRIPTS.length);
    for (const script of [CHART_SCRIPT, CONSOLE_SCRIPT]) {
      const { file } = await buildPageScript(script, out);
      expect(file).toBe(join(out, script.prebuilt));
      expect(existsSync(file)).toBe(true);
      // An entry that does not exist: any attempt to build instead of reading the file would fail.
      const asset = await loadBrowserAsset(file, join(out, "no-such-entry.ts"), join(out, "cache"));
      expect(asset.origin).toBe("prebuilt");
      expect(asset.js).toBe(readFileSync(file, "utf8"));
    }
  }, 60_000);

  it("/chart/app.js is the chart bundle, revalidated on each use; the page runs no inline script", async () => {
    const page = await chartRoute("/chart").handle(new Request("http://atlas.test/atlas/chart"), services);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self';");
    const html = await page.text();
    expect(inlineScripts(html)).toEqual([]);
    expect(html).toContain('<script src="/atlas/chart/app.js"></script>');

    const script = await chartRoute("/chart/app.js").handle(new Request("http://atlas.test/atlas/chart/app.js"), services);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("no-cache");
    expect(await script.text()).toBe((await servedAsset(CHART_SCRIPT)).js);
  }, 60_000);

  it("/console/app.js is the console bundle, never stored; the page runs no inline script", async () => {
    // Neither the page nor its script calls the service.
    const consoleFetch = createConsoleApp({ service: {} as ConsoleService });
    const page = await consoleFetch(new Request("http://console.test/console"));
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self';");
    const html = await page.text();
    expect(inlineScripts(html)).toEqual([]);
    expect(html).toContain('<script src="/console/app.js"></script>');

    const script = await consoleFetch(new Request("http://console.test/console/app.js"));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("no-store");
    expect(await script.text()).toBe((await servedAsset(CONSOLE_SCRIPT)).js);
  }, 60_000);
});
