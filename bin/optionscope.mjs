#!/usr/bin/env node
// Launcher: the built CLI (dist/cli.js) when present, else the TypeScript source through tsx
// (a devDependency, so the fallback serves a git checkout; published packages ship dist/).
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const built = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let mod;
if (existsSync(built)) {
  mod = await import(pathToFileURL(built).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  mod = await import(new URL("../server/main.ts", import.meta.url).href);
}
// `serve` resolves only after a graceful shutdown, so exiting here is always safe.
process.exit(await mod.main(process.argv.slice(2), process.env));
