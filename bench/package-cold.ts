// Issue 32: the library as a Node user meets it, cold. Builds the library (scripts/build-lib.mjs,
// no declarations), packs and installs it into an empty project, and times in fresh processes
// (median of --runs) `import("optionscope")` and the first `exposureGrid` on a 40 x 250 x 2 =
// 20,000-contract chain with `loadKernels()` on that call; also prints the install and bundle
// figures (scripts/measure-package.mjs). Targets: import <= 150 ms, first grid <= 60 ms.
//
//   npx tsx bench/package-cold.ts [--runs 15] [--tsc]
//
// Without --tsc the package is built without declarations, so its size figures are smaller than
// the published package's (scripts/measure-package.mjs after `npm run build` gives those).
// Figures depend on the machine's load: say what else ran beside them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({ options: { runs: { type: "string", default: "15" }, tsc: { type: "boolean", default: false } } });
const dir = mkdtempSync(join(tmpdir(), "optionscope-bench-package-"));
try {
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
    if (r.status !== 0) throw new Error(`${args.join(" ")} exited with ${r.status}`);
  };
  run(["scripts/build-lib.mjs", "--out-dir", dir, ...(values.tsc ? [] : ["--no-dts"])]);
  run(["scripts/measure-package.mjs", "--build-dir", dir, "--runs", values.runs, ...(values.tsc ? [] : ["--skip-tsc"])]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
