// The pages' browser bundles for the package (issues 17 and 31): `npm run build` writes
// dist/web/heatmap-app.js, chart-app.js and console-app.js, which the packaged server serves as
// /heatmap/app.js, /chart/app.js and /console/app.js (no esbuild needed at run time;
// server/web/bundle.ts). Usage: tsx scripts/build-page-scripts.ts [outDir [page.js ...]]
import { copyFileSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildBrowserBundle, type PageScript } from "../server/web/bundle";
import { PAGE_SCRIPTS } from "../server/web/page-scripts";
import { REDOC_BUNDLE, REDOC_PREBUILT } from "../server/web/docs-page";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Writes one page's bundle under `outDir` (default dist); returns the file and its size. */
export async function buildPageScript(script: PageScript, outDir = resolve(ROOT, "dist")): Promise<{ file: string; bytes: number }> {
  const js = await buildBrowserBundle(script.entry);
  const file = resolve(outDir, script.prebuilt);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, js);
  return { file, bytes: Buffer.byteLength(js) };
}

/**
 * Redoc's standalone bundle (the API reference page's one script) copied beside the page scripts,
 * with its licence: the server package ships this file instead of depending on \`redoc\`, whose
 * install is ~100 packages (React, styled-components, core-js) for one prebuilt file.
 */
export function copyRedocBundle(outDir = resolve(ROOT, "dist")): { file: string; bytes: number } {
  const pkg = createRequire(import.meta.url).resolve("redoc/package.json");
  const file = resolve(outDir, REDOC_PREBUILT);
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(join(dirname(pkg), REDOC_BUNDLE), file);
  copyFileSync(join(dirname(pkg), "LICENSE"), `${file}.LICENSE`);
  return { file, bytes: statSync(file).size };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ? resolve(process.argv[2]) : undefined;
  // Further arguments name the only pages to build (`heatmap-app.js`): the package test needs one.
  const only = process.argv.slice(3);
  for (const script of PAGE_SCRIPTS.filter((s) => only.length === 0 || only.some((name) => s.prebuilt.endsWith(name)))) {
    const { file, bytes } = await buildPageScript(script, outDir);
    console.log(`wrote ${file} (${(bytes / 1024).toFixed(0)} KiB)`);
  }
  const redoc = copyRedocBundle(outDir);
  console.log(`wrote ${redoc.file} (${(redoc.bytes / 1024).toFixed(0)} KiB)`);
}
