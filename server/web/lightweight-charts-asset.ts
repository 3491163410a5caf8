// The open-source lightweight-charts library (Apache-2.0), served from node_modules as-is.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** The file served: the standalone build that defines `window.LightweightCharts`. */
const LIGHTWEIGHT_CHARTS_FILE = "dist/lightweight-charts.standalone.production.js";

let cached: string | null | undefined; // the file never changes while the process runs

/**
 * The library's source, or null when the package is not installed (it is a dev dependency:
 * production installs without it answer the script with 503).
 */
export function lightweightChartsSource(): string | null {
  if (cached !== undefined) return cached;
  try {
    const from = typeof import.meta?.url === "string" ? import.meta.url : pathToFileURL(join(process.cwd(), "index.js")).href;
    // The package's `exports` map hides dist/ files, so resolve its package.json and join.
    const pkg = createRequire(from).resolve("lightweight-charts/package.json");
    cached = readFileSync(join(dirname(pkg), LIGHTWEIGHT_CHARTS_FILE), "utf8");
  } catch {
    cached = null;
  }
  return cached;
}
