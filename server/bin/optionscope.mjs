#!/usr/bin/env node
// The server package's `optionscope` command (server/package.json `bin`). Installed from npm, the
// package holds the build beside this file (dist/cli.js: scripts/pack-server.mjs stages both). In
// this repository, where npm links the workspace's bin into node_modules/.bin, there is no
// server/dist: the checkout's launcher runs instead (bin/optionscope.mjs: the root's dist/cli.js
// after `npm run build`, else the sources).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/cli.js", import.meta.url);
if (existsSync(fileURLToPath(built))) {
  const mod = await import(built.href);
  // `serve` resolves only after a graceful shutdown, so exiting here is always safe.
  process.exit(await mod.main(process.argv.slice(2), process.env));
} else {
  await import("../../bin/optionscope.mjs");
}
