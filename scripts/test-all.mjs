// `npm test`: the static checks (`npm run check`: Biome, tsc, knip), then every test layer
// (`vitest run`), which runs even when a check failed so one run reports everything. Exits
// non-zero if either failed. Arguments go to vitest (`npm test -- test/flow`).
// The checks run before the tests, not beside them: beside them, even at the lowest priority,
// they slowed the load tests of the integration layer past their limits.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

const check = spawnSync(npm, ["run", "--silent", "check"], { stdio: "inherit" });
const checkCode = check.status ?? 1;
console.log(`npm run check (biome ci, typecheck, knip): ${checkCode === 0 ? "clean" : `FAILED (exit ${checkCode})`}`);
// Read by scripts/ci-summary.mjs: a failed check counts as a failure in CI's one-line summary.
mkdirSync(".vitest", { recursive: true });
writeFileSync(".vitest/check.json", JSON.stringify({ code: checkCode }));

const tests = spawnSync(npx, ["vitest", "run", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(checkCode !== 0 ? checkCode : (tests.status ?? 1));
