// The heatmap page with no server (issue 17): one self-contained HTML file that embeds the
// simulated market, the library and its WASM kernels, and computes everything in the browser.
// Opens from file://. Usage: tsx scripts/build-heatmap-static.ts [outDir] [--now ISO]
// (default outDir dist/heatmap-static; --now pins the simulated market's clock, for tests).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { heatmapHtml } from "../server/web/heatmap/heatmap-html";
import { heatmapBundle } from "../server/web/heatmap/pages";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = resolve(ROOT, "server/web/heatmap/app/static-entry.ts");

/** Builds the static page into `outDir`; returns the HTML file's path and size. */
export async function buildHeatmapStatic(outDir: string, nowMs = 0): Promise<{ file: string; bytes: number }> {
  const js = await heatmapBundle(ENTRY);
  // nowMs 0: the page's simulated market runs to the reader's own clock.
  const html = heatmapHtml({ base: "", mode: "simulated", nowMs, simulated: true }, { inline: js });
  mkdirSync(outDir, { recursive: true });
  const file = resolve(outDir, "index.html");
  writeFileSync(file, html);
  return { file, bytes: Buffer.byteLength(html) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const nowAt = args.indexOf("--now");
  const nowMs = nowAt >= 0 ? Date.parse(args[nowAt + 1]) : 0;
  if (nowAt >= 0 && !Number.isFinite(nowMs)) {
    console.error(`--now: "${args[nowAt + 1]}" is not an instant (e.g. 2024-03-06T19:00:00Z)`);
    process.exit(2);
  }
  const outDir = resolve(ROOT, args.find((a, i) => !a.startsWith("--") && (nowAt < 0 || i !== nowAt + 1)) ?? "dist/heatmap-static");
  const { file, bytes } = await buildHeatmapStatic(outDir, nowMs);
  console.log(`wrote ${file} (${(bytes / 1024).toFixed(0)} KiB): open it in a browser, no server needed`);
}
