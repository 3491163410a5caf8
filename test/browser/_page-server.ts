// What every page test in headless Chromium stands on: the app over the simulated market (seed 42)
// pinned at one instant, listening on a free loopback port, and the worker's Chromium (shared by the
// worker's browser files: test/_helpers/shared-chromium.ts). `usePageServer` registers their start
// (beforeAll) and stop (afterAll) and returns an object filled at start.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { fixedClock } from "../../lib/market/clock";
import type { Clock } from "../../lib/market/market-data";
import { createSimulatedMarket } from "../../lib/market/simulated";
import { createApp, type OptionscopeApp } from "../../server/app";
import { listen, type Listening } from "../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../server/limits";
import type { AppOptions } from "../../server/services";
import { sharedChromium } from "../_helpers/shared-chromium";

/**
 * Where page tests write their screenshots: `docs/screenshots/` (the README's images) only with
 * `UPDATE_SCREENSHOTS=1`, else the ignored `test-artifacts/screenshots/`, so an ordinary run leaves
 * the checkout unmodified. Created if missing.
 * @example await page.screenshot({ path: resolve(screenshotsDir(), "heatmap.png") });
 */
export function screenshotsDir(): string {
  const root = resolve(__dirname, "../..");
  const dir = process.env.UPDATE_SCREENSHOTS === "1" ? resolve(root, "docs/screenshots") : resolve(root, "test-artifacts/screenshots");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The app a page test serves: the simulated market pinned at `now` (ms) or run by `now` (a clock),
 * in-process limits, no tool server.
 * @example simulatedApp({ now: Date.parse("2024-03-06T19:00:00Z"), accounts })
 */
export function simulatedApp(o: { now: number | Clock; accounts: AppOptions["accounts"]; console?: Parameters<typeof createApp>[0]["console"] }): OptionscopeApp {
  return createApp({
    market: createSimulatedMarket({ seed: 42, clock: typeof o.now === "number" ? fixedClock(o.now) : o.now }),
    accounts: o.accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    toolServer: false,
    console: o.console,
  });
}

export interface PageServer {
  browser: Browser;
  /** The first app's listener. */
  server: Listening;
  /** Every app's listener, in the order `apps` returned them. */
  servers: Listening[];
}

/**
 * Before the file's tests: the apps `apps()` builds, each listening, and the worker's Chromium.
 * After them: the listeners closed (Chromium stays for the worker's next file), then `afterClose`
 * (stores, databases).
 * @example const ctx = usePageServer(() => simulatedApp({ now: NOW_MS, accounts })); // ctx.server.url
 */
export function usePageServer(
  apps: () => OptionscopeApp | OptionscopeApp[] | Promise<OptionscopeApp | OptionscopeApp[]>,
  options: { afterClose?: () => void | Promise<void> } = {},
): PageServer {
  const ctx = { servers: [] as Listening[] } as PageServer;
  beforeAll(async () => {
    for (const app of [await apps()].flat()) ctx.servers.push(await listen(app, { port: 0 }));
    ctx.server = ctx.servers[0]!;
    ctx.browser = await sharedChromium();
  }, 120_000);
  afterAll(async () => {
    for (const s of ctx.servers) await s.close(true);
    await options.afterClose?.();
  });
  return ctx;
}
