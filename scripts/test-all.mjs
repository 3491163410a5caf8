// `npm test`: the static checks (`npm run check`: Biome, tsc, knip) and every test layer
// (`vitest run`) side by side, so the checks' half minute of one core hides behind the tests.
// The checks' output is printed once they end, as one block; exits non-zero if either failed.
// Arguments go to vitest (`npm test -- test/flow`).
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

// At the lowest priority: the checks take only what the tests leave idle (the load tests keep
// their timing), so they cost the run no wall time.
const lowest = process.platform === "linux" ? ["nice", ["-n", "19", npm]] : [npm, []];
const check = spawn(lowest[0], [...lowest[1], "run", "--silent", "check"], { stdio: ["ignore", "pipe", "pipe"] });
let checkOutput = "";
check.stdout.on("data", (d) => (checkOutput += d));
check.stderr.on("data", (d) => (checkOutput += d));
const checkDone = new Promise((resolve) => check.on("close", (code) => resolve(code ?? 1)));

const tests = spawn(npx, ["vitest", "run", ...process.argv.slice(2)], { stdio: "inherit" });
const testsDone = new Promise((resolve) => tests.on("close", (code) => resolve(code ?? 1)));

const [checkCode, testsCode] = await Promise.all([checkDone, testsDone]);
console.log(`\nnpm run check (biome ci, tsc --noEmit, knip): ${checkCode === 0 ? "clean" : `FAILED (exit ${checkCode})`}`);
if (checkCode !== 0) console.log(checkOutput.trimEnd());
// Read by scripts/ci-summary.mjs: a failed check counts as a failure in CI's one-line summary.
mkdirSync(".vitest", { recursive: true });
writeFileSync(".vitest/check.json", JSON.stringify({ code: checkCode }));
process.exit(checkCode !== 0 ? checkCode : testsCode);
