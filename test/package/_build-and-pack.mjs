// Child process of the package tests' global setup (_build-once.ts): the package build (tsup for
// the server, scripts/build-lib.mjs for the library), then the library packed and installed into
// an empty project once (scripts/pack-library.mjs), its figures in <packDir>/pack.json.
//   node test/package/_build-and-pack.mjs <outDir> <packDir>
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildLib } from "../../scripts/build-lib.mjs";
import { packAndInstall } from "../../scripts/pack-library.mjs";

const root = resolve(fileURLToPath(import.meta.url), "..", "..", "..");
const [outDir, packDir] = process.argv.slice(2);
const tsup = spawnSync(process.execPath, [join(root, "node_modules/tsup/dist/cli-default.js"), "--out-dir", outDir], { cwd: root, stdio: "inherit" });
if (tsup.status !== 0) process.exit(tsup.status ?? 1);
await buildLib(outDir);
writeFileSync(join(packDir, "pack.json"), JSON.stringify(packAndInstall(outDir, packDir), null, 2));
