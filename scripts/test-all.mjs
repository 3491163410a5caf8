// `npm test`: the static checks (Biome, tsc, knip: what `npm run check` runs one after another, here
// side by side, each one's output printed whole when it ends), then every test layer (`vitest run`),
// which runs even when a check failed so one run reports everything. Exits non-zero if either
// failed. Arguments go to vitest (`npm test -- test/flow`).
// The checks run before the tests, not beside them: beside them, even at the lowest priority,
// they slowed the load tests of the integration layer past their limits.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const node = process.execPath;

const CHECKS = [
  ["biome ci", npx, ["biome", "ci"]],
  ["typecheck", node, ["node_modules/typescript-native/bin/tsc", "--noEmit"]],
  ["knip", npx, ["knip"]],
];

/** Run one check with its output captured; resolves to its exit code after printing the output. */
function runCheck([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "1" } });
    const out = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => out.push(c));
    child.on("error", (e) => out.push(Buffer.from(String(e))));
    child.on("close", (code) => {
      process.stdout.write(Buffer.concat(out));
      console.log(`${name}: ${code === 0 ? "clean" : `FAILED (exit ${code})`}`);
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(CHECKS.map(runCheck));
const checkCode = codes.find((c) => c !== 0) ?? 0;
console.log(`npm run check (biome ci, typecheck, knip): ${checkCode === 0 ? "clean" : `FAILED (exit ${checkCode})`}`);
// Read by scripts/ci-summary.mjs: a failed check counts as a failure in CI's one-line summary.
mkdirSync(".vitest", { recursive: true });
writeFileSync(".vitest/check.json", JSON.stringify({ code: checkCode }));

const tests = spawnSync(npx, ["vitest", "run", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(checkCode !== 0 ? checkCode : (tests.status ?? 1));
