// The pages' browser scripts, each a TypeScript entry bundled by ./bundle.ts and served as an
// external script: `npm run build` writes every one of them (scripts/build-page-scripts.ts).
import { fileURLToPath } from "node:url";
import type { PageScript } from "./bundle";

const entry = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** `/heatmap/app.js` on the base host (the served page's entry, not the static build's). */
export const HEATMAP_SCRIPT: PageScript = { entry: entry("./heatmap/app/server-entry.ts"), prebuilt: "web/heatmap-app.js" };

/** `/chart/app.js` on the atlas host. */
export const CHART_SCRIPT: PageScript = { entry: entry("./chart/app/main.ts"), prebuilt: "web/chart-app.js" };

/** `/chart/udf-key.js` on the atlas host: the key for TradingView's UDF datafeed (docs/tradingview.md). */
export const UDF_KEY_SCRIPT: PageScript = { entry: entry("./chart/udf-key-entry.ts"), prebuilt: "web/udf-key.js" };

/** `/console/app.js` on the base host. */
export const CONSOLE_SCRIPT: PageScript = { entry: entry("../console/app/main.ts"), prebuilt: "web/console-app.js" };

/** Every page script, in the order the build writes them. */
export const PAGE_SCRIPTS: readonly PageScript[] = [HEATMAP_SCRIPT, CHART_SCRIPT, CONSOLE_SCRIPT, UDF_KEY_SCRIPT];
