// One headless Chromium per test worker, shared by every browser test file the worker runs: a
// launch costs 1-2 s of CPU, a new page a few milliseconds. The integration layer's files share
// one module graph per worker (`isolate: false`, docs/architecture.md#test-layers), so this
// module, and the browser it launched, outlive a file; under `isolate: true` (one process per
// file) it is one launch per file, as before.
// Files open their own pages (`browser.newPage()` gives each page its own context: no cookies,
// storage or cache shared with another file) and close them; they never close the browser. It goes
// with the worker: vitest stops a worker with SIGTERM (SIGKILL 500 ms later), on which playwright
// closes what it launched, and Chromium also exits by itself once its pipe to the worker closes.
import type { Browser } from "playwright-core";
import { launchChromium } from "../browser/_bundle";

let current: Promise<Browser> | null = null;

/**
 * The worker's Chromium, launched on first use (again if it crashed or was closed).
 * @example const browser = await sharedChromium(); const page = await browser.newPage();
 */
export function sharedChromium(): Promise<Browser> {
  if (current) return current;
  const launched = launchChromium();
  current = launched;
  const forget = () => {
    if (current === launched) current = null;
  };
  launched.then((b) => b.on("disconnected", forget), forget);
  return launched;
}
