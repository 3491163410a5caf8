// `npm test`: the static checks (Biome, tsc, knip: what `npm run check` runs) and every test layer
// (`vitest run`) at once, the checks at the lowest CPU priority so they only take what the tests
// leave idle (the integration layer waits on databases, browsers and child processes), their
// output printed whole after the tests'. Exits non-zero if either failed; a failed check does not
// stop the tests, so one run reports everything. Arguments go to vitest (`npm test -- test/flow`).
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const niced = process.platform === "linux" ? ["nice", "-n", "19"] : [];

const CHECKS = [
  ["biome ci", [npx, "biome", "ci"]],
  ["typecheck", [process.execPath, "node_modules/typescript-native/bin/tsc", "--noEmit"]],
  ["knip", [npx, "knip"]],
];

/** One check, its output captured: resolves to its name, exit code and output. */
function runCheck([name, argv]) {
  const [command, ...args] = [...niced, ...argv];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "1" } });
    const out = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => out.push(c));
    child.on("error", (e) => out.push(Buffer.from(String(e))));
    child.on("close", (code) => resolve({ name, code: code ?? 1, output: Buffer.concat(out) }));
  });
}

const checks = Promise.all(CHECKS.map(runCheck));
const tests = new Promise((resolve) => {
  const child = spawn(npx, ["vitest", "run", ...process.argv.slice(2)], { stdio: "inherit" });
  child.on("close", (code) => resolve(code ?? 1));
});
const [testCode, results] = await Promise.all([tests, checks]);

for (const { name, code, output } of results) {
  process.stdout.write(output);
  console.log(`${name}: ${code === 0 ? "clean" : `FAILED (exit ${code})`}`);
}
const checkCode = results.find((r) => r.code !== 0)?.code ?? 0;
console.log(`npm run check (biome ci, typecheck, knip): ${checkCode === 0 ? "clean" : `FAILED (exit ${checkCode})`}`);
// Read by scripts/ci-summary.mjs: a failed check counts as a failure in CI's one-line summary.
mkdirSync(".vitest", { recursive: true });
writeFileSync(".vitest/check.json", JSON.stringify({ code: checkCode }));
process.exit(checkCode !== 0 ? checkCode : testCode);
