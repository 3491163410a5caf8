#!/usr/bin/env node
// Launcher: the built CLI (dist/cli.js) when present; in a git checkout, the TypeScript source
// bundled by esbuild (about 1 s of CPU to start instead of 5 s through tsx's loader hooks:
// server/workers/source-bundle.mjs), else through tsx. OPTIONSCOPE_WORKER_BUNDLE=off keeps tsx
// (source-mapped stack traces while debugging). esbuild and tsx are devDependencies: published
// packages ship dist/.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const built = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let mod;
if (existsSync(built)) {
  mod = await import(pathToFileURL(built).href);
} else {
  const source = fileURLToPath(new URL("../server/main.ts", import.meta.url));
  const { ensureBundle, WORKER_ENTRIES } = await import("../server/workers/source-bundle.mjs");
  const bundling = process.env.OPTIONSCOPE_WORKER_BUNDLE !== "off";
  // `serve` starts worker threads at once: their bundles too, built beside the CLI's (esbuild runs
  // them in parallel; nothing is built when the sources have not changed).
  const entries = bundling ? [source, ...(process.argv[2] === "serve" ? WORKER_ENTRIES : [])] : [];
  const [bundle = null] = await Promise.all(entries.map((e) => ensureBundle(e)));
  if (bundle) {
    mod = await import(pathToFileURL(bundle).href);
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    mod = await import(pathToFileURL(source).href);
  }
}
// `serve` resolves only after a graceful shutdown, so exiting here is always safe.
process.exit(await mod.main(process.argv.slice(2), process.env));
