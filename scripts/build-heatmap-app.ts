// The heatmap page's browser bundle for the package (issue 17): `npm run build` writes
// dist/web/heatmap-app.js, which the packaged server serves as /heatmap/app.js (no esbuild needed
// at run time; server/web/heatmap/bundle.ts). Usage: tsx scripts/build-heatmap-app.ts [outDir]
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildBrowserBundle, HEATMAP_SERVER_ENTRY, PREBUILT_NAME } from "../server/web/heatmap/bundle";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Writes the bundle under `outDir` (default dist); returns the file and its size. */
export async function buildHeatmapApp(outDir = resolve(ROOT, "dist")): Promise<{ file: string; bytes: number }> {
  const js = await buildBrowserBundle(HEATMAP_SERVER_ENTRY);
  const file = resolve(outDir, PREBUILT_NAME);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, js);
  return { file, bytes: Buffer.byteLength(js) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { file, bytes } = await buildHeatmapApp(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`wrote ${file} (${(bytes / 1024).toFixed(0)} KiB)`);
}
